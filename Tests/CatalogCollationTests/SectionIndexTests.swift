import CatalogCollation
import Testing

/// One title and the section label it must get in one locale.
struct SectionCase: Sendable, CustomTestStringConvertible {
    let locale: String
    let title: String
    let label: String

    init(_ locale: String, _ title: String, _ label: String) {
        self.locale = locale
        self.title = title
        self.label = label
    }

    var testDescription: String { "\(locale): \"\(title)\" → \(label)" }
}

/// The index of each locale, opened once for all tests.
private let indexes: [String: SectionIndex] = {
    var indexes: [String: SectionIndex] = [:]
    for locale in SectionIndexTests.locales {
        indexes[locale] = try? SectionIndex(locale: locale)
    }
    return indexes
}()

private func index(_ locale: String) throws -> SectionIndex {
    try #require(indexes[locale], "no index for \(locale)")
}

@Suite struct SectionIndexTests {
    static let locales = [
        "en", "de", "hu", "sv", "fr", "es", "cs", "ja", "ru", "el", "zh", "zh-Hant", "ko", "und", "xx",
    ]

    static let sections: [SectionCase] = [
        // English: letters, and everything else under "#".
        SectionCase("en", "apple", "A"),
        SectionCase("en", "Apple", "A"),
        SectionCase("en", "zebra", "Z"),
        SectionCase("en", "Élan", "E"),
        SectionCase("en", "123 Widgets", "#"),
        SectionCase("en", "!Bang", "#"),
        SectionCase("en", "Ωmega", "#"),
        SectionCase("en", "Привет", "#"),
        SectionCase("en", "カメラ", "#"),
        SectionCase("en", "", "#"),
        SectionCase("en", " apple", "#"),
        // German: umlauts file under their base letter.
        SectionCase("de", "Apfel", "A"),
        SectionCase("de", "Äpfel", "A"),
        SectionCase("de", "Bär", "B"),
        SectionCase("de", "Öl", "O"),
        SectionCase("de", "Über", "U"),
        SectionCase("de", "Zucker", "Z"),
        SectionCase("de", "", "#"),
        // Hungarian: digraphs and trigraphs are letters of their own.
        SectionCase("hu", "cukor", "C"),
        SectionCase("hu", "csirkepaprikás", "CS"),
        SectionCase("hu", "dinnye", "D"),
        SectionCase("hu", "dzseki", "DZS"),
        SectionCase("hu", "gyümölcs", "GY"),
        SectionCase("hu", "gomba", "G"),
        SectionCase("hu", "lyuk", "LY"),
        SectionCase("hu", "nyúl", "NY"),
        SectionCase("hu", "nap", "N"),
        SectionCase("hu", "olaj", "O"),
        SectionCase("hu", "öröm", "Ö"),
        SectionCase("hu", "őz", "Ö"),
        SectionCase("hu", "szilva", "SZ"),
        SectionCase("hu", "só", "S"),
        SectionCase("hu", "tyúk", "TY"),
        SectionCase("hu", "tök", "T"),
        SectionCase("hu", "zsemle", "ZS"),
        SectionCase("hu", "zab", "Z"),
        SectionCase("hu", "álom", "A"),
        SectionCase("hu", "", "#"),
        // Swedish: Å Ä Ö are letters after Z.
        SectionCase("sv", "Zebra", "Z"),
        SectionCase("sv", "Åsa", "Å"),
        SectionCase("sv", "Ärlig", "Ä"),
        SectionCase("sv", "Örebro", "Ö"),
        SectionCase("sv", "Ødegaard", "Ö"),
        SectionCase("sv", "Æble", "Ä"),
        SectionCase("sv", "Wasa", "W"),
        SectionCase("sv", "2001", "#"),
        // French: accents do not make letters.
        SectionCase("fr", "Élan", "E"),
        SectionCase("fr", "été", "E"),
        SectionCase("fr", "Œuvre", "O"),
        SectionCase("fr", "Çà", "C"),
        // Spanish: Ñ is a letter.
        SectionCase("es", "ñandú", "Ñ"),
        SectionCase("es", "nube", "N"),
        SectionCase("es", "oso", "O"),
        // Czech: CH after H, and the háček letters.
        SectionCase("cs", "chleba", "CH"),
        SectionCase("cs", "Chrudim", "CH"),
        SectionCase("cs", "cena", "C"),
        SectionCase("cs", "hrad", "H"),
        SectionCase("cs", "čas", "Č"),
        SectionCase("cs", "řeka", "Ř"),
        SectionCase("cs", "šest", "Š"),
        SectionCase("cs", "žena", "Ž"),
        // Japanese: kana by row (ICU labels the rows in hiragana), Latin by letter.
        SectionCase("ja", "カメラ", "か"),
        SectionCase("ja", "かめ", "か"),
        SectionCase("ja", "アイス", "あ"),
        SectionCase("ja", "ひらがな", "は"),
        SectionCase("ja", "さくら", "さ"),
        SectionCase("ja", "apple", "A"),
        SectionCase("ja", "Zebra", "Z"),
        SectionCase("ja", "漢字", "#"),
        SectionCase("ja", "123", "#"),
        SectionCase("ja", "", "#"),
        // Non-Latin indexes get the English letters too.
        SectionCase("ru", "Москва", "М"),
        SectionCase("ru", "London", "L"),
        SectionCase("el", "Ωμέγα", "Ω"),
        SectionCase("el", "Omega", "O"),
        SectionCase("zh", "Beijing", "B"),
        SectionCase("ko", "Seoul", "S"),
        // An unknown language gets the root index.
        SectionCase("xx", "apple", "A"),
        SectionCase("xx", "Ωmega", "#"),
    ]

    @Test(arguments: sections)
    func titleIsFiledUnderItsSection(_ example: SectionCase) throws {
        let index = try index(example.locale)
        #expect(index.label(for: example.title) == example.label)
        let section = index.section(for: example.title)
        #expect(index.labels.indices.contains(section))
        #expect(index.labels.firstIndex(of: example.label) == section)
    }

    @Test(arguments: locales)
    func labelsAreUniqueWithOneOtherSectionLast(_ locale: String) throws {
        let labels = try index(locale).labels
        #expect(labels.count > 1)
        #expect(Set(labels).count == labels.count, "duplicate labels: \(labels)")
        #expect(labels.last == "#")
        #expect(labels.filter { $0 == "#" }.count == 1)
        #expect(!labels.contains(""))
    }

    @Test(arguments: ["ja", "ru", "el", "zh-Hant", "ko"])
    func nonLatinIndexesAlsoHaveTheEnglishLetters(_ locale: String) throws {
        let labels = try index(locale).labels
        let latin = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }
        #expect(latin.allSatisfy(labels.contains))
        #expect(labels.count > latin.count + 1, "the locale's own letters are kept")
    }

    @Test func hungarianLabels() throws {
        let expected = [
            "A", "B", "C", "CS", "D", "DZ", "DZS", "E", "F", "G", "GY", "H", "I", "J", "K", "L", "LY", "M", "N", "NY",
            "O", "Ö", "P", "Q", "R", "S", "SZ", "T", "TY", "U", "Ü", "V", "W", "X", "Y", "Z", "ZS", "#",
        ]
        #expect(try index("hu").labels == expected)
    }

    @Test func swedishLabelsEndWithÅÄÖ() throws {
        let labels = try index("sv").labels
        #expect(labels.suffix(5) == ["Z", "Å", "Ä", "Ö", "#"])
        #expect(labels.count == 30)
    }

    @Test func czechLabels() throws {
        let expected = [
            "A", "B", "C", "Č", "D", "E", "F", "G", "H", "CH", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R", "Ř",
            "S", "Š", "T", "U", "V", "W", "X", "Y", "Z", "Ž", "#",
        ]
        #expect(try index("cs").labels == expected)
    }

    @Test func spanishHasÑBetweenNAndO() throws {
        let labels = try index("es").labels
        let n = try #require(labels.firstIndex(of: "N"))
        #expect(labels[n + 1] == "Ñ")
        #expect(labels[n + 2] == "O")
    }

    @Test(arguments: ["en", "de", "fr"])
    func latinLocalesHaveAToZ(_ locale: String) throws {
        let expected = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) } + ["#"]
        #expect(try index(locale).labels == expected)
    }

    @Test func japaneseLabels() throws {
        let latin = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }
        let kana = ["あ", "か", "さ", "た", "な", "は", "ま", "や", "ら", "わ"]
        #expect(try index("ja").labels == latin + kana + ["#"])
    }

    @Test func longTitlesAreFiledLikeShortOnes() throws {
        let index = try index("hu")
        let long = "szilva" + String(repeating: "lekvár és ", count: 100)
        #expect(long.utf8.count > 1000)
        #expect(index.label(for: long) == "SZ")
        #expect(index.label(for: String(repeating: "!", count: 600)) == "#")
    }

    @Test func sectionsAreTheSameFromManyThreads() async throws {
        let index = try SectionIndex(locale: "hu")
        let titles = Self.sections.filter { $0.locale == "hu" }
        let results = await withTaskGroup(of: Bool.self, returning: [Bool].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    (0..<500).allSatisfy { i in
                        let example = titles[i % titles.count]
                        return index.label(for: example.title) == example.label
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }

    @Test func keepsTheLocaleAsGiven() throws {
        #expect(try SectionIndex(locale: "sv_SE").locale == "sv_SE")
        #expect(try SectionIndex(locale: "sv_SE").labels == index("sv").labels)
    }

    @Test(arguments: [
        "", " ", "en US", "dé", "de@collation=phonebook", "a", "de--DE", "de-", "toolonglanguage", "de\0",
    ])
    func rejectsMalformedLocales(_ locale: String) {
        #expect {
            try SectionIndex(locale: locale)
        } throws: { error in
            (error as? CollationError)?.code == .invalidLocale
        }
    }
}
