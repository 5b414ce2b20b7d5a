import CatalogCollation
import CatalogCore
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

/// The order of a catalog's searchable fields weighs them (``SearchSettings/weight(of:)``): where
/// other fields decide a record's place (an exact word, or a word's beginning, outside the
/// title), a match in an earlier named field comes first, fields only `*` names last; the title
/// and the tiers keep their order; pages by cursor keep it across segments and merges.
@Suite struct FieldWeightTests {
    static let engines = TemporaryDatabase.Engine.available

    static let records: [Record] = [
        Record(id: "a1", title: "Alpha", description: "the ember glow"),
        Record(id: "a2", title: "Beta", fields: ["tags": .text("red ember ash")]),
        Record(id: "a3", title: "Gamma Delta", fields: ["name": .text("Ember Fox")]),
        Record(id: "a4", title: "Ember"),
        Record(id: "a5", title: "Epsilon", fields: ["name": .text("embers of old")]),
        Record(id: "a6", title: "Zeta", description: "embering coals"),
    ]

    static func definition(searchable: [String]) -> CatalogDefinition {
        var definition = CatalogDefinition(id: "words", title: "Words", locale: "en")
        definition.searchSettings.searchableFields = searchable
        return definition
    }

    static let weighted = ["title", "name", "tags", "*"]

    func fixture(_ engine: TemporaryDatabase.Engine, searchable: [String] = Self.weighted) throws -> StoreFixture {
        let fixture = try StoreFixture(engine)
        try fixture.load(Self.definition(searchable: searchable), Self.records)
        return fixture
    }

    func search(_ fixture: StoreFixture, _ query: String, after: String? = nil, limit: Int = 50) throws
        -> SearchResult
    {
        try fixture.ranked(query, in: "words", after: after, limit: limit)
    }

    func pages(_ fixture: StoreFixture, _ query: String, limit: Int) throws -> [String] {
        try fixture.pages(query, in: "words", limit: limit)
    }

    @Test func weightsFollowTheNamedFieldsOrder() {
        let settings = SearchSettings(searchableFields: ["title", "name", "tags", "*"])
        #expect(settings.weight(of: "name") == 1)
        #expect(settings.weight(of: "name@de") == 1)
        #expect(settings.weight(of: "tags") == 2)
        #expect(settings.weight(of: "title") == nil)
        #expect(settings.weight(of: "description") == nil)
        #expect(settings.fieldWeights == 2)
        // The title weighs nothing wherever it is named; the fifth field on shares the fourth's weight.
        let many = SearchSettings(searchableFields: ["a", "title", "b", "c", "d", "e", "a"])
        #expect(["a", "b", "c", "d", "e"].map { many.weight(of: $0) } == [1, 2, 3, 4, 4])
        #expect(many.fieldWeights == 4)
        #expect(SearchSettings().fieldWeights == 0)
        #expect(SearchSettings(searchableFields: ["title", "*"]).fieldWeights == 0)
        // The order is part of what the index is built from.
        #expect(
            SearchSettings(searchableFields: ["title", "tags", "name"])
                .needsRebuild(from: SearchSettings(searchableFields: ["title", "name", "tags"])))
    }

    @Test(arguments: engines)
    func withoutWeightsOtherFieldsRankByTitleLength(engine: TemporaryDatabase.Engine) throws {
        let fixture = try fixture(engine, searchable: ["*"])
        #expect(try search(fixture, "ember").hits.map(\.stored.id) == ["a4", "a2", "a1", "a3", "a6", "a5"])
    }

    @Test(arguments: engines)
    func anEarlierFieldRanksFirst(engine: TemporaryDatabase.Engine) throws {
        let fixture = try fixture(engine)
        // The exact title, then whole words by weight (name, tags, the rest), then beginnings by weight.
        let ember = ["a4", "a3", "a2", "a1", "a5", "a6"]
        #expect(try search(fixture, "ember").hits.map(\.stored.id) == ember)
        #expect(try search(fixture, "ember").hits.map(\.isExact).allSatisfy { $0 })
        for limit in [1, 2, 4] { #expect(try pages(fixture, "ember", limit: limit) == ember) }
        // A short beginning (its own terms): the title's start, then name, tags, the rest.
        let emb = ["a4", "a5", "a3", "a2", "a6", "a1"]
        #expect(try search(fixture, "emb").hits.map(\.stored.id) == emb)
        for limit in [1, 3] { #expect(try pages(fixture, "emb", limit: limit) == emb) }
        // Two words: each must match the title or a field of the weight.
        #expect(try search(fixture, "ember fox").hits.map(\.stored.id) == ["a3"])
        #expect(try search(fixture, "red ash").hits.map(\.stored.id) == ["a2"])
    }

    @Test(arguments: engines)
    func pagesKeepTheOrderAcrossSegmentsAndMerges(engine: TemporaryDatabase.Engine) throws {
        let fixture = try fixture(engine)
        let first = try search(fixture, "ember", limit: 2)
        #expect(first.hits.map(\.stored.id) == ["a4", "a3"])
        // A new record weighs as a tag; a changed one moves from the description to the name.
        _ = try CatalogEditor.apply(
            [
                RecordEdit(.upsert(Record(id: "a7", title: "Eta", fields: ["tags": .text("ember dust")]))),
                RecordEdit(.upsert(Record(id: "a1", title: "Alpha", fields: ["name": .text("one ember")]))),
            ], to: "words", in: fixture.database, collation: try ICUCollation(locale: "en"))
        #expect(try fixture.read { try $0.searchSegments(of: $0.requireCatalog("words")).count } > 1)
        let expected = ["a4", "a1", "a3", "a7", "a2", "a5", "a6"]
        #expect(try search(fixture, "ember").hits.map(\.stored.id) == expected)
        for limit in [1, 2, 3] { #expect(try pages(fixture, "ember", limit: limit) == expected) }
        // The cursor made before the change goes on after a3's place.
        let rest = try search(fixture, "ember", after: try #require(first.next))
        #expect(rest.hits.map(\.stored.id) == ["a7", "a2", "a5", "a6"])
        let beforeMerge = try search(fixture, "ember", limit: 4)
        _ = try SegmentMerger.mergeAll(catalog: "words", in: fixture.database)
        let afterMerge = try search(fixture, "ember", after: try #require(beforeMerge.next))
        #expect(afterMerge.hits.map(\.stored.id) == Array(expected.dropFirst(4)))
        #expect(try pages(fixture, "ember", limit: 2) == expected)
    }
}
