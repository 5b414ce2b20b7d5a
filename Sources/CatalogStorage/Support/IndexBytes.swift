#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// The read-only bytes of one part of a loaded search index (its lexicon, a column of
/// per-document values): a copy on the heap, or a file mapped into memory (``IndexFiles``),
/// whose pages the kernel reads back from disk when it needs the memory.
///
/// The readers take numbers at byte offsets without a bounds check: whoever interprets the bytes
/// checks them once when they are loaded (`Lexicon(bytes:)` does), so a damaged row never makes
/// a read go past the end.
///
/// ```swift
/// let bytes = IndexBytes(copying: stored)
/// let count = bytes.uint32(at: 4)
/// ```
///
/// `@unchecked Sendable`: the bytes are written once, before the initializer returns, and only
/// read after; the memory is freed or unmapped in `deinit`, when no reader is left.
public final class IndexBytes: @unchecked Sendable {
    /// The number of bytes.
    public let count: Int
    @usableFromInline let base: UnsafeRawPointer
    private let mapped: Bool

    /// The bytes of every index part loaded now, in this process.
    private static let mappedTotal = Atomic<Int>(0)
    private static let heapTotal = Atomic<Int>(0)

    /// A heap copy of `bytes`.
    public convenience init(copying bytes: some Collection<UInt8>) {
        self.init(count: bytes.count) { $0.copyBytes(from: bytes) }
    }

    /// `count` bytes on the heap, written by `initialize` (every one of them) before they are read.
    public init(count: Int, initializingWith initialize: (UnsafeMutableRawBufferPointer) -> Void) {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
        initialize(UnsafeMutableRawBufferPointer(start: memory, count: count))
        self.count = count
        base = UnsafeRawPointer(memory)
        mapped = false
        Self.heapTotal.add(count, ordering: .relaxed)
    }

    /// Takes over `count` bytes mapped at `base` (`mmap`), unmapped when these bytes go.
    init(mappedAt base: UnsafeRawPointer, count: Int) {
        self.base = base
        self.count = count
        mapped = true
        Self.mappedTotal.add(count, ordering: .relaxed)
    }

    deinit {
        if mapped {
            munmap(UnsafeMutableRawPointer(mutating: base), count)
            Self.mappedTotal.subtract(count, ordering: .relaxed)
        } else {
            base.deallocate()
            Self.heapTotal.subtract(count, ordering: .relaxed)
        }
    }

    /// The bytes of the index parts this process holds now: in mapped files, and on the heap.
    public static var loaded: (mapped: Int, heap: Int) {
        (mappedTotal.load(ordering: .relaxed), heapTotal.load(ordering: .relaxed))
    }

    /// Whether the bytes are a mapped file rather than heap memory.
    public var isMapped: Bool { mapped }

    /// The byte at `offset`.
    @inlinable
    public func byte(at offset: Int) -> UInt8 {
        base.load(fromByteOffset: offset, as: UInt8.self)
    }

    /// The little-endian number of 4 bytes at `offset`.
    @inlinable
    public func uint32(at offset: Int) -> UInt32 {
        base.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian
    }

    /// The little-endian number of 8 bytes at `offset`.
    @inlinable
    public func uint64(at offset: Int) -> UInt64 {
        base.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
    }

    /// Calls `body` with the bytes `range`; the pointer is valid only inside `body`.
    @inlinable
    public func withBytes<Result, Failure: Error>(
        _ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        precondition(range.lowerBound >= 0 && range.upperBound <= count)
        let result = try body(
            UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self) + range.lowerBound, count: range.count))
        withExtendedLifetime(self) {}
        return result
    }

    /// A copy of the bytes.
    public var array: [UInt8] {
        withBytes(0..<count) { Array($0) }
    }
}

extension IndexBytes {
    /// A run of the bytes (a lexicon's term), read in place; its indexes are offsets into the
    /// whole, as an `ArraySlice`'s are, and it keeps the bytes alive.
    public struct Run: RandomAccessCollection, Sendable {
        public let bytes: IndexBytes
        public let startIndex: Int
        public let endIndex: Int

        /// The bytes `range` of `bytes`.
        public init(_ bytes: IndexBytes, _ range: Range<Int>) {
            precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count)
            self.bytes = bytes
            startIndex = range.lowerBound
            endIndex = range.upperBound
        }

        @inlinable
        public subscript(position: Int) -> UInt8 {
            precondition(position >= startIndex && position < endIndex)
            return bytes.byte(at: position)
        }

        public subscript(bounds: Range<Int>) -> Run {
            precondition(bounds.lowerBound >= startIndex && bounds.upperBound <= endIndex)
            return Run(bytes, bounds)
        }

        public func withContiguousStorageIfAvailable<Result>(
            _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
        ) rethrows -> Result? {
            try bytes.withBytes(startIndex..<endIndex) { try body($0) }
        }
    }

    /// A run of little-endian 4-byte numbers of the bytes (a term's documents), read in place.
    public struct Numbers: RandomAccessCollection, Sendable, Equatable {
        public let bytes: IndexBytes
        private let offset: Int
        public let count: Int

        /// The `count` numbers at byte `offset` of `bytes`.
        public init(_ bytes: IndexBytes, at offset: Int, count: Int) {
            precondition(offset >= 0 && count >= 0 && offset + 4 * count <= bytes.count)
            self.bytes = bytes
            self.offset = offset
            self.count = count
        }

        public var startIndex: Int { 0 }
        public var endIndex: Int { count }

        public subscript(position: Int) -> UInt32 {
            precondition(position >= 0 && position < count)
            return bytes.uint32(at: offset + 4 * position)
        }

        public static func == (lhs: Numbers, rhs: Numbers) -> Bool { lhs.elementsEqual(rhs) }

        /// Calls `body` with the numbers' bytes, four each, little-endian and perhaps unaligned
        /// (read them with `loadUnaligned`): a loop over a million of them without a call and a
        /// check each.
        public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
            bytes.withBytes(offset..<offset + 4 * count) { body(UnsafeRawBufferPointer($0)) }
        }
    }
}
