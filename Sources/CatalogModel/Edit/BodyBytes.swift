/// The bytes of a request body while it is read: where each part starts, whether it is UTF-8,
/// and values read into ``BodyNode`` trees only once their size is known to be within a limit
/// (a value is first skipped, which allocates nothing, then read from its own bytes).
struct BodyBytes {
    /// The bytes being read: the body, or one NDJSON line of it.
    let buffer: UnsafeBufferPointer<UInt8>
    /// Where `buffer` starts in the body, for messages.
    let base: Int

    init(_ buffer: UnsafeBufferPointer<UInt8>, base: Int = 0) {
        self.buffer = buffer
        self.base = base
    }

    /// The bytes from `range` (offsets in `buffer`), as their own ``BodyBytes``.
    func slice(_ range: Range<Int>) -> BodyBytes {
        BodyBytes(UnsafeBufferPointer(rebasing: buffer[range]), base: base + range.lowerBound)
    }

    /// A reader positioned at the start.
    func input() -> JSONInput { JSONInput(buffer) }

    /// The offset of the first byte that is not JSON white space, from `start`.
    func firstNonWhitespace(from start: Int = 0) -> Int {
        var index = start
        while index < buffer.count, JSONLexis.isWhitespace(buffer[index]) { index += 1 }
        return index
    }

    /// What a JSON error means in a problem: `not JSON (byte 12: expected ':')`, counting bytes
    /// from the start of the body.
    func message(_ error: JSONInputError) -> String {
        "not JSON (byte \(base + error.offset): \(error.message))"
    }

    /// The value at `input`'s position, read into a node when its JSON is at most `limit` bytes;
    /// else `.tooLarge` with its size. Syntax errors are thrown, with offsets in `buffer`.
    func boundedNode(_ input: inout JSONInput, limit: Int) throws(JSONInputError) -> Bounded {
        input.skipWhitespace()
        let start = input.index
        try input.skipValue()
        let end = input.index
        guard end - start <= limit else { return .tooLarge(end - start) }
        var value = slice(start..<end).input()
        do {
            return .node(try value.bodyNode())
        } catch {
            throw JSONInputError(error.message, at: error.offset + start)
        }
    }

    /// A value read by ``boundedNode(_:limit:)``.
    enum Bounded {
        case node(BodyNode)
        case tooLarge(Int)
    }

    /// The whole of `buffer` as one value, at most `limit` bytes; a problem at `pointer` otherwise.
    func document(limit: Int, at pointer: String, problems: inout ProblemList) -> BodyNode? {
        var input = input()
        do {
            switch try boundedNode(&input, limit: limit) {
            case .tooLarge(let size):
                problems.add(pointer, Self.tooLarge(size, limit: limit))
                return nil
            case .node(let node):
                input.skipWhitespace()
                guard input.index == buffer.count else {
                    problems.add(
                        pointer, message(JSONInputError("unexpected content after the value", at: input.index)))
                    return nil
                }
                return node
            }
        } catch {
            problems.add(pointer, message(error))
            return nil
        }
    }

    /// `a record is at most 256 KiB of JSON (this one has 300000 bytes)`.
    static func tooLarge(_ size: Int, limit: Int) -> String {
        "a record is at most \(limit / 1024) KiB of JSON (this one has \(size) bytes)"
    }

    /// The offset of the first byte that is not part of well-formed UTF-8 (RFC 3629: no overlong
    /// forms, no surrogates, nothing past U+10FFFF), or nil when every byte is.
    func firstInvalidUTF8() -> Int? {
        var index = 0
        let count = buffer.count
        while index < count {
            let lead = buffer[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1...0xEC, 0xEE, 0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default: return index
            }
            guard index + length <= count else { return index }
            guard (low...high).contains(buffer[index + 1]) else { return index }
            for offset in 2..<length where !(0x80...0xBF).contains(buffer[index + offset]) { return index }
            index += length
        }
        return nil
    }

    /// Checks the body is UTF-8 (a problem at `""` naming the byte otherwise), and gives where it
    /// starts after a byte order mark, if it has one.
    func checkedStart(problems: inout ProblemList) -> Int? {
        if let bad = firstInvalidUTF8() {
            problems.add("", "the body is not UTF-8 (byte \(base + bad))")
            return nil
        }
        if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { return 3 }
        return 0
    }
}
