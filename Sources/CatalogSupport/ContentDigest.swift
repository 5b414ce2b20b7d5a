import Foundation

/// The one content hash: a 128-bit digest of bytes, fed in pieces: four 64-bit lanes, each word
/// multiplied and rotated into its lane, the lanes and the length folded together at the end.
///
/// It tells content apart, as a checksum does; it is not a cryptographic hash, and nothing
/// trusts it against someone who crafts collisions. What it names only ever saves work: the
/// import digests of ``ImportStamp`` (stored with each catalog's definition, so this algorithm
/// must not change without a migration), the server's ETags, and the client library's cache
/// keys and cache file names.
///
/// Two hashes stay apart, each saying why beside it: the search index's term table
/// (`TermTable.hash`, a 32-bit slot hash on the index builder's hottest loop) and the stored
/// per-record content hash (`CatalogIndexBuilder.hash`, 64 bits kept in every item row that a
/// re-import compares against).
///
/// ```swift
/// var digest = ContentDigest()
/// digest.update(Array("hello".utf8))
/// let hex = digest.finalized()   // 32 hexadecimal digits
/// ```
public struct ContentDigest: Sendable {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9

    private var lanes: (UInt64, UInt64, UInt64, UInt64) = (
        0x243F_6A88_85A3_08D3, 0x1319_8A2E_0370_7344, 0xA409_3822_299F_31D0, 0x082E_FA98_EC4E_6C89
    )
    /// Bytes not yet making up a whole 32-byte block.
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    /// Creates an empty digest.
    public init() {}

    /// Adds bytes.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var rest = bytes[...]
        if !pending.isEmpty {
            let taken = min(32 - pending.count, rest.count)
            pending.append(contentsOf: rest.prefix(taken))
            rest = rest.dropFirst(taken)
            guard pending.count == 32 else { return }
            pending.withUnsafeBytes { absorbBlocks(UnsafeRawBufferPointer(rebasing: $0[...])) }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = rest.count / 32 * 32
        absorbBlocks(UnsafeRawBufferPointer(rebasing: rest.prefix(whole)))
        pending.append(contentsOf: rest.dropFirst(whole))
    }

    /// Adds bytes.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Adds a string's UTF-8 bytes followed by a separator no UTF-8 text contains, so that
    /// ("ab", "c") and ("a", "bc") differ.
    public mutating func update(field: String) {
        update(Array(field.utf8))
        update([0xFF])
    }

    /// The digest of everything added, as 32 lowercase hexadecimal digits.
    public func finalized() -> String {
        var copy = self
        var tail = copy.pending
        tail.append(0x80)
        while tail.count % 32 != 0 { tail.append(0) }
        tail.withUnsafeBytes { copy.absorbBlocks($0) }
        let (a, b, c, d) = copy.lanes
        let high = Self.avalanche(a &+ Self.rotate(b, 17) &+ copy.length &* Self.prime3)
        let low = Self.avalanche(c ^ Self.rotate(d, 29) ^ Self.rotate(high, 31) ^ copy.length)
        return Self.hex(high) + Self.hex(low)
    }

    /// The digest of `bytes`, as 32 lowercase hexadecimal digits.
    ///
    /// ```swift
    /// ContentDigest.hex(of: Array("hello".utf8))   // same as update, then finalized()
    /// ```
    public static func hex(of bytes: [UInt8]) -> String {
        var digest = ContentDigest()
        digest.update(bytes)
        return digest.finalized()
    }

    /// The digest of a file's bytes, read in pieces of a few megabytes.
    ///
    /// - Throws: the error of opening or reading the file.
    public static func file(at url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var digest = ContentDigest()
        while let data = try handle.read(upToCount: 4 << 20), !data.isEmpty {
            data.withUnsafeBytes { digest.update($0) }
        }
        return digest.finalized()
    }

    private mutating func absorbBlocks(_ bytes: UnsafeRawBufferPointer) {
        var (a, b, c, d) = lanes
        var offset = 0
        while offset + 32 <= bytes.count {
            a = Self.round(a, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            b = Self.round(b, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)))
            c = Self.round(c, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)))
            d = Self.round(d, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)))
            offset += 32
        }
        lanes = (a, b, c, d)
    }

    private static func round(_ lane: UInt64, _ word: UInt64) -> UInt64 {
        rotate(lane &+ word &* prime2, 31) &* prime1
    }

    private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        (value << bits) | (value >> (64 - bits))
    }

    private static func avalanche(_ value: UInt64) -> UInt64 {
        var x = value
        x ^= x >> 33
        x = x &* prime2
        x ^= x >> 29
        x = x &* prime3
        x ^= x >> 32
        return x
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
