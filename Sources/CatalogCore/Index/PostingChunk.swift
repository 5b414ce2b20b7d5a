/// One chunk of a posting list: the documents of one term among 65,536 consecutive document
/// numbers, stored the way Roaring bitmaps store a container.
///
/// A chunk with fewer than 4,096 documents is a sorted array of 16-bit offsets (2 bytes each); a
/// denser one is a bitmap of 65,536 bits (8 KiB). Either way a chunk is decoded into a
/// ``ChunkBitmap`` and combined with others word by word, so a query costs a few thousand word
/// operations per chunk whatever the lists' lengths.
///
/// The stored form is one tag byte (`0` array, `1` bitmap) and the payload, little-endian:
/// ```
/// array:  0x00, count: UInt16, offsets: [UInt16] (ascending)
/// bitmap: 0x01, words: [UInt64] × 1,024
/// ```
public enum PostingChunk {
    /// Documents per chunk.
    public static let size = 1 << 16
    /// Bits of a document number that select its chunk.
    public static let shift = 16
    /// Arrays hold fewer documents than this; from here on a bitmap is smaller.
    public static let arrayLimit = 4096

    static let arrayTag: UInt8 = 0
    static let bitmapTag: UInt8 = 1

    /// Encodes the ascending offsets of one chunk.
    ///
    /// - Precondition: `offsets` is strictly ascending.
    public static func encode(_ offsets: [UInt16]) -> [UInt8] {
        if offsets.count < arrayLimit {
            var bytes = [UInt8]()
            bytes.reserveCapacity(3 + 2 * offsets.count)
            bytes.append(arrayTag)
            bytes.append(UInt8(truncatingIfNeeded: offsets.count))
            bytes.append(UInt8(truncatingIfNeeded: offsets.count >> 8))
            for offset in offsets {
                bytes.append(UInt8(truncatingIfNeeded: offset))
                bytes.append(UInt8(truncatingIfNeeded: offset >> 8))
            }
            return bytes
        }
        var words = [UInt64](repeating: 0, count: ChunkBitmap.wordCount)
        for offset in offsets { words[Int(offset >> 6)] |= 1 << UInt64(offset & 63) }
        var bytes = [UInt8]()
        bytes.reserveCapacity(1 + 8 * ChunkBitmap.wordCount)
        bytes.append(bitmapTag)
        for word in words {
            for shift in stride(from: 0, to: 64, by: 8) {
                bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        return bytes
    }

    /// Whether `bytes` is a well-formed chunk (engines hand us what they stored; a damaged row
    /// must not crash a search).
    public static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let tag = bytes.first else { return false }
        switch tag {
        case arrayTag:
            guard bytes.count >= 3 else { return false }
            let count = Int(bytes[1]) | Int(bytes[2]) << 8
            return bytes.count == 3 + 2 * count
        case bitmapTag:
            return bytes.count == 1 + 8 * ChunkBitmap.wordCount
        default:
            return false
        }
    }

    /// ORs the documents of a stored chunk into `bitmap`. A chunk of the wrong length adds
    /// nothing; an array whose offsets do not ascend, none past the word of its last.
    public static func merge(_ bytes: UnsafeRawBufferPointer, into bitmap: inout ChunkBitmap) {
        guard isValid(bytes) else { return }
        if bytes[0] == arrayTag {
            let count = Int(bytes[1]) | Int(bytes[2]) << 8
            bitmap.reserveWords(wordsNeeded(bytes))
            bitmap.withWords { words in
                var index = 3
                for _ in 0..<count {
                    let offset = Int(bytes[index]) | Int(bytes[index + 1]) << 8
                    if offset >> 6 < words.count { words[offset >> 6] |= 1 << UInt64(offset & 63) }
                    index += 2
                }
            }
        } else {
            bitmap.reserveWords(ChunkBitmap.wordCount)
            bitmap.withWords { words in
                for index in 0..<ChunkBitmap.wordCount {
                    words[index] |=
                        bytes.loadUnaligned(fromByteOffset: 1 + 8 * index, as: UInt64.self)
                        .littleEndian
                }
            }
        }
    }

    /// How many words of a ``ChunkBitmap`` a stored chunk's documents reach (an array's offsets
    /// ascend: its last is its highest); 0 for a malformed chunk, which ``merge(_:into:)`` leaves out.
    static func wordsNeeded(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard isValid(bytes) else { return 0 }
        guard bytes[0] == arrayTag else { return ChunkBitmap.wordCount }
        let count = Int(bytes[1]) | Int(bytes[2]) << 8
        guard count > 0 else { return 0 }
        return (Int(bytes[1 + 2 * count]) | Int(bytes[2 + 2 * count]) << 8) >> 6 + 1
    }

    /// The number of documents in a stored chunk (0 when malformed).
    public static func count(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard isValid(bytes) else { return 0 }
        if bytes[0] == arrayTag { return Int(bytes[1]) | Int(bytes[2]) << 8 }
        var total = 0
        for index in 0..<ChunkBitmap.wordCount {
            total += bytes.loadUnaligned(fromByteOffset: 1 + 8 * index, as: UInt64.self).nonzeroBitCount
        }
        return total
    }
}

/// The documents of one chunk as up to 65,536 bits: what queries combine.
///
/// A value type over one heap buffer of as many 64-bit words as its highest document needs
/// (words past the end are zero): a chunk of a small segment costs what its documents do, not
/// the 1,024 words of a full chunk, so a search over many small segments does not pay a full
/// chunk's work for each of them.
public struct ChunkBitmap: Sendable, Equatable {
    /// 64-bit words of a full chunk.
    public static let wordCount = PostingChunk.size / 64

    private(set) var words: [UInt64]

    /// An empty bitmap.
    public init() {
        words = []
    }

    /// One shared empty bitmap.
    public static let empty = ChunkBitmap()
    /// One shared full bitmap.
    public static let full = ChunkBitmap(allBelow: PostingChunk.size)

    /// A bitmap with every document of the chunk below `count` set (a whole chunk when
    /// `count` is 65,536 or more).
    public init(allBelow count: Int) {
        let count = max(0, min(count, PostingChunk.size))
        words = [UInt64](repeating: ~0, count: count / 64)
        if count % 64 != 0 { words.append((1 << UInt64(count % 64)) - 1) }
    }

    /// Makes room for `count` words (the new ones zero).
    @inline(__always)
    mutating func reserveWords(_ count: Int) {
        if words.count < count { words.append(contentsOf: repeatElement(0, count: count - words.count)) }
    }

    @inline(__always)
    mutating func withWords<T>(_ body: (UnsafeMutableBufferPointer<UInt64>) throws -> T) rethrows -> T {
        try words.withUnsafeMutableBufferPointer { try body($0) }
    }

    /// Clears every bit.
    public mutating func clear() {
        words.removeAll(keepingCapacity: true)
    }

    /// The bytes its words take.
    var byteCount: Int { words.count * 8 }

    /// Sets the bit of `offset`.
    @inline(__always)
    public mutating func insert(_ offset: Int) {
        reserveWords(offset >> 6 + 1)
        words[offset >> 6] |= 1 << UInt64(offset & 63)
    }

    /// Whether `offset` is set.
    @inline(__always)
    public func contains(_ offset: Int) -> Bool {
        offset >> 6 < words.count && words[offset >> 6] & (1 << UInt64(offset & 63)) != 0
    }

    /// True when no bit is set.
    public var isEmpty: Bool {
        words.withUnsafeBufferPointer { words in !words.contains { $0 != 0 } }
    }

    /// The number of bits set.
    public var count: Int {
        words.withUnsafeBufferPointer { words in words.reduce(0) { $0 &+ $1.nonzeroBitCount } }
    }

    /// Keeps the bits set in both.
    public mutating func formIntersection(_ other: ChunkBitmap) {
        let shared = min(words.count, other.words.count)
        if words.count > shared { words.removeLast(words.count - shared) }
        other.words.withUnsafeBufferPointer { source in
            withWords { target in
                for index in 0..<shared { target[index] &= source[index] }
            }
        }
    }

    /// The bits set in both, as a new bitmap: one pass, where ``formIntersection(_:)`` on a copy
    /// of a kept bitmap (a cached chunk's, a set's) would copy its words first.
    public func intersection(_ other: ChunkBitmap) -> ChunkBitmap {
        let shared = min(words.count, other.words.count)
        var result = ChunkBitmap()
        result.words = words.withUnsafeBufferPointer { a in
            other.words.withUnsafeBufferPointer { b in
                [UInt64](unsafeUninitializedCapacity: shared) { target, initialized in
                    for index in 0..<shared { target.initializeElement(at: index, to: a[index] & b[index]) }
                    initialized = shared
                }
            }
        }
        return result
    }

    /// Keeps the bits set in at least one of `sets`: an intersection with their union, without
    /// making the union (or copying any of them).
    public mutating func formIntersection(unionOf sets: [ChunkBitmap]) {
        if sets.count == 1 { return formIntersection(sets[0]) }
        let reach = sets.reduce(0) { max($0, $1.words.count) }
        if words.count > reach { words.removeLast(words.count - reach) }
        let count = words.count
        guard count > 0 else { return }
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: count) { union in
            union.initialize(repeating: 0)
            for set in sets {
                set.words.withUnsafeBufferPointer { source in
                    for index in 0..<min(count, source.count) { union[index] |= source[index] }
                }
            }
            withWords { target in
                for index in 0..<count { target[index] &= union[index] }
            }
        }
    }

    /// Sets the bits set in either.
    public mutating func formUnion(_ other: ChunkBitmap) {
        reserveWords(other.words.count)
        other.words.withUnsafeBufferPointer { source in
            withWords { target in
                for index in 0..<source.count { target[index] |= source[index] }
            }
        }
    }

    /// Clears the bits set in `other`.
    public mutating func subtract(_ other: ChunkBitmap) {
        let shared = min(words.count, other.words.count)
        other.words.withUnsafeBufferPointer { source in
            withWords { target in
                for index in 0..<shared { target[index] &= ~source[index] }
            }
        }
    }

    /// The number of bits set in both, without changing either.
    public func intersectionCount(_ other: ChunkBitmap) -> Int {
        words.withUnsafeBufferPointer { a in
            other.words.withUnsafeBufferPointer { b in
                var total = 0
                for index in 0..<min(a.count, b.count) { total &+= (a[index] & b[index]).nonzeroBitCount }
                return total
            }
        }
    }

    /// The indexes of the words that have a bit set, when there are at most `limit` of them
    /// (nil otherwise): for a sparse bitmap counted against many others (``intersectionCount(_:words:)``).
    public func setWords(limit: Int) -> [UInt16]? {
        words.withUnsafeBufferPointer { words in
            var found: [UInt16] = []
            for index in 0..<words.count where words[index] != 0 {
                guard found.count < limit else { return nil }
                found.append(UInt16(index))
            }
            return found
        }
    }

    /// The number of bits set in both, looking only at the words at `indexes` (``setWords(limit:)``
    /// of this bitmap: the others are zero here).
    public func intersectionCount(_ other: ChunkBitmap, words indexes: [UInt16]) -> Int {
        words.withUnsafeBufferPointer { a in
            other.words.withUnsafeBufferPointer { b in
                var total = 0
                for index in indexes where Int(index) < b.count {
                    total &+= (a[Int(index)] & b[Int(index)]).nonzeroBitCount
                }
                return total
            }
        }
    }

    /// Calls `body` with each set offset in ascending order, from `start` on, until it returns
    /// false.
    public func forEach(from start: Int = 0, _ body: (Int) throws -> Bool) rethrows {
        guard start < PostingChunk.size, max(0, start) >> 6 < words.count else { return }
        try words.withUnsafeBufferPointer { words in
            var index = max(0, start) >> 6
            var word = words[index] & (~0 << UInt64(max(0, start) & 63))
            while true {
                while word != 0 {
                    let bit = word.trailingZeroBitCount
                    guard try body(index << 6 | bit) else { return }
                    word &= word - 1
                }
                index += 1
                guard index < words.count else { return }
                word = words[index]
            }
        }
    }

    /// The set offsets, ascending.
    public var offsets: [Int] {
        var result: [Int] = []
        forEach {
            result.append($0)
            return true
        }
        return result
    }

    /// The same bits set, however many words each keeps.
    public static func == (lhs: ChunkBitmap, rhs: ChunkBitmap) -> Bool {
        let shared = min(lhs.words.count, rhs.words.count)
        guard lhs.words[..<shared] == rhs.words[..<shared] else { return false }
        return !lhs.words[shared...].contains { $0 != 0 } && !rhs.words[shared...].contains { $0 != 0 }
    }
}
