import CatalogModel
import Foundation
import Testing

@Suite struct DecimalTextTests {
    static let posix = Locale(identifier: "en_US_POSIX")

    @Test(arguments: [
        "0", "1", "24.9", "24.90", "-3.5", "0.05", "-0.05", "1200", "1200.00", "999999999999999999", "0.000001",
        "123456789.123456789", "00012.3400", "-0", "7.", ".5",
    ])
    func parsesAndFormatsLikeFoundation(_ text: String) throws {
        let expected = Decimal(string: text, locale: Self.posix)
        let parsed = DecimalText.parse(text)
        #expect(parsed == expected)
        if let parsed { #expect(DecimalText.format(parsed) == parsed.description) }
    }

    @Test(arguments: ["", "-", ".", "1,5", "abc", "1e5", "--1", "1.2.3", " 1"])
    func refusesWhatFoundationRefusesOrReadsDifferently(_ text: String) {
        let parsed = DecimalText.parse(text)
        #expect(parsed == Decimal(string: text, locale: Self.posix) || parsed == nil)
    }

    @Test func largeNumbersFallBack() throws {
        let big = try #require(Decimal(string: "123456789012345678901234567890"))
        #expect(DecimalText.format(big) == big.description)
        #expect(DecimalText.parse("123456789012345678901234567890") == big)
    }
}
