import CatalogCore
import CatalogModel
import CatalogStorage
import Testing

@Suite struct SearchRankingTests {
    static let sequencers = [
        "Ötzi Drums", "Klangwerk Studio", "Funkelpult", "Loopgarten", "Mondschein Synth", "Tonkunst Pro",
        "Basslinie", "Rauschgold", "Echolot", "Wellenreiter",
    ]

    @Test func findsEveryTitleContainingTheFirstLetter() throws {
        let catalog = try TestCatalog(titles: Self.sequencers, locale: "de")
        let withO = Set(Self.sequencers.filter { TextFolding.fold($0).contains("o") })
        #expect(Set(try catalog.titles("o")) == withO)
        #expect(try catalog.search("o").total == withO.count)
        #expect(Set(try catalog.titles("er")) == ["Wellenreiter", "Klangwerk Studio"])
        #expect(try catalog.titles("a").count == Self.sequencers.filter { TextFolding.fold($0).contains("a") }.count)
    }

    @Test func exactTitlesComeFirst() throws {
        let catalog = try TestCatalog(titles: [
            "Equatorial Guinea", "Guinea-Bissau", "Guinea", "Papua New Guinea", "American Samoa", "Samoa",
            "Nishi-Tokyo-shi", "Tokyo", "Higashi-Tokyo",
        ])
        // The exact title, the title that starts with it, then shorter titles first.
        #expect(try catalog.titles("guinea") == ["Guinea", "Guinea-Bissau", "Papua New Guinea", "Equatorial Guinea"])
        #expect(try catalog.titles("samoa").first == "Samoa")
        #expect(try catalog.titles("tokyo").first == "Tokyo")
        #expect(try catalog.search("guinea").hits.first?.tier == .exactTitle)
    }

    @Test func tiersInOrder() throws {
        let catalog = try TestCatalog(titles: [
            "Deep sea", "Sea", "Seashell collection", "Overseas shipping", "Chelsea", "Sea salt", "Big seal",
        ])
        // Exact, then title starts (shorter first), then whole word, then word start, then inside.
        #expect(
            try catalog.titles("sea") == [
                "Sea", "Sea salt", "Seashell collection", "Deep sea", "Big seal", "Chelsea", "Overseas shipping",
            ])
        let tiers = try catalog.search("sea").hits.map(\.tier)
        #expect(tiers == [.exactTitle, .titleStart, .titleStart, .wholeWords, .wordStarts, .insideWords, .insideWords])
    }

    @Test func multiWordTitles() throws {
        let catalog = try TestCatalog(titles: ["New York", "York New", "New Yorker Hotel", "Newark York Road"])
        let hits = try catalog.search("new york").hits
        #expect(hits.map(\.stored.title) == ["New York", "New Yorker Hotel", "York New", "Newark York Road"])
        #expect(hits.map(\.tier) == [.exactTitle, .titleStart, .wholeWords, .wordStarts])
    }

    @Test func typos() throws {
        let catalog = try TestCatalog(titles: ["Germany", "French Guiana", "New York", "Newark"])
        #expect(try catalog.titles("germny") == ["Germany"])
        #expect(try catalog.titles("frnch") == ["French Guiana"])
        #expect(try catalog.titles("new yrok") == ["New York"])
        #expect(try catalog.search("germny").hits.first?.tier == .titleOneTypo)
        // Four letters allow only swapped neighbours; three none.
        #expect(try catalog.titles("grmn").isEmpty)
        #expect(try catalog.titles("nwe").isEmpty)
        let ranges = try catalog.search("germny").hits[0].matches
        #expect(ranges == [MatchRange(field: "title", start: 0, length: 7)])
    }

    @Test func foldsLetterVariants() throws {
        let catalog = try TestCatalog(titles: ["Egilsstaðir", "Ħamrun", "Łódź", "Þórshöfn", "Straße"])
        #expect(try catalog.titles("egilsstadir") == ["Egilsstaðir"])
        #expect(try catalog.titles("hamrun") == ["Ħamrun"])
        #expect(try catalog.titles("lodz") == ["Łódź"])
        #expect(try catalog.titles("thorshofn") == ["Þórshöfn"])
        #expect(try catalog.titles("strasse") == ["Straße"])
    }

    @Test func germanCatalogsAlsoMatchTypedUmlauts() throws {
        let catalog = try TestCatalog(titles: ["München", "Ötzi Drums", "Muenster"], locale: "de")
        #expect(try catalog.titles("muenchen") == ["München"])
        #expect(try catalog.titles("oetzi") == ["Ötzi Drums"])
        #expect(try catalog.titles("munchen") == ["München"])
        // Elsewhere "ue" is no umlaut: only a typo away.
        let english = try TestCatalog(titles: ["München"], locale: "en")
        #expect(try english.search("muenchen").hits.map(\.tier) == [.titleOneTypo])
    }

    @Test func scriptsWithoutSpaces() throws {
        let catalog = try TestCatalog(titles: ["北京大学", "南京", "독일 자동차", "東京タワー", "Berlin"])
        #expect(try catalog.titles("北京") == ["北京大学"])
        #expect(Set(try catalog.titles("京")) == ["北京大学", "南京", "東京タワー"])
        #expect(try catalog.titles("독일") == ["독일 자동차"])
        #expect(try catalog.titles("タワー") == ["東京タワー"])
        #expect(try catalog.titles("京大学") == ["北京大学"])
    }

    @Test func symbolsAreLiteral() throws {
        let catalog = try TestCatalog([
            Record(id: "a", title: "Price in €"), Record(id: "b", title: "Plain"),
            Record(id: "c", title: "Nishi-Tokyo"), Record(id: "d", title: "Other", description: "costs 5 €"),
        ])
        #expect(try catalog.titles("€") == ["Price in €", "Other"])
        #expect(try catalog.titles("-") == ["Nishi-Tokyo"])
        #expect(try catalog.titles("🙂").isEmpty)
        #expect(try catalog.search("🙂").total == 0)
    }

    @Test func otherFieldsRankAfterTitles() throws {
        let catalog = try TestCatalog([
            Record(id: "ny1", title: "Albany", fields: ["state": .text("NY")]),
            Record(id: "z1", title: "Cambridge", fields: ["zip": .text("02139")]),
            Record(id: "x", title: "Nyack"),
        ])
        // The state's whole value is "NY": it ranks as an exact title, before a title that starts so.
        #expect(try catalog.titles("ny") == ["Albany", "Nyack"])
        #expect(try catalog.titles("02139") == ["Cambridge"])
        #expect(try catalog.titles("z1") == ["Cambridge"])
        let hit = try #require(try catalog.search("02139").hits.first)
        // The zip's whole value is the query: it ranks as an exact title would.
        #expect(hit.tier == .exactTitle)
        #expect(try catalog.search("021").hits.first?.tier == .otherFields)
        #expect(hit.snippet?.field == "fields.zip")
        #expect(hit.snippet?.matches == [MatchRange(field: "fields.zip", start: 0, length: 5)])
    }

    @Test func anExactValueOrAWordAnywhereBeatsInfixesAndTypos() throws {
        let catalog = try TestCatalog([
            Record(id: "md", title: "Münchendorf"),
            Record(id: "m", title: "Munich", fields: ["name_de": .text("München")]),
            Record(id: "st", title: "Stallen"),
            Record(
                id: "sg", title: "Sankt Gallen", fields: ["alt": .list([.text("St. Gallen"), .text("Saint-Gall")])]),
            Record(id: "x", title: "Tecalculatorium"),
            Record(id: "d", title: "Abacus", description: "An old calculator for the pocket"),
            Record(id: "c", title: "Rechner", fields: ["name": .text("Calculator")]),
        ])
        // A field whose whole value is the query ranks with the exact title, before title starts.
        #expect(try catalog.titles("münchen") == ["Munich", "Münchendorf"])
        #expect(try catalog.search("münchen").hits.map(\.tier) == [.exactTitle, .titleStart])
        #expect(try catalog.titles("st. gallen").first == "Sankt Gallen")
        #expect(try catalog.titles("saint gall") == ["Sankt Gallen"])
        // A whole word of another field comes before a run inside a title word.
        #expect(try catalog.titles("calculator") == ["Rechner", "Abacus", "Tecalculatorium"])
        #expect(
            try catalog.search("calculator").hits.map(\.tier) == [.exactTitle, .wholeWordsAnywhere, .insideWords])
    }

    /// Alternate names as GeoNames writes them: one text, comma-separated.
    @Test func anItemOfAListOfNamesRanksAsAnExactMatch() throws {
        let catalog = try TestCatalog([
            Record(id: "md", title: "Münchendorf"),
            Record(id: "mh", title: "München Hauptbahnhof"),
            Record(
                id: "m", title: "Munich",
                fields: ["alternatenames": .text("Minga,Monaco di Baviera,München,Munich,Múnich,Myunkhen")]),
            Record(
                id: "d", title: "Deep sea", fields: ["notes": .text("Seen near München, where the river bends slowly")]),
        ])
        #expect(try catalog.search("münchen").hits.map(\.stored.id).first == "m")
        #expect(try catalog.search("münchen").hits.first?.tier == .exactTitle)
        #expect(try catalog.search("monaco di baviera").hits.first?.tier == .exactTitle)
        // A sentence's clause is not an item: "near münchen" stays a match of words.
        #expect(try catalog.search("seen near münchen").hits.first?.tier != .exactTitle)
    }

    @Test(
        arguments: [
            ("München,Munich,Monaco di Baviera", ["munchen", "munich", "monaco di baviera"]),
            ("red; green;blue ; red", ["red", "green", "blue"]),
            ("Tested in our workshop, rated quiet by customers.", nil),
            ("No list here", nil),
            ("a,,b", nil),
            ("one item,", nil),
            ("1,5", nil),
            ("47.37,8.54", nil),
        ] as [(String, [String]?)])
    func listItemsAreNamesBetweenCommas(text: String, items: [String]?) {
        #expect(IndexTerms.listItems(text) == items)
    }

    @Test func anExactIDRanksWithExactTitles() throws {
        let catalog = try TestCatalog([
            Record(id: "0042", title: "Asterisk", description: "Next to 0041 in the table"),
            Record(id: "0041", title: "Latin Capital Letter A"),
            Record(id: "x1", title: "Code 0041 lookalike"),
            Record(id: "P-008", title: "Staple Gun"),
            Record(id: "p", title: "P 008 spare part"),
        ])
        let hits = try catalog.search("0041").hits
        #expect(hits.map(\.stored.id) == ["0041", "x1", "0042"])
        #expect(hits.first?.tier == .exactTitle)
        // Compared as folded words: case and punctuation as a query writes them.
        #expect(try catalog.search("p-008").hits.first?.stored.id == "P-008")
        #expect(try catalog.search("P 008").hits.map(\.tier).prefix(2) == [.exactTitle, .titleStart])
    }

    @Test func fewerTyposRankFirst() throws {
        let catalog = try TestCatalog(titles: ["Frankfort", "Frankfort Heights", "Frankfurt", "Frankfort East"])
        let hits = try catalog.search("frankfrut").hits
        #expect(hits.first?.stored.title == "Frankfurt")
        #expect(hits.map(\.tier) == [.titleOneTypo, .titleTypos, .titleTypos, .titleTypos])
        #expect(hits.allSatisfy { !$0.isExact })
    }

    @Test func punctuationFindsTheRecordsThatHaveIt() throws {
        let catalog = try TestCatalog(titles: ["What now?", "Plain", "Tea (green)", "Why? Because", "Tea"])
        #expect(Set(try catalog.titles("?")) == ["What now?", "Why? Because"])
        #expect(try catalog.titles("()") == ["Tea (green)"])
        #expect(try catalog.search("!").total == 0)
        #expect(try catalog.titles("tea") == ["Tea", "Tea (green)"])
    }

    @Test func hitsSayWhetherTheyMatchedOnlyThroughATypo() throws {
        let catalog = try TestCatalog([
            Record(id: "g", title: "Germany"), Record(id: "s", title: "Germans"),
            Record(id: "f", title: "Flags", description: "The flag of Germany"),
        ])
        let response = try catalog.search("germany").response()
        #expect(response.items.map(\.id) == ["g", "f", "s"])
        #expect(response.items.map(\.typo) == [false, false, true])
    }

    @Test func stableOrder() throws {
        let titles = (0..<500).map { "Item \($0 % 37) alpha \($0)" }
        let catalog = try TestCatalog(titles: titles)
        let first = try catalog.titles("alp", limit: 100)
        for _ in 0..<3 { #expect(try catalog.titles("alp", limit: 100) == first) }
    }
}
