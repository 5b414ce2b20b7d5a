import CatalogModel
import Testing

/// What a country code is: two ASCII letters, held in upper case; ISO's list only decides the flag.
@Suite struct CountryCodeTests {
    @Test(arguments: [("DE", "DE"), ("de", "DE"), ("fR", "FR"), ("xx", "XX"), ("XK", "XK")])
    func twoASCIILettersAreACode(text: String, code: String) throws {
        #expect(CountryCode(text)?.text == code)
        #expect(try CountryCode(parsing: text).text == code)
        #expect(CountryCode(Substring(text)) == CountryCode(code))
    }

    @Test(arguments: [
        "", "D", "DEU", "D1", "1D", "D-", " D", "DE ", "É", "ÉU", "DÉ", "D\u{301}E", "Ｄ", "🇩🇪", "@[", "`{",
    ])
    func anythingElseIsNot(text: String) {
        #expect(CountryCode(text) == nil, "\(text)")
        #expect(throws: SearchRequestError("'country' must be a two-letter ISO 3166 code")) {
            try CountryCode(parsing: text)
        }
    }

    @Test func onlyAssignedCodesHaveAFlag() throws {
        #expect(CountryCode.assigned.count == 249)
        #expect(CountryCode.assigned.allSatisfy { CountryCode($0)?.text == $0 })
        #expect(try #require(CountryCode("de")).isAssigned)
        #expect(try #require(CountryCode("aq")).isAssigned)
        #expect(try !#require(CountryCode("XX")).isAssigned)
        #expect(try !#require(CountryCode("UK")).isAssigned)
    }

    @Test func theFlagIsTwoRegionalIndicators() throws {
        #expect(try #require(CountryCode("de")).flagEmoji == "🇩🇪")
        #expect(try #require(CountryCode("JP")).flagEmoji == "🇯🇵")
        #expect(try #require(CountryCode("zz")).flagEmoji.unicodeScalars.map(\.value) == [0x1F1FF, 0x1F1FF])
    }
}
