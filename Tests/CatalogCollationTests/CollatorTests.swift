import CatalogCollation
import Testing

/// Strings listed in the order one locale sorts them.
struct OrderCase: Sendable, CustomTestStringConvertible {
    let locale: String
    let sorted: [String]

    init(_ locale: String, _ sorted: [String]) {
        self.locale = locale
        self.sorted = sorted
    }

    var testDescription: String { "\(locale): \(sorted.joined(separator: " < "))" }
}

@Suite struct CollatorTests {
    static let orders: [OrderCase] = [
        OrderCase("en", ["apple", "Apple", "APPLE", "banana", "Élan", "zebra"]),
        OrderCase("de", ["Apfel", "Äpfel", "Bär", "Öl", "Ozean", "Zucker"]),
        OrderCase(
            "hu", ["cukor", "csiga", "ostor", "öröm", "pál", "sült", "szilva", "tűz", "tyúk", "zokni", "zsemle"]),
        OrderCase("sv", ["Vega", "Wasa", "Zebra", "Åsa", "Ärlig", "Örebro"]),
        OrderCase("fr", ["cote", "coté", "côte", "côté", "Eau", "Élan", "Fromage"]),
        OrderCase("es", ["nube", "ñandú", "oso"]),
        OrderCase("cs", ["cena", "čas", "dům", "hrad", "chleba", "ice", "rak", "řeka", "sova", "šest", "zub", "žena"]),
        OrderCase("ja", ["apple", "アイス", "かめ", "カメラ", "さくら"]),
    ]

    @Test(arguments: orders)
    func compareSortsInTheLocalesOrder(_ example: OrderCase) throws {
        let collator = try Collator(locale: example.locale)
        #expect(example.sorted.reversed().sorted { collator.compare($0, $1) < 0 } == example.sorted)
        for (earlier, later) in zip(example.sorted, example.sorted.dropFirst()) {
            #expect(collator.compare(earlier, later) == -1, "\(earlier) < \(later)")
            #expect(collator.compare(later, earlier) == 1, "\(later) > \(earlier)")
        }
    }

    @Test(arguments: orders)
    func sortKeysSortInTheLocalesOrder(_ example: OrderCase) throws {
        let collator = try Collator(locale: example.locale)
        let keyed = example.sorted.reversed().map { (key: collator.sortKey($0), text: $0) }
        #expect(keyed.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.text) == example.sorted)
    }

    @Test func germanSortsUmlautsWithTheirBaseLetter() throws {
        let collator = try Collator(locale: "de")
        #expect(
            ["Zucker", "Bär", "Äpfel", "Apfel"].sorted { collator.compare($0, $1) < 0 }
                == ["Apfel", "Äpfel", "Bär", "Zucker"])
    }

    @Test func hungarianSortsCBeforeCS() throws {
        let collator = try Collator(locale: "hu")
        #expect(collator.compare("cukor", "csiga") == -1)
        #expect(collator.sortKey("cukor").lexicographicallyPrecedes(collator.sortKey("csiga")))
        // In English, "cs" is just c then s.
        #expect(try Collator(locale: "en").compare("cukor", "csiga") == 1)
    }

    @Test func swedishSortsÅÄÖAfterZ() throws {
        let collator = try Collator(locale: "sv")
        #expect(collator.compare("Z", "Å") == -1)
        #expect(collator.compare("Å", "Ä") == -1)
        #expect(collator.compare("Ä", "Ö") == -1)
        // In German, Ä and Ö sort with A and O.
        #expect(try Collator(locale: "de").compare("Ärlig", "Zebra") == -1)
    }

    @Test func equalStringsCompareEqualAndHaveEqualKeys() throws {
        let collator = try Collator(locale: "de")
        #expect(collator.compare("Äpfel", "Äpfel") == 0)
        #expect(collator.compare("", "") == 0)
        #expect(collator.sortKey("Äpfel") == collator.sortKey("Äpfel"))
        // Canonically equivalent spellings (precomposed and combining umlaut) are equal.
        #expect(collator.compare("\u{C4}pfel", "A\u{308}pfel") == 0)
        #expect(collator.sortKey("\u{C4}pfel") == collator.sortKey("A\u{308}pfel"))
    }

    @Test func sortKeysHaveNoZeroBytesAndTheEmptyStringFirst() throws {
        let collator = try Collator(locale: "en")
        let empty = collator.sortKey("")
        for text in ["a", "A", "0", "!", " ", "Ωmega", "カメラ", "a\u{0}b"] {
            let key = collator.sortKey(text)
            #expect(!key.isEmpty)
            #expect(!key.contains(0), "\(text): \(key)")
            #expect(empty.lexicographicallyPrecedes(key))
        }
    }

    @Test func longStringsGetCompleteKeys() throws {
        let collator = try Collator(locale: "hu")
        let stem = String(repeating: "Árvíztűrő tükörfúrógép ", count: 40)
        let first = stem + "cukor"
        let second = stem + "csiga"
        #expect(collator.sortKey(first).count > 1000)
        #expect(collator.compare(first, second) == -1)
        #expect(collator.sortKey(first).lexicographicallyPrecedes(collator.sortKey(second)))
        #expect(collator.sortKey(stem).lexicographicallyPrecedes(collator.sortKey(first)))
    }

    @Test func keysAreTheSameFromManyThreads() async throws {
        let collator = try Collator(locale: "sv")
        let words = Self.orders.flatMap(\.sorted)
        let expected = words.map(collator.sortKey)
        let results = await withTaskGroup(of: Bool.self, returning: [Bool].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    (0..<50).allSatisfy { _ in words.map(collator.sortKey) == expected }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }

    @Test func reportsItsVersionAndLocale() throws {
        let collator = try Collator(locale: "de-DE")
        #expect(collator.locale == "de-DE")
        #expect(!collator.version.isEmpty)
        #expect(collator.version.allSatisfy { $0.isNumber || $0 == "." })
    }

    @Test(arguments: ["xx", "und", "de_DE", "de-u-co-phonebk", "zh-Hant-TW", "en-US-x-private"])
    func acceptsWellFormedTags(_ locale: String) throws {
        #expect(try Collator(locale: locale).compare("a", "b") == -1)
    }

    @Test func phonebookGermanSortsÄAsAE() throws {
        let phonebook = try Collator(locale: "de-u-co-phonebk")
        let standard = try Collator(locale: "de")
        #expect(phonebook.compare("Äz", "Af") == -1)
        #expect(standard.compare("Äz", "Af") == 1)
    }

    @Test(arguments: [
        "", " ", "en US", "dé", "de@collation=phonebook", "a", "de--DE", "de-", "toolonglanguage", "de\0",
    ])
    func rejectsMalformedLocales(_ locale: String) {
        #expect {
            try Collator(locale: locale)
        } throws: { error in
            guard let error = error as? CollationError else { return false }
            return error.code == .invalidLocale && error.description.contains("Invalid locale")
        }
    }
}

/// The locales a catalog may be created with or changed to: well formed, and a language ICU has
/// data for.
@Suite struct KnownLocaleTests {
    @Test(arguments: ["de", "hu", "sv-SE", "en", "en-XX", "zh-Hant-TW", "de_AT", "pt-BR"])
    func knownLocalesAreAccepted(_ locale: String) {
        #expect(ICUCollation.problem(knownLocale: locale) == nil)
        #expect(ICUCollation.isKnown(locale: locale))
    }

    @Test(arguments: ["xx", "tlh", "qq-QQ", "und"])
    func wellFormedLanguagesICUHasNoDataForAreUnknown(_ locale: String) throws {
        let problem = try #require(ICUCollation.problem(knownLocale: locale))
        #expect(problem.hasPrefix("Unknown locale \"\(locale)\""))
        // An import still accepts them (ICU's root order).
        #expect((try? ICUCollation(locale: locale)) != nil)
    }

    @Test(arguments: ["", "en US", "de@collation=phonebook", "ü"])
    func malformedLocalesSaySo(_ locale: String) throws {
        let problem = try #require(ICUCollation.problem(knownLocale: locale))
        #expect(problem.hasPrefix("Invalid locale"))
        #expect(!problem.hasSuffix("."))
    }
}
