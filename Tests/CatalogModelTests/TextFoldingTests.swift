import CatalogModel
import Testing

@Suite struct TextFoldingTests {
    @Test(arguments: [
        ("Ärger", "arger"), ("ARGER", "arger"), ("Bábleves", "bableves"), ("Öl", "ol"), ("Straße", "strasse"),
        ("Œuvre", "oeuvre"), ("Søren", "soren"), ("Łódź", "lodz"), ("Đakovo", "dakovo"), ("Æble", "aeble"),
        ("csirkepaprikás", "csirkepaprikas"), ("Ｗｉｄｅ", "wide"), ("Ωmega", "ωmega"), ("Ёлка", "елка"),
        ("e\u{301}te\u{301}", "ete"), ("カメラ", "カメラ"), ("„Zitat“ – gut", "„zitat“ – gut"),
        ("Hétköznapi Tűzőgép", "hetkoznapi tuzogep"),
    ])
    func foldsCaseAndDiacritics(input: String, expected: String) {
        #expect(TextFolding.fold(input) == expected)
    }

    @Test func splitsWordsLikeTheTokenizer() {
        #expect(
            TextFolding.words("Rock'n'Roll: 3D-Drucker, Ünnep!") == ["rock", "n", "roll", "3d", "drucker", "unnep"])
        #expect(TextFolding.words("  \t\n ") == [])
    }

    @Test func mapsMatchesBackToTheOriginalInUTF16() throws {
        let text = "Große Äpfel 🍎 und Straße"
        let folded = FoldedText(text)
        let apfel = try #require(folded.find(Array("apf".utf8)))
        #expect(apfel.kind == .prefix)
        let utf16 = Array(text.utf16)
        #expect(String(decoding: utf16[apfel.range], as: UTF16.self) == "Äpf")
        let strasse = try #require(folded.find(Array("strasse".utf8)))
        #expect(strasse.kind == .word)
        #expect(String(decoding: utf16[strasse.range], as: UTF16.self) == "Straße")
        let inner = try #require(folded.find(Array("rosse".utf8)))
        #expect(inner.kind == .substring)
        #expect(String(decoding: utf16[inner.range], as: UTF16.self) == "roße")
    }

    @Test func prefersWholeWordsOverPrefixesOverSubstrings() throws {
        let folded = FoldedText("Reason seasoned sea")
        #expect(try #require(folded.find(Array("sea".utf8))).kind == .word)
        #expect(try #require(folded.find(Array("sea".utf8))).range == 16..<19)
        #expect(try #require(folded.find(Array("eason".utf8))).kind == .substring)
        #expect(folded.find(Array("eason".utf8), allowSubstring: false) == nil)
    }
}

@Suite struct SearchQueryTests {
    @Test(arguments: [
        ("gulyás", ["gulyas"]),
        ("\"foo OR", ["foo", "or"]),
        ("NEAR(a b)", ["near", "a", "b"]),
        ("-x *", ["x"]),
        ("a\u{0}b", ["a", "b"]),
        ("'; DROP TABLE items; --", ["drop", "table", "items"]),
        ("<script>alert(1)</script>", ["script", "alert", "1"]),
        ("title:foo^2 {col}", ["title", "foo", "2", "col"]),
        ("liv liv LIV", ["liv"]),
    ])
    func userInputBecomesPlainWords(input: String, words: [String]) {
        #expect(SearchQuery(input).words == words)
    }

    @Test func limitsWordsAndLength() {
        let many = (1...20).map { "w\($0)" }.joined(separator: " ")
        #expect(SearchQuery(many).words.count == SearchQuery.maxWords)
        let long = String(repeating: "é", count: 100)
        #expect(SearchQuery(long).words[0].utf8.count <= SearchQuery.maxWordBytes)
    }

    @Test func rangesRequireEveryWord() throws {
        let query = SearchQuery("pap csirke")
        let result = try #require(query.ranges(in: "Csirkepaprikás galuskával"))
        #expect(result.ranges == [0..<9])
        #expect(result.kind == .substring)
        #expect(query.ranges(in: "Gulyásleves") == nil)
    }
}
