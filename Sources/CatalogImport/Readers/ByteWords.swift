/// Eight bytes at a time ("SIMD within a register") for the tokenizers' inner loops: tests
/// whether a 64-bit word holds a byte of interest, so runs of ordinary text are skipped in
/// word-sized steps. The tests only say *whether* such a byte is present (not where), which
/// holds on either byte order.
enum ByteWords {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The eight bytes at `pointer`, with no alignment needed.
    @inline(__always)
    static func load(_ pointer: UnsafePointer<UInt8>) -> UInt64 {
        UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self)
    }

    /// Whether some byte of `word` is `byte`.
    @inline(__always)
    static func contains(_ word: UInt64, _ byte: UInt8) -> Bool {
        let x = word ^ (ones &* UInt64(byte))
        return (x &- ones) & ~x & highBits != 0
    }

    /// Whether some byte of `word` is below `limit` (at most 0x80).
    @inline(__always)
    static func containsByte(_ word: UInt64, below limit: UInt8) -> Bool {
        (word &- ones &* UInt64(limit)) & ~word & highBits != 0
    }

    /// Whether every byte of `word` is ASCII (below 0x80).
    @inline(__always)
    static func isASCII(_ word: UInt64) -> Bool {
        word & highBits == 0
    }

    /// How many bytes of `word` are UTF-8 continuation bytes (`10xxxxxx`).
    @inline(__always)
    static func continuationCount(_ word: UInt64) -> Int {
        (word & (~word << 1) & highBits).nonzeroBitCount
    }
}

/// ASCII bytes the tokenizers look for.
enum Byte {
    static let tab: UInt8 = 0x09
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote: UInt8 = 0x22
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let minus: UInt8 = 0x2D
    static let dot: UInt8 = 0x2E
    static let slash: UInt8 = 0x2F
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let colon: UInt8 = 0x3A
    static let semicolon: UInt8 = 0x3B
    static let upperE: UInt8 = 0x45
    static let openBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let closeBracket: UInt8 = 0x5D
    static let b: UInt8 = 0x62
    static let e: UInt8 = 0x65
    static let f: UInt8 = 0x66
    static let n: UInt8 = 0x6E
    static let r: UInt8 = 0x72
    static let t: UInt8 = 0x74
    static let u: UInt8 = 0x75
    static let openBrace: UInt8 = 0x7B
    static let closeBrace: UInt8 = 0x7D

    /// Whether `byte` is whitespace in JSON and XML (and the format sniffer): space, TAB, LF, CR.
    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == tab || byte == lineFeed || byte == carriageReturn
    }
}
