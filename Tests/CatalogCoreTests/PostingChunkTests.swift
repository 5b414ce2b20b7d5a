import CatalogCore
import Testing

@Suite struct PostingChunkTests {
    @Test(arguments: [0, 1, 100, 4095, 4096, 30_000, 65_536])
    func encodesAndMergesBothForms(count: Int) {
        let offsets = (0..<count).map { UInt16(truncatingIfNeeded: ($0 * 7919) % 65_536) }
        let unique = Array(Set(offsets)).sorted()
        let bytes = PostingChunk.encode(unique)
        #expect(bytes.count <= 3 + 2 * 4095 || bytes.count == 1 + 8192)
        var bitmap = ChunkBitmap()
        bytes.withUnsafeBytes { PostingChunk.merge($0, into: &bitmap) }
        #expect(bitmap.offsets == unique.map(Int.init))
        #expect(bytes.withUnsafeBytes { PostingChunk.count($0) } == unique.count)
    }

    @Test func damagedChunksAddNothing() {
        for bytes in [[UInt8](), [0], [0, 5, 0, 1], [1, 2, 3], [7, 0, 0]] {
            var bitmap = ChunkBitmap()
            bytes.withUnsafeBytes { PostingChunk.merge($0, into: &bitmap) }
            #expect(bitmap.isEmpty)
        }
        // An array whose offsets do not ascend reaches no further than its last one's word (its
        // bitmap is made that long), and the rest of it is read as it is.
        let unordered: [UInt8] = [0, 3, 0, 0x10, 0x27, 5, 0, 0x40, 0]
        var bitmap = ChunkBitmap()
        unordered.withUnsafeBytes { PostingChunk.merge($0, into: &bitmap) }
        #expect(bitmap.offsets == [5, 64])
    }

    /// What a search combines its chunks with: an intersection made as a new bitmap, and one
    /// with a union it never makes, answer as the operations they stand for.
    @Test(arguments: [0, 1, 3])
    func intersectionsAnswerAsTheOperationsTheyStandFor(extra: Int) {
        var target = ChunkBitmap(allBelow: 50_000)
        target.subtract(ChunkBitmap(allBelow: 10))
        var sets: [ChunkBitmap] = []
        for set in 0...extra {
            var bitmap = ChunkBitmap()
            for offset in stride(from: set, to: 1_000 * (set + 1) + 64 * set, by: 5 + set) { bitmap.insert(offset) }
            sets.append(bitmap)
        }
        var union = ChunkBitmap()
        for set in sets { union.formUnion(set) }
        var expected = target
        expected.formIntersection(union)
        var found = target
        found.formIntersection(unionOf: sets)
        #expect(found == expected && found.count == expected.count)
        #expect(target.intersection(union) == expected && union.intersection(target) == expected)
        // The originals are left as they were.
        #expect(target.count == 49_990)
        var none = target
        none.formIntersection(unionOf: [])
        #expect(none.isEmpty && target.intersection(.empty).isEmpty)
    }

    @Test func bitmapOperations() {
        var a = ChunkBitmap(allBelow: 100)
        #expect(a.count == 100)
        var b = ChunkBitmap()
        for offset in stride(from: 0, to: 200, by: 3) { b.insert(offset) }
        #expect(a.intersectionCount(b) == 34)
        a.formIntersection(b)
        #expect(a.count == 34)
        var seen: [Int] = []
        a.forEach(from: 50) {
            seen.append($0)
            return seen.count < 3
        }
        #expect(seen == [51, 54, 57])
        a.subtract(b)
        #expect(a.isEmpty)
        #expect(ChunkBitmap(allBelow: 65_536).count == 65_536)
        #expect(ChunkBitmap(allBelow: 70_000).count == 65_536)
    }

    /// A bitmap keeps only the words up to its highest bit: every operation between a short and
    /// a long one answers as between two full chunks.
    @Test func bitmapsOfDifferentLengthsCombineAsFullChunks() {
        var short = ChunkBitmap()
        short.insert(3)
        short.insert(70)
        var long = ChunkBitmap()
        long.insert(70)
        long.insert(60_000)
        #expect(short.intersectionCount(long) == 1)
        #expect(long.intersectionCount(short) == 1)
        var union = short
        union.formUnion(long)
        #expect(union.offsets == [3, 70, 60_000])
        var intersection = long
        intersection.formIntersection(short)
        #expect(intersection.offsets == [70])
        var rest = long
        rest.subtract(short)
        #expect(rest.offsets == [60_000])
        var full = ChunkBitmap.full
        full.subtract(long)
        #expect(full.count == 65_534 && !full.contains(70) && full.contains(71))
        #expect(!short.contains(60_000) && short.contains(70))
        // Equal sets are equal whatever their lengths; a cleared bitmap is empty.
        var grown = ChunkBitmap()
        grown.insert(60_000)
        grown.insert(70)
        grown.formIntersection(ChunkBitmap(allBelow: 100))
        var small = ChunkBitmap()
        small.insert(70)
        #expect(grown == small && small == grown)
        #expect(grown != ChunkBitmap.empty)
        grown.clear()
        #expect(grown.isEmpty && grown == ChunkBitmap.empty)
        var seen: [Int] = []
        union.forEach(from: 4) {
            seen.append($0)
            return true
        }
        #expect(seen == [70, 60_000])
        union.forEach(from: 65_000) { _ in
            Issue.record("nothing after the highest bit"); return true
        }
    }
}
