import CatalogStorage
import Foundation

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

    /// The stored form, read where it lies (on the heap, or a mapped file: ``IndexFiles``).
    private let bytes: IndexBytes
    /// The number of terms.
    public let count: Int
    /// Where each part of the stored form starts, in bytes.
    private let arena: Int
    private let starts: Int
    private let numbers: Int
    private let documentCounts: Int
    private let references: Int
    private let pool: Int

    private static let magic: [UInt8] = Array("CLX1".utf8)
    private static let headerBytes = 16
    private static let inlineFlag: UInt32 = 0x8000_0000

    /// Where a term's documents are.
    public enum PostingReference: Sendable, Equatable {
        /// The document numbers themselves, ascending.
        case inline(IndexBytes.Numbers)
        /// Posting chunks stored under `term`, in chunks `chunks` (some may be empty).
        case stored(term: UInt32, chunks: ClosedRange<Int>)
    }

    /// An empty lexicon.
    public init() {
        self.init(arena: [], starts: [0], numbers: [], documentCounts: [], references: [], pool: [])
    }

    /// The term at `index`'s first byte and the byte past its last.
    @inline(__always)
    private func bounds(_ index: Int) -> (start: Int, end: Int) {
        let position = starts + 4 * index
        return (arena + Int(bytes.uint32(at: position)), arena + Int(bytes.uint32(at: position + 4)))
    }

    /// The bytes of the term at `index` (in byte order).
    public func term(at index: Int) -> IndexBytes.Run {
        let (start, end) = bounds(index)
        return IndexBytes.Run(bytes, start..<end)
    }

    /// How many records carry the term at `index`.
    public func documentCount(at index: Int) -> Int { Int(bytes.uint32(at: documentCounts + 4 * index)) }

    /// Where the documents of the term at `index` are.
    public func postings(at index: Int) -> PostingReference {
        let reference = bytes.uint32(at: references + 4 * index)
        if reference & Self.inlineFlag != 0 {
            let start = Int(reference & ~Self.inlineFlag)
            return .inline(IndexBytes.Numbers(bytes, at: pool + 4 * start, count: documentCount(at: index)))
        }
        return .stored(
            term: bytes.uint32(at: numbers + 4 * index), chunks: Int(reference >> 16)...Int(reference & 0xFFFF))
    }

    /// The index of `term`, or nil.
    public func index(of term: some Collection<UInt8>) -> Int? {
        withKey(term) { key in
            let position = lowerBound(key)
            guard position < count, compare(position, key) == 0 else { return nil }
            return position
        }
    }

    /// The indexes of every term that starts with `prefix`, in byte order.
    public func range(prefix: some Collection<UInt8>) -> Range<Int> {
        withKey(prefix) { prefix in
            let lower = lowerBound(prefix)
            // Terms with the prefix follow each other: find where they end by binary search.
            var upper = lower
            var high = count
            while upper < high {
                let middle = (upper + high) / 2
                if hasPrefix(middle, prefix) { upper = middle + 1 } else { high = middle }
            }
            return lower..<upper
        }
    }

    /// The index of the first term not before `key` in byte order (``count`` when every term is):
    /// where a run of terms from `key` on starts.
    public func firstIndex(notBefore key: some Collection<UInt8>) -> Int {
        withKey(key) { lowerBound($0) }
    }

    /// The first index at or after `index` whose term does not start with `prefix`, found by
    /// galloping forward: cheap when the run of terms with the prefix is short.
    public func endOfPrefix(from index: Int, prefix: some Collection<UInt8>) -> Int {
        withKey(prefix) { prefix in
            guard index < count, hasPrefix(index, prefix) else { return index }
            var low = index  // has the prefix
            var step = 1
            var high = index + 1
            while high < count && hasPrefix(high, prefix) {
                low = high
                step <<= 1
                high = index + step
            }
            high = min(high, count)
            // low has the prefix; high does not (or is the end).
            while low + 1 < high {
                let middle = (low + high) / 2
                if hasPrefix(middle, prefix) { low = middle } else { high = middle }
            }
            return high
        }
    }

    private func withKey<T>(_ key: some Collection<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        if let result = key.withContiguousStorageIfAvailable(body) { return result }
        return Array(key).withUnsafeBufferPointer(body)
    }

    /// The first index whose term is not less than `key`.
    private func lowerBound(_ key: UnsafeBufferPointer<UInt8>) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if compare(middle, key) < 0 { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Compares the term at `index` with `key` (negative, zero, positive).
    func compare(_ index: Int, _ key: UnsafeBufferPointer<UInt8>) -> Int {
        let (start, end) = bounds(index)
        let length = min(end - start, key.count)
        if length > 0, let other = key.baseAddress {
            let order = bytes.withBytes(start..<(start + length)) { memcmp($0.baseAddress!, other, length) }
            if order != 0 { return Int(order) }
        }
        return (end - start) - key.count
    }

    private func hasPrefix(_ index: Int, _ prefix: UnsafeBufferPointer<UInt8>) -> Bool {
        let (start, end) = bounds(index)
        guard end - start >= prefix.count else { return false }
        guard let other = prefix.baseAddress, !prefix.isEmpty else { return true }
        return bytes.withBytes(start..<(start + prefix.count)) { memcmp($0.baseAddress!, other, prefix.count) == 0 }
    }

    /// Calls `body` with the bytes of each term in `range`, in order.
    func withTerms(in range: Range<Int>, _ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        for index in range {
            let (start, end) = bounds(index)
            try bytes.withBytes(start..<end) { try body(index, $0) }
        }
    }

    // MARK: - Stored form

    /// A lexicon of arrays the builder made: terms in byte order.
    init(
        arena: [UInt8], starts: [UInt32], numbers: [UInt32], documentCounts: [UInt32], references: [UInt32],
        pool: [UInt32]
    ) {
        // The stored form, written straight into the buffer the lexicon reads.
        let size = Self.headerBytes + arena.count + 4 * (starts.count + 3 * numbers.count + pool.count)
        let bytes = IndexBytes(count: size) { buffer in
            var offset = 0
            func put(_ values: [UInt32]) {
                for value in values {
                    buffer.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt32.self)
                    offset += 4
                }
            }
            buffer.copyBytes(from: Self.magic)
            offset = Self.magic.count
            put([UInt32(numbers.count), UInt32(arena.count), UInt32(pool.count)])
            UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<(offset + arena.count)]).copyBytes(from: arena)
            offset += arena.count
            for array in [starts, numbers, documentCounts, references, pool] { put(array) }
        }
        self.init(layoutOf: bytes, count: numbers.count, arenaBytes: arena.count)
    }

    /// Where the parts of a stored form of `count` terms and `arenaBytes` bytes of them lie.
    private init(layoutOf bytes: IndexBytes, count: Int, arenaBytes: Int) {
        self.bytes = bytes
        self.count = count
        arena = Self.headerBytes
        starts = arena + arenaBytes
        numbers = starts + 4 * (count + 1)
        documentCounts = numbers + 4 * count
        references = documentCounts + 4 * count
        pool = references + 4 * count
    }

    /// The reference of a term whose documents start at `start` in the pool.
    static func inlineReference(at start: Int) -> UInt32 { inlineFlag | UInt32(start) }

    /// The reference of a term stored in posting chunks `firstChunk...lastChunk`.
    static func storedReference(firstChunk: Int, lastChunk: Int) -> UInt32 {
        UInt32(firstChunk) << 16 | UInt32(lastChunk)
    }

    /// The stored form.
    func serialized() -> [UInt8] { bytes.array }

    /// Whether the stored form is read from a mapped file.
    public var isMapped: Bool { bytes.isMapped }

    /// Reads the stored form.
    ///
    /// - Throws: ``StorageError`` `.engine` when the bytes are not a lexicon (damaged data).
    public init(serialized bytes: [UInt8]) throws(StorageError) {
        try self.init(bytes: IndexBytes(copying: bytes))
    }

    /// Reads the stored form where it lies, checking it once: every term's bytes and documents
    /// lie inside it, so a damaged row cannot make a search read past its end.
    ///
    /// - Throws: ``StorageError`` `.engine` when the bytes are not a lexicon (damaged data).
    public init(bytes: IndexBytes) throws(StorageError) {
        let damaged = StorageError(.engine, "the search index is damaged")
        guard bytes.count >= Self.headerBytes,
            bytes.withBytes(0..<4, { $0.elementsEqual(Self.magic) })
        else { throw damaged }
        let count = Int(bytes.uint32(at: 4))
        let arenaBytes = Int(bytes.uint32(at: 8))
        let poolCount = Int(bytes.uint32(at: 12))
        guard bytes.count == Self.headerBytes + arenaBytes + 4 * (count + 1 + 3 * count + poolCount) else {
            throw damaged
        }
        self.init(layoutOf: bytes, count: count, arenaBytes: arenaBytes)
        guard bytes.uint32(at: starts) == 0, Int(bytes.uint32(at: starts + 4 * count)) == arenaBytes else {
            throw damaged
        }
        for index in 0..<count {
            let start = bytes.uint32(at: starts + 4 * index)
            guard start <= bytes.uint32(at: starts + 4 * index + 4) else { throw damaged }
            let reference = bytes.uint32(at: references + 4 * index)
            if reference & Self.inlineFlag != 0 {
                let first = Int(reference & ~Self.inlineFlag)
                guard first + Int(bytes.uint32(at: documentCounts + 4 * index)) <= poolCount else { throw damaged }
            }
        }
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
        #if _endian(little)
            values.withUnsafeBytes { bytes.append(contentsOf: $0) }
        #else
            for value in values { append(value, to: &bytes) }
        #endif
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
            #if _endian(little)
                [UInt32](unsafeUninitializedCapacity: count) { buffer, initialized in
                    UnsafeMutableRawBufferPointer(buffer).copyMemory(from: raw)
                    initialized = count
                }
            #else
                (0..<count).map { raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self).littleEndian }
            #endif
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
