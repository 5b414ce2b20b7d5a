import CatalogHTTP
import Testing

@Suite struct ByteRangeTests {
    @Test(
        arguments: [
            (nil, ByteRange.whole), ("bytes=0-", .part(0..<1000)), ("bytes=100-199", .part(100..<200)),
            ("bytes=900-5000", .part(900..<1000)), ("bytes=-10", .part(990..<1000)), ("bytes=-5000", .part(0..<1000)),
            ("bytes=1000-", .unsatisfiable), ("bytes=-0", .unsatisfiable), ("bytes=5-2", .whole),
            ("bytes=0-1,5-6", .whole),
            ("items=0-5", .whole), ("bytes=a-b", .whole), ("bytes=-", .whole), ("BYTES= 10 - 19 ", .part(10..<20)),
            ("bytes=99999999999999999999-", .whole),
        ] as [(String?, ByteRange)])
    func selects(_ header: String?, _ expected: ByteRange) {
        #expect(ByteRange.select(header, size: 1000) == expected)
    }

    @Test func contentRange() {
        #expect(ByteRange.contentRange(100..<200, size: 1000) == "bytes 100-199/1000")
        #expect(ByteRange.select("bytes=0-", size: 0) == .unsatisfiable)
    }
}
