import CatalogCore
import CatalogEngines
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

/// A catalog's search settings (``SearchSettings``): stored with its definition on every engine,
/// changed whole or not at all, and applied by search (synonyms, stop words, typo rules).
@Suite struct SearchSettingsTests {
    static let engines = TemporaryDatabase.Engine.available
    let management = CatalogManagement.withICU

    static let shop = CatalogDefinition(id: "shop", title: "Shop", locale: "en")
    static let goods: [Record] = [
        Record(id: "g1", title: "Auto parts"),
        Record(id: "g2", title: "Red car", description: "A small city car"),
        Record(id: "g3", title: "Bicycle"),
        Record(id: "g4", title: "Phone case"),
        Record(id: "g5", title: "Iphone charger"),
        Record(id: "g6", title: "The Car Book"),
        Record(id: "g7", title: "Lamp", description: "For an automobile garage"),
        Record(id: "g8", title: "Night light"),
    ]

    func fixture(_ engine: TemporaryDatabase.Engine) throws -> StoreFixture {
        let fixture = try StoreFixture(engine)
        try fixture.load(Self.shop, Self.goods)
        return fixture
    }

    func change(_ fixture: StoreFixture, _ body: (inout SearchSettings) throws -> Void) throws
        -> ManagedSearchSettings
    {
        try management.updateSearchSettings("shop", in: fixture.database) { current in
            var settings = current
            try body(&settings)
            return settings
        }
    }

    func ids(_ fixture: StoreFixture, _ query: String) throws -> [String] {
        try fixture.search(query, in: "shop", limit: 20).items.map(\.id)
    }

    @Test(arguments: engines)
    func settingsRoundTripWithTheDefinition(engine: TemporaryDatabase.Engine) throws {
        let fixture = try fixture(engine)
        let before = try fixture.catalog("shop")
        #expect(before.definition.searchSettings.isDefault)
        let changed = try change(fixture) { settings in
            settings.synonyms = [try SynonymRule(parsing: "auto,car"), try SynonymRule(parsing: "phone => iphone")]
            settings.stopWords = ["the", "a"]
            settings.typos = TypoSettings(oneTypoFrom: 4, twoTyposFrom: 8, exemptWords: ["iphone"])
        }
        let after = try fixture.catalog("shop")
        #expect(after.definition.searchSettings == changed.settings)
        #expect(changed.settings.synonyms.map(\.description) == ["auto, car", "phone => iphone"])
        #expect(changed.revision == after.revision)
        #expect(after.revision != before.revision)
        // A change clients follow, counted once; the records stay.
        #expect(after.change == before.change + 1)
        #expect(try fixture.items("shop").records.count == Self.goods.count)
        // The same settings again change nothing.
        _ = try change(fixture) { _ in }
        #expect(try fixture.catalog("shop").change == after.change)
    }

    @Test(arguments: engines)
    func badSettingsChangeNothingAndNameTheirKey(engine: TemporaryDatabase.Engine) throws {
        let fixture = try fixture(engine)
        let before = try fixture.catalog("shop")
        let error = try #require(throws: CatalogChangeError.self) {
            try change(fixture) { settings in
                settings.stopWords = ["the", "two words"]
                settings.typos.oneTypoFrom = 7
                settings.typos.twoTyposFrom = 3
            }
        }
        #expect(error.problems.map(\.pointer) == ["/stopWords/1", "/typos/twoTyposFrom"])
        #expect(try fixture.catalog("shop").revision == before.revision)
        #expect(try fixture.catalog("shop").definition.searchSettings.isDefault)
        let patch = try CatalogDocument.MergePatch(
            Array(#"{"synonyms":["car"],"typos":{"oneTypoFrom":"5","speed":1},"colour":1}"#.utf8))
        let patched = try #require(throws: CatalogChangeError.self) {
            try management.updateSearchSettings("shop", in: fixture.database) {
                try SearchSettingsDocument.merging(patch, into: $0)
            }
        }
        #expect(
            patched.problems.map(\.pointer) == ["/colour", "/synonyms/0", "/typos/oneTypoFrom", "/typos/speed"])
    }

    @Test func aMergePatchChangesOnlyTheKeysItGives() throws {
        var current = SearchSettings(stopWords: ["the"])
        current.typos.exemptWords = ["iphone"]
        let patch = try CatalogDocument.MergePatch(
            Array(#"{"synonyms":["auto, car"],"typos":{"oneTypoFrom":4},"stopWords":null}"#.utf8))
        let merged = try SearchSettingsDocument.merging(patch, into: current)
        #expect(merged.synonyms == [try SynonymRule(parsing: "auto,car")])
        #expect(merged.stopWords.isEmpty)
        #expect(merged.typos == TypoSettings(oneTypoFrom: 4, twoTyposFrom: 9, exemptWords: ["iphone"]))
        #expect(merged.typos.exemptFields == ["id"])
    }

    @Test func synonymRulesAreReadOrRefused() throws {
        #expect(try SynonymRule(parsing: " Phone,mobile =>  iPhone ").description == "Phone, mobile => iPhone")
        for bad in ["car", "a => ", "a => b => c", "new york, nyc", ",car"] {
            #expect(throws: SynonymRule.ParseError.self, "\(bad)") { try SynonymRule(parsing: bad) }
        }
    }

    /// A definition without settings is written as before; one with settings keeps them through
    /// the JSON an export embeds.
    @Test func theDefinitionKeepsSettingsOnlyWhenThereAreAny() throws {
        var definition = Self.shop
        let plain = String(decoding: try JSONEncoder().encode(definition), as: UTF8.self)
        #expect(!plain.contains("searchSettings"))
        definition.searchSettings.stopWords = ["the"]
        definition.searchSettings.synonyms = [try SynonymRule(parsing: "phone => iphone")]
        let decoded = try JSONDecoder().decode(CatalogDefinition.self, from: try JSONEncoder().encode(definition))
        #expect(decoded == definition)
    }

    @Test(arguments: engines)
    func synonymsFindEachOtherAndRankAfterExactWords(engine: TemporaryDatabase.Engine) throws {
        let fixture = try fixture(engine)
        #expect(try ids(fixture, "auto") == ["g1", "g7"])
        _ = try change(fixture) { settings in
            settings.synonyms = [try SynonymRule(parsing: "auto, car"), try SynonymRule(parsing: "light => lamp")]
        }
        let found = try fixture.search("auto", in: "shop", limit: 20)
        // The exact title word first, then the exact word in another field, then the synonyms.
        #expect(found.items.map(\.id) == ["g1", "g7", "g2", "g6"])
        let car = try #require(found.items.first { $0.id == "g2" })
        #expect(car.matches.contains { $0.field == "title" && $0.start == 4 && $0.length == 3 })
        #expect(try ids(fixture, "car") == ["g2", "g6", "g1"])
        // One way: "light" finds lamps, "lamp" does not find lights.
        #expect(try ids(fixture, "light") == ["g8", "g7"])
        #expect(try ids(fixture, "lamp") == ["g7"])
    }

    @Test(arguments: engines)
    func stopWordsLeaveQueriesOfSeveralWords(engine: TemporaryDatabase.Engine) throws {
        let fixture = try fixture(engine)
        #expect(try ids(fixture, "the bicycle").isEmpty)
        _ = try change(fixture) { $0.stopWords = ["The", "a"] }
        #expect(try ids(fixture, "the bicycle") == ["g3"])
        #expect(try ids(fixture, "a red car") == ["g2"])
        // A query of stop words only is searched as typed.
        #expect(try ids(fixture, "the") == ["g6"])
    }

    @Test(arguments: engines)
    func searchableFieldsBuildTheIndexAgain(engine: TemporaryDatabase.Engine) throws {
        let fixture = try fixture(engine)
        #expect(try ids(fixture, "garage") == ["g7"])
        #expect(try ids(fixture, "g7") == ["g7"])
        let before = try fixture.catalog("shop")
        let changed = try change(fixture) { $0.searchableFields = ["title", "subtitle"] }
        #expect(changed.settings.searchableFields == ["title", "subtitle"])
        #expect(try ids(fixture, "garage").isEmpty)
        #expect(try ids(fixture, "g7").isEmpty)
        let lamp = try fixture.search("lamp", in: "shop")
        #expect(lamp.items.map(\.id) == ["g7"])
        #expect(lamp.items.first?.snippet == nil)
        let after = try fixture.catalog("shop")
        #expect(after.revision != before.revision)
        #expect(try fixture.items("shop").records.map(\.id).sorted() == Self.goods.map(\.id).sorted())
        // Only the title searched: another field's words are neither found nor shown.
        _ = try change(fixture) { $0.searchableFields = ["title"] }
        #expect(try ids(fixture, "city").isEmpty)
        #expect(try ids(fixture, "red") == ["g2"])
        _ = try change(fixture) { $0.searchableFields = ["*"] }
        #expect(try ids(fixture, "garage") == ["g7"])
        #expect(try ids(fixture, "city") == ["g2"])
    }

    /// Ids and URLs are found as typed, never with a typo; another field exempted likewise, once
    /// the index is built again.
    @Test(arguments: engines)
    func typosNeverReachIdsURLsOrExemptFields(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(
            Self.shop,
            [
                Record(id: "widget-12345", title: "Widget"),
                Record(id: "w2", title: "Gadget", fields: ["link": .text("https://example.com/sprocket")]),
                Record(id: "w3", title: "Gizmo", fields: ["sku": .text("flange")]),
            ])
        #expect(try ids(fixture, "widget-12345") == ["widget-12345"])
        #expect(try ids(fixture, "12345") == ["widget-12345"])
        #expect(try ids(fixture, "12354").isEmpty, "an id with two digits swapped")
        #expect(try ids(fixture, "sprocket") == ["w2"])
        #expect(try ids(fixture, "sprokcet").isEmpty, "a URL's word with a typo")
        #expect(try ids(fixture, "flagne") == ["w3"])
        _ = try change(fixture) { $0.typos.exemptFields = ["id", "sku"] }
        #expect(try ids(fixture, "flange") == ["w3"])
        #expect(try ids(fixture, "flagne").isEmpty)
        _ = try change(fixture) { $0.typos.exemptFields = [] }
        #expect(try ids(fixture, "12354") == ["widget-12345"])
    }

    @Test(arguments: engines)
    func typoRulesChangeWhichWordsHaveTypos(engine: TemporaryDatabase.Engine) throws {
        let fixture = try fixture(engine)
        // "bicyle" (6 letters) has one typo by default; "pats" (4) only a swap.
        #expect(try ids(fixture, "bicyle") == ["g3"])
        #expect(try ids(fixture, "pats").isEmpty)
        _ = try change(fixture) { $0.typos.oneTypoFrom = 7 }
        #expect(try ids(fixture, "bicyle").isEmpty)
        _ = try change(fixture) { $0.typos = TypoSettings(oneTypoFrom: 4, twoTyposFrom: 9, exemptWords: ["bicyle"]) }
        #expect(try ids(fixture, "pats") == ["g1"])
        #expect(try ids(fixture, "bicyle").isEmpty)
    }
}
