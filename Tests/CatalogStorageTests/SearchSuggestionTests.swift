import CatalogCollation
import CatalogCore
import CatalogEngines
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

/// "Did you mean": a search that finds nothing offers a query that finds something, with the
/// same scope and filters, on every engine (the rule is one, in `CatalogSearcher+Suggestion`).
@Suite struct SearchSuggestionTests {
    static let engines = TemporaryDatabase.Engine.available

    static let shop = CatalogDefinition(id: "shop", title: "Shop", locale: "en")
    static let goods: [Record] = [
        Record(id: "g1", title: "Blue kettle", categories: ["Kitchen"]),
        Record(id: "g2", title: "Red kettle", categories: ["Kitchen"]),
        Record(id: "g3", title: "Teapot", description: "Porcelain, for green tea", categories: ["Kitchen"]),
        Record(id: "g4", title: "Garden hose", categories: ["Garden"]),
        Record(id: "g5", title: "Hosepipe reel", categories: ["Garden"]),
    ]

    func fixture(_ engine: TemporaryDatabase.Engine) throws -> StoreFixture {
        let fixture = try StoreFixture(engine)
        try fixture.load(Self.shop, Self.goods)
        return fixture
    }

    func search(_ fixture: StoreFixture, _ request: SearchRequest) throws -> SearchResponse {
        try fixture.read { reader in
            try reader.search(request.checked(), in: reader.requireCatalog("shop")).response()
        }
    }

    @Test(arguments: engines)
    func aQueryThatFindsNothingOffersOneThatFindsSomething(engine: TemporaryDatabase.Engine) throws {
        let fixture = try fixture(engine)
        // Two edits from "kettle": beyond search's one typo for six letters, within the suggestion's two.
        let miss = try search(fixture, SearchRequest(query: "kattel"))
        #expect(miss.total == 0)
        #expect(miss.suggestion == "kettle")
        // A word that finds something on its own stays; only the one that finds nothing changes.
        #expect(try search(fixture, SearchRequest(query: "blue kattel")).suggestion == "blue kettle")
        // A field word counts too (the teapot's description); a word within search's own typos
        // finds it without one.
        #expect(try search(fixture, SearchRequest(query: "grean")).total > 0)
        #expect(try search(fixture, SearchRequest(query: "gruun")).suggestion == "green")
        // The suggestion keeps the scope and filters: no kettle is in the garden.
        #expect(try search(fixture, SearchRequest(query: "kattel", categories: ["Garden"])).suggestion == nil)
        // What finds something, a later page, words of two letters, and nothing near: no suggestion.
        #expect(try search(fixture, SearchRequest(query: "kettle")).suggestion == nil)
        #expect(try search(fixture, SearchRequest(query: "zq")).suggestion == nil)
        #expect(try search(fixture, SearchRequest(query: "xylophone")).suggestion == nil)
        #expect(try search(fixture, SearchRequest(query: "a b c d kattel")).suggestion == nil)
    }

    /// The nearest word is the one most live records carry: records deleted since the catalog's
    /// segments were last merged do not count, so the server and an offline copy whose changes
    /// were merged at other moments suggest the same.
    @Test(arguments: engines)
    func deletedRecordsDoNotCountTowardsTheSuggestion(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        let kettles = ["Blue", "Steel", "Copper"].enumerated().map { number, kind in
            Record(id: "k\(number)", title: "\(kind) kettle")
        }
        let kittles = [Record(id: "c1", title: "Kittle cat"), Record(id: "c2", title: "Kittle dog")]
        try fixture.load(Self.shop, kettles + kittles)
        // "kattel" is two edits from both: "kettle" has three records, "kittle" two.
        #expect(try search(fixture, SearchRequest(query: "kattel")).suggestion == "kettle")
        _ = try CatalogEditor.apply(
            [RecordEdit(.delete(id: "k0")), RecordEdit(.delete(id: "k1"))], to: "shop", in: fixture.database,
            collation: try ICUCollation.forImport(locale: "en"))
        let after = try search(fixture, SearchRequest(query: "kattel"))
        #expect(after.total == 0 && after.suggestion == "kittle")
    }

    @Test func theSuggestionIsInTheJSONOnlyWhenThereIsOne() throws {
        let empty = SearchResponse(items: [], total: 0, totalCapped: false, scope: nil, scopes: [])
        #expect(!String(decoding: empty.jsonBytes, as: UTF8.self).contains("suggestion"))
        var offered = empty
        offered.suggestion = "kettle"
        let json = String(decoding: offered.jsonBytes, as: UTF8.self)
        #expect(json.contains(#""suggestion":"kettle""#), "\(json)")
        #expect(try JSONDecoder().decode(SearchResponse.self, from: Data(json.utf8)).suggestion == "kettle")
    }
}
