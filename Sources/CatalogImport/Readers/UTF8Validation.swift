import CatalogModel

/// Strict UTF-8 validation over raw bytes, for input that arrives in chunks.
///
/// Rejects what RFC 3629 rejects (overlong forms, surrogates, code points above U+10FFFF, stray
/// continuation bytes) and, because it never occurs in text and usually means UTF-16 or binary
/// input, the NUL byte.
enum UTF8Validation {
    /// The outcome of validating a run of bytes.
    enum Outcome: Equatable {
        /// Every byte belongs to a complete, valid sequence.
        case valid
        /// The bytes are valid up to `at`, where a sequence starts that the run cuts off.
        case incomplete(at: Int)
        /// The sequence starting at `at` is invalid.
        case invalid(at: Int)
    }

    /// Validates `count` bytes at `bytes`.
    static func validate(_ bytes: UnsafePointer<UInt8>, count: Int) -> Outcome {
        var i = 0
        while i < count {
            // Fast path: eight ASCII bytes at a time (and no NUL among them).
            if i + 8 <= count {
                let word = ByteWords.load(bytes + i)
                if ByteWords.isASCII(word), !ByteWords.contains(word, 0) {
                    i += 8
                    continue
                }
            }
            let lead = bytes[i]
            if lead < 0x80 {
                if lead == 0 { return .invalid(at: i) }
                i += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return .invalid(at: i)
            }
            // The second byte has the tightened range; the others are plain continuations.
            for k in 1..<length {
                guard i + k < count else { return .incomplete(at: i) }
                let b = bytes[i + k]
                if k == 1 {
                    guard b >= low, b <= high else { return .invalid(at: i) }
                } else {
                    guard b & 0xC0 == 0x80 else { return .invalid(at: i) }
                }
            }
            i += length
        }
        return .valid
    }

    /// Explains the invalid sequence at `bytes` (at most `available` bytes readable) for an error.
    static func describeInvalid(_ bytes: UnsafePointer<UInt8>, available: Int) -> String {
        if bytes[0] == 0 {
            return "NUL byte in the input: it must be UTF-8 text (is it UTF-16 or binary?)"
        }
        let shown = (0..<min(available, 4)).map { hex(bytes[$0]) }.joined(separator: " ")
        return "invalid UTF-8 byte sequence (\(shown)): the input must be UTF-8 (is it Latin-1 or Windows-1252?)"
    }

    /// `0xFC`
    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }

    /// The byte-order-mark check every reader runs on the first bytes: the name of a UTF-16 or
    /// UTF-32 encoding if `bytes` starts with its BOM.
    static func foreignByteOrderMark(_ bytes: UnsafePointer<UInt8>, count: Int) -> String? {
        if count >= 4, bytes[0] == 0xFF, bytes[1] == 0xFE, bytes[2] == 0, bytes[3] == 0 { return "UTF-32" }
        if count >= 4, bytes[0] == 0, bytes[1] == 0, bytes[2] == 0xFE, bytes[3] == 0xFF { return "UTF-32" }
        if count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE { return "UTF-16" }
        if count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF { return "UTF-16" }
        return nil
    }

    /// The check every reader makes of the input's first bytes: a UTF-16 or UTF-32 byte order
    /// mark is refused, a UTF-8 one is skipped.
    ///
    /// - Returns: how many bytes to skip (3 after a UTF-8 byte order mark, else 0).
    /// - Throws: `.encoding` at line 1, column 1 for a foreign byte order mark.
    static func checkStart(_ bytes: UnsafePointer<UInt8>, count: Int, source: String) throws(ImportError) -> Int {
        if let encoding = foreignByteOrderMark(bytes, count: count) {
            throw ImportError(
                .encoding, "the input is \(encoding) (byte order mark); only UTF-8 is supported",
                at: SourceLocation(source: source, line: 1, column: 1))
        }
        return hasUTF8ByteOrderMark(bytes, count: count) ? 3 : 0
    }

    /// Whether `bytes` starts with the UTF-8 byte order mark.
    static func hasUTF8ByteOrderMark(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }
}
