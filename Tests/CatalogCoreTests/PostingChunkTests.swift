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
}
