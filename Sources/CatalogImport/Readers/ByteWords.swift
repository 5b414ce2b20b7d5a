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
