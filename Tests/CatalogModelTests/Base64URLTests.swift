import CatalogModel
import Foundation
import Testing

@Suite struct Base64URLTests {
    /// Foundation's base64 with the URL-safe letters and no padding: what cursors were before.
    static func foundation(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    @Test func encodesAsFoundationDoesAndDecodesBack() {
        var generator = SystemRandomNumberGenerator()
        var lengths = Array(0...70)
        lengths += (0..<200).map { _ in Int.random(in: 0...600, using: &generator) }
        for length in lengths {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = Base64URL.encode(bytes)
            #expect(text == Self.foundation(bytes))
            #expect(Base64URL.decode(text) == bytes)
            #expect(Base64URL.decode(text[...]) == bytes)
        }
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
    }

    @Test(arguments: ["A", "abcde", "ab=c", "ab+c", "ab/c", "ab c", "é", "AAAA=", "AB\u{0}C"])
    func refusesWhatIsNotUnpaddedBase64URL(_ text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test func decodesTheEmptyText() {
        #expect(Base64URL.decode("") == [])
        #expect(Base64URL.encode([UInt8]()) == "")
    }
}
