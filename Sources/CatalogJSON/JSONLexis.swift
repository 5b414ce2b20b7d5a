/// The lexical rules of JSON (RFC 8259) that every reader here shares: whitespace, the escapes of
/// a string (with UTF-16 surrogate pairs), literals, and the grammar of a number.
///
/// Two readers call it: the in-memory ``JSONInput`` of CatalogModel, and the streaming
/// `JSONParser` of CatalogImport, which refills its buffer in the middle of a token. So the rules
/// are pure functions over bytes, or generic over a ``JSONByteCursor``; each reader keeps its own
/// control flow, error type and wording, and maps the faults reported here to them.
///
/// ```swift
/// JSONLexis.simpleEscape(UInt8(ascii: "n"))          // 0x0A
/// JSONLexis.surrogate(0xD83D)                         // .high
/// JSONLexis.scalar(high: 0xD83D, low: 0xDE00)         // 0x1F600
/// ```
public enum JSONLexis {
    /// Whether `byte` is JSON whitespace: space, tab, line feed or carriage return.
    @inlinable
    public static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// The byte that the one-character escape `\` + `kind` stands for (`"`, `\`, `/`, `b`, `f`,
    /// `n`, `r`, `t`), or nil when `kind` starts no such escape (`u` is read by ``hex4(_:)``).
    @inlinable
    public static func simpleEscape(_ kind: UInt8) -> UInt8? {
        switch kind {
        case 0x22, 0x5C, 0x2F: kind
        case 0x62: 0x08
        case 0x66: 0x0C
        case 0x6E: 0x0A
        case 0x72: 0x0D
        case 0x74: 0x09
        default: nil
        }
    }

    /// The value of a hexadecimal digit (either case), or nil.
    @inlinable
    public static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: UInt32(byte - 0x30)
        case 0x41...0x46: UInt32(byte - 0x41 + 10)
        case 0x61...0x66: UInt32(byte - 0x61 + 10)
        default: nil
        }
    }

    /// What the four bytes after `\u` hold.
    public enum Hex4: Equatable, Sendable {
        /// A UTF-16 code unit.
        case unit(UInt32)
        /// The byte at this offset (0 to 3) is not a hexadecimal digit.
        case invalidDigit(at: Int)
    }

    /// Reads the four hexadecimal digits at `bytes[0..<4]` (the caller has made sure they are
    /// there).
    @inlinable
    public static func hex4(_ bytes: UnsafePointer<UInt8>) -> Hex4 {
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard let digit = hexDigit(bytes[offset]) else { return .invalidDigit(at: offset) }
            value = value << 4 | digit
        }
        return .unit(value)
    }

    /// The half of a surrogate pair a UTF-16 code unit is.
    public enum Surrogate: Equatable, Sendable {
        /// `D800`–`DBFF`: must be followed by an escaped low surrogate.
        case high
        /// `DC00`–`DFFF`: only valid right after a high surrogate.
        case low
    }

    /// Which half of a surrogate pair `unit` is, or nil when it is a scalar by itself.
    @inlinable
    public static func surrogate(_ unit: UInt32) -> Surrogate? {
        switch unit {
        case 0xD800...0xDBFF: .high
        case 0xDC00...0xDFFF: .low
        default: nil
        }
    }

    /// The scalar a high and a low surrogate stand for together.
    @inlinable
    public static func scalar(high: UInt32, low: UInt32) -> UInt32 {
        0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
    }

    /// Appends the UTF-8 encoding of `scalar` (a Unicode scalar value, never a surrogate).
    @inlinable
    public static func appendUTF8(_ scalar: UInt32, to bytes: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            bytes.append(UInt8(scalar))
        case 0x80..<0x800:
            bytes.append(UInt8(0xC0 | (scalar >> 6)))
            bytes.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            bytes.append(UInt8(0xE0 | (scalar >> 12)))
            bytes.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            bytes.append(UInt8(0xF0 | (scalar >> 18)))
            bytes.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            bytes.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }

    /// The literal (`true`, `false`, `null`) that a value starting with `byte` must be, or nil.
    @inlinable
    public static func literal(startingWith byte: UInt8) -> StaticString? {
        switch byte {
        case 0x74: "true"
        case 0x66: "false"
        case 0x6E: "null"
        default: nil
        }
    }

    /// Whether `byte` may continue a word: ASCII letters, digits, `_`, or any non-ASCII byte. A
    /// literal or number followed by one is not that literal or number (`truex`, `1a`).
    @inlinable
    public static func isIdentifierByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
            || byte == 0x5F || byte >= 0x80
    }

    /// Where a number stops following `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    public enum NumberFault: Equatable, Sendable {
        /// `-` is not followed by a digit (the cursor is at the byte after `-`).
        case digitExpectedAfterMinus
        /// `0` is followed by another digit (the cursor is at that digit).
        case leadingZero
        /// `.` is not followed by a digit (the cursor is at the byte after `.`).
        case digitExpectedAfterPoint
        /// `e`/`E` and its sign are not followed by a digit (the cursor is there).
        case digitExpectedAfterExponent
    }

    /// Moves `cursor` over one number, from its first byte (`-` or a digit) to the byte after it.
    ///
    /// What follows the number is not looked at: each reader has its own rule for that.
    ///
    /// - Returns: nil for a number, else where the grammar failed, the cursor left at that byte.
    /// - Throws: what the cursor throws while it reads more input.
    @inlinable
    public static func scanNumber<Cursor: JSONByteCursor>(_ cursor: inout Cursor) throws(Cursor.Failure)
        -> NumberFault?
    {
        if try cursor.peekByte() == 0x2D { cursor.advance() }
        guard let lead = try cursor.peekByte(), isDigit(lead) else { return .digitExpectedAfterMinus }
        cursor.advance()
        if lead == 0x30 {
            if let next = try cursor.peekByte(), isDigit(next) { return .leadingZero }
        } else {
            try skipDigits(&cursor)
        }
        if try cursor.peekByte() == 0x2E {
            cursor.advance()
            guard let digit = try cursor.peekByte(), isDigit(digit) else { return .digitExpectedAfterPoint }
            try skipDigits(&cursor)
        }
        if let e = try cursor.peekByte(), e == 0x65 || e == 0x45 {
            cursor.advance()
            if let sign = try cursor.peekByte(), sign == 0x2B || sign == 0x2D { cursor.advance() }
            guard let digit = try cursor.peekByte(), isDigit(digit) else { return .digitExpectedAfterExponent }
            try skipDigits(&cursor)
        }
        return nil
    }

    @inlinable
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    @inlinable
    static func skipDigits<Cursor: JSONByteCursor>(_ cursor: inout Cursor) throws(Cursor.Failure) {
        while let byte = try cursor.peekByte(), isDigit(byte) { cursor.advance() }
    }
}

/// A reader's position in its bytes, as ``JSONLexis/scanNumber(_:)`` walks it: a streaming reader
/// refills its buffer in ``peekByte()`` (and may fail doing so), an in-memory one never fails.
public protocol JSONByteCursor {
    /// What reading more input can fail with (`Never` for bytes in memory).
    associatedtype Failure: Error
    /// The byte at the cursor, not consumed; nil at the end of the input.
    mutating func peekByte() throws(Failure) -> UInt8?
    /// Moves past the byte ``peekByte()`` returned.
    mutating func advance()
}
