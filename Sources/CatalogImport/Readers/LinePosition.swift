#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the current line starts, for error locations whose columns count Unicode scalars from 1:
/// the line counting every reader's scanner shares (``ByteScanner``, ``XMLInputStream``).
struct LinePosition: Equatable {
    /// The current 1-based line.
    var line = 1
    /// The input offset of the current line's first byte.
    var lineStart: Int64 = 0
    /// UTF-8 continuation bytes passed on the current line (so columns count scalars).
    var continuations = 0

    /// The 1-based column of the byte at input offset `offset`, once every continuation byte
    /// before it on this line is counted.
    @inline(__always)
    func column(atOffset offset: Int64) -> Int {
        Int(offset - lineStart) - continuations + 1
    }

    /// Records the line feed at input offset `offset`.
    @inline(__always)
    mutating func newline(atOffset offset: Int64) {
        line += 1
        lineStart = offset + 1
        continuations = 0
    }

    /// Passes one byte at input offset `offset`.
    @inline(__always)
    mutating func pass(_ byte: UInt8, atOffset offset: Int64) {
        if byte == 0x0A {
            newline(atOffset: offset)
        } else if byte & 0xC0 == 0x80 {
            continuations += 1
        }
    }

    /// Passes `bytes[from..<to]`, whose byte `bytes[0]` is at input offset `base`: line feeds
    /// found with `memchr`, continuation bytes counted only after the last one.
    mutating func pass(_ bytes: UnsafePointer<UInt8>, from: Int, to: Int, base: Int64) {
        var i = from
        var lastLineFeed = -1
        while i < to, let found = memchr(bytes + i, 0x0A, to - i) {
            lastLineFeed = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - bytes
            line += 1
            i = lastLineFeed + 1
        }
        if lastLineFeed >= 0 {
            lineStart = base + Int64(lastLineFeed) + 1
            continuations = 0
        }
        while i < to {
            if bytes[i] & 0xC0 == 0x80 { continuations += 1 }
            i += 1
        }
    }
}
