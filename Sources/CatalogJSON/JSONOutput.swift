/// A fast JSON writer for the shapes the API answers with most (records, pages, search
/// results): bytes appended directly, no intermediate value tree. `JSONEncoder` produces the same
/// documents (keys sorted) at several times the cost.
///
/// ```swift
/// var output = JSONOutput()
/// record.write(to: &output)
/// let body = output.bytes
/// ```
///
/// Objects are written through ``object(_:)``, whose ``JSONObjectWriter`` places the commas and
/// keys, and arrays through ``array(_:_:)``; ``raw(_:)`` is left for splicing JSON already written.
public struct JSONOutput: Sendable {
    /// The document so far.
    public internal(set) var bytes: [UInt8]

    /// An empty output with room for `capacity` bytes.
    public init(capacity: Int = 1024) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends literal JSON text (punctuation, `null`).
    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `"key":`.
    public mutating func key(_ key: StaticString) {
        bytes.append(0x22)
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(0x22)
        bytes.append(0x3A)
    }

    /// Appends JSON that is already encoded (a stored record).
    public mutating func append(json: some Collection<UInt8>) {
        bytes.append(contentsOf: json)
    }

    /// Appends a quoted string. Quotes, backslashes and control characters are escaped, and so
    /// are `<`, `>` and `&`, so no document can be mistaken for markup.
    public mutating func string(_ value: String) {
        bytes.append(0x22)
        var value = value
        value.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return }
            let needsEscape = Self.needsEscape
            var start = 0
            var index = 0
            while index < utf8.count {
                let byte = base[index]
                if needsEscape[Int(byte)] {
                    if index > start {
                        bytes.append(contentsOf: UnsafeBufferPointer(start: base + start, count: index - start))
                    }
                    switch byte {
                    case 0x22: bytes += [0x5C, 0x22]
                    case 0x5C: bytes += [0x5C, 0x5C]
                    case 0x0A: bytes += [0x5C, 0x6E]
                    case 0x0D: bytes += [0x5C, 0x72]
                    case 0x09: bytes += [0x5C, 0x74]
                    default:
                        bytes += [0x5C, 0x75, 0x30, 0x30, Self.hex[Int(byte >> 4)], Self.hex[Int(byte & 0x0F)]]
                    }
                    start = index + 1
                }
                index += 1
            }
            if utf8.count > start {
                bytes.append(contentsOf: UnsafeBufferPointer(start: base + start, count: utf8.count - start))
            }
        }
        bytes.append(0x22)
    }

    /// Bytes written as escapes: control characters, `"`, `\`, `<`, `>`, `&`.
    private static let needsEscape: [Bool] = (0..<256).map { byte in
        byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x3C || byte == 0x3E || byte == 0x26
    }

    /// Appends a quoted string or `null`.
    public mutating func string(_ value: String?) {
        if let value { string(value) } else { raw("null") }
    }

    /// Appends an integer.
    public mutating func integer(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Appends an integer or `null`.
    public mutating func integer(_ value: Int?) {
        if let value { integer(value) } else { raw("null") }
    }

    /// Appends `true` or `false`.
    public mutating func boolean(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// Appends a number literal as it is when it is a valid JSON number, else as a string (so
    /// the document stays valid whatever the literal).
    public mutating func number(literal: String) {
        if JSONNumber.isValid(literal) {
            bytes.append(contentsOf: literal.utf8)
        } else {
            string(literal)
        }
    }

    /// Appends an array of strings.
    public mutating func strings(_ values: [String]) {
        bytes.append(0x5B)
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(0x2C) }
            string(value)
        }
        bytes.append(0x5D)
    }

    /// Appends an array of values.
    public mutating func array<T: JSONWritable>(_ values: [T]) {
        bytes.append(0x5B)
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(0x2C) }
            value.write(to: &self)
        }
        bytes.append(0x5D)
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)
}

/// The grammar of a JSON number (RFC 8259), for literals kept as text.
public enum JSONNumber {
    /// Whether `text` is a JSON number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    public static func isValid(_ text: String) -> Bool {
        var cursor = TextCursor(bytes: text.utf8.makeIterator())
        return JSONLexis.scanNumber(&cursor) == nil && cursor.peekByte() == nil
    }

    /// The bytes of a string, one at a time.
    private struct TextCursor: JSONByteCursor {
        typealias Failure = Never

        var bytes: String.UTF8View.Iterator
        var next: UInt8?

        init(bytes: String.UTF8View.Iterator) {
            self.bytes = bytes
            self.next = self.bytes.next()
        }

        func peekByte() -> UInt8? { next }

        mutating func advance() { next = bytes.next() }
    }
}

/// A value ``JSONOutput`` can write.
public protocol JSONWritable {
    /// Writes the value as one JSON value.
    func write(to output: inout JSONOutput)
}

extension JSONWritable {
    /// The value as a JSON document.
    public var jsonBytes: [UInt8] {
        // Room for a page of records, so the buffer is not copied while it grows.
        var output = JSONOutput(capacity: 32 * 1024)
        write(to: &output)
        return output.bytes
    }
}
