import CatalogStorage

/// A catalog's term dictionary: every indexed term in byte order, with how many records carry
/// it and where its documents are.
///
/// Terms carried by at most ``inlineLimit`` records keep their document numbers right here (most
/// words of a catalog are rare, so most lookups need no posting rows at all); the others have
/// posting chunks stored by the engine under the term's ``PostingReference/stored(term:chunks:)``
/// number. Loaded once per catalog generation and shared by every search.
///
/// Stored form (little-endian):
/// ```
/// "CLX1", count: u32, arenaBytes: u32, poolCount: u32,
/// arena: [u8], starts: [u32] × (count + 1), numbers: [u32] × count,
/// documentCounts: [u32] × count, references: [u32] × count, pool: [u32] × poolCount
/// ```
public struct Lexicon: Sendable {
    /// Records per term up to which document numbers are kept in the lexicon.
    public static let inlineLimit = 8

    private let arena: [UInt8]
    private let starts: [UInt32]
    private let numbers: [UInt32]
    private let documentCounts: [UInt32]
    private let references: [UInt32]
    private let pool: [UInt32]

    private static let magic: [UInt8] = Array("CLX1".utf8)
    private static let inlineFlag: UInt32 = 0x8000_0000

    /// Where a term's documents are.
    public enum PostingReference: Sendable, Equatable {
        /// The document numbers themselves, ascending.
        case inline(ArraySlice<UInt32>)
        /// Posting chunks stored under `term`, in chunks `chunks` (some may be empty).
        case stored(term: UInt32, chunks: ClosedRange<Int>)
    }

    /// An empty lexicon.
    public init() {
        arena = []
        starts = [0]
        numbers = []
        documentCounts = []
        references = []
        pool = []
    }

    /// The number of terms.
    public var count: Int { numbers.count }

    /// The bytes of the term at `index` (in byte order).
    public func term(at index: Int) -> ArraySlice<UInt8> {
        arena[Int(starts[index])..<Int(starts[index + 1])]
    }

    /// How many records carry the term at `index`.
    public func documentCount(at index: Int) -> Int { Int(documentCounts[index]) }

    /// Where the documents of the term at `index` are.
    public func postings(at index: Int) -> PostingReference {
        let reference = references[index]
        if reference & Self.inlineFlag != 0 {
            let start = Int(reference & ~Self.inlineFlag)
            return .inline(pool[start..<(start + Int(documentCounts[index]))])
        }
        return .stored(term: numbers[index], chunks: Int(reference >> 16)...Int(reference & 0xFFFF))
    }

    /// The index of `term`, or nil.
    public func index(of term: some Collection<UInt8>) -> Int? {
        let term = Array(term)
        let position = lowerBound(term)
        guard position < count, compare(position, term) == 0 else { return nil }
        return position
    }

    /// The indexes of every term that starts with `prefix`, in byte order.
    public func range(prefix: some Collection<UInt8>) -> Range<Int> {
        let prefix = Array(prefix)
        let lower = lowerBound(prefix)
        var upper = lower
        // Terms with the prefix follow each other; find the end by binary search on the prefix.
        var high = count
        while upper < high {
            let middle = (upper + high) / 2
            if hasPrefix(middle, prefix) { upper = middle + 1 } else { high = middle }
        }
        return lower..<upper
    }

    /// The first index whose term is not less than `key`.
    private func lowerBound(_ key: [UInt8]) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if compare(middle, key) < 0 { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Compares the term at `index` with `key` (negative, zero, positive).
    func compare(_ index: Int, _ key: [UInt8]) -> Int {
        let start = Int(starts[index])
        let end = Int(starts[index + 1])
        return arena.withUnsafeBufferPointer { arena in
            key.withUnsafeBufferPointer { key in
                let length = min(end - start, key.count)
                for offset in 0..<length {
                    let a = arena[start + offset]
                    let b = key[offset]
                    if a != b { return Int(a) - Int(b) }
                }
                return (end - start) - key.count
            }
        }
    }

    private func hasPrefix(_ index: Int, _ prefix: [UInt8]) -> Bool {
        let start = Int(starts[index])
        let end = Int(starts[index + 1])
        guard end - start >= prefix.count else { return false }
        return arena.withUnsafeBufferPointer { arena in
            prefix.withUnsafeBufferPointer { prefix in
                for offset in 0..<prefix.count where arena[start + offset] != prefix[offset] { return false }
                return true
            }
        }
    }

    /// Calls `body` with the bytes of each term in `range`, in order, sharing one buffer.
    func withTerms(in range: Range<Int>, _ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        try arena.withUnsafeBufferPointer { arena in
            for index in range {
                let start = Int(starts[index])
                let end = Int(starts[index + 1])
                try body(index, UnsafeBufferPointer(rebasing: arena[start..<end]))
            }
        }
    }

    // MARK: - Stored form

    /// What the builder knows about one term.
    struct Entry {
        var bytes: ArraySlice<UInt8>
        var number: UInt32
        var documentCount: UInt32
        var reference: Reference
        enum Reference {
            case inline([UInt32])
            case stored(firstChunk: Int, lastChunk: Int)
        }
    }

    /// The stored form of `entries`, which must be in byte order.
    static func serialize(_ entries: [Entry]) -> [UInt8] {
        var arena: [UInt8] = []
        var starts: [UInt32] = [0]
        var numbers: [UInt32] = []
        var counts: [UInt32] = []
        var references: [UInt32] = []
        var pool: [UInt32] = []
        for entry in entries {
            arena.append(contentsOf: entry.bytes)
            starts.append(UInt32(arena.count))
            numbers.append(entry.number)
            counts.append(entry.documentCount)
            switch entry.reference {
            case .inline(let documents):
                references.append(Self.inlineFlag | UInt32(pool.count))
                pool.append(contentsOf: documents)
            case .stored(let first, let last):
                references.append(UInt32(first) << 16 | UInt32(last))
            }
        }
        var bytes = magic
        BinaryWriter.append(UInt32(numbers.count), to: &bytes)
        BinaryWriter.append(UInt32(arena.count), to: &bytes)
        BinaryWriter.append(UInt32(pool.count), to: &bytes)
        bytes.append(contentsOf: arena)
        for array in [starts, numbers, counts, references, pool] { BinaryWriter.append(array, to: &bytes) }
        return bytes
    }

    /// Reads the stored form.
    ///
    /// - Throws: ``StorageError`` `.engine` when the bytes are not a lexicon (damaged data).
    public init(serialized bytes: [UInt8]) throws(StorageError) {
        var reader = BinaryReader(bytes)
        guard reader.take(4) == Self.magic[...] else { throw StorageError(.engine, "the search index is damaged") }
        guard let count = reader.uint32(), let arenaBytes = reader.uint32(), let poolCount = reader.uint32(),
            let arena = reader.take(Int(arenaBytes)),
            let starts = reader.uint32s(Int(count) + 1), let numbers = reader.uint32s(Int(count)),
            let counts = reader.uint32s(Int(count)), let references = reader.uint32s(Int(count)),
            let pool = reader.uint32s(Int(poolCount)), reader.isAtEnd,
            starts.last.map({ Int($0) == arena.count }) ?? false
        else { throw StorageError(.engine, "the search index is damaged") }
        // Every reference must stay inside the arrays, so a damaged row cannot crash a search.
        for index in 0..<Int(count) {
            guard starts[index] <= starts[index + 1] else { throw StorageError(.engine, "the search index is damaged") }
            if references[index] & Self.inlineFlag != 0 {
                let start = Int(references[index] & ~Self.inlineFlag)
                guard start + Int(counts[index]) <= pool.count else {
                    throw StorageError(.engine, "the search index is damaged")
                }
            }
        }
        self.arena = Array(arena)
        self.starts = starts
        self.numbers = numbers
        self.documentCounts = counts
        self.references = references
        self.pool = pool
    }
}

/// Little-endian numbers into bytes.
enum BinaryWriter {
    static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    static func append(_ values: [UInt32], to bytes: inout [UInt8]) {
        bytes.reserveCapacity(bytes.count + 4 * values.count)
        for value in values { append(value, to: &bytes) }
    }
}

/// Little-endian numbers out of bytes; every read is checked against the end.
struct BinaryReader {
    private let bytes: [UInt8]
    private(set) var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { position == bytes.count }

    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, bytes.count - position >= count else { return nil }
        defer { position += count }
        return bytes[position..<(position + count)]
    }

    mutating func uint32() -> UInt32? {
        guard let slice = take(4) else { return nil }
        return slice.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self).littleEndian }
    }

    mutating func uint64() -> UInt64? {
        guard let slice = take(8) else { return nil }
        return slice.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self).littleEndian }
    }

    mutating func uint32s(_ count: Int) -> [UInt32]? {
        guard count >= 0, let slice = take(4 * count) else { return nil }
        return slice.withUnsafeBytes { raw in
            (0..<count).map { raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self).littleEndian }
        }
    }

    mutating func doubles(_ count: Int) -> [Double]? {
        guard count >= 0, let slice = take(8 * count) else { return nil }
        return slice.withUnsafeBytes { raw in
            (0..<count).map {
                Double(bitPattern: raw.loadUnaligned(fromByteOffset: 8 * $0, as: UInt64.self).littleEndian)
            }
        }
    }
}
