import CatalogCollation
import CatalogCore
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

/// A catalog's ranking field (``SearchSettings/rankingField``) on every engine: within a tier,
/// results follow the field (`-population`: largest first), records without it after those with
/// it, ties in search order; the tiers themselves never move; pages by cursor keep one order
/// across segments, changes and merges.
@Suite struct RankingFieldTests {
    static let engines = TemporaryDatabase.Engine.available

    static func city(_ id: String, _ title: String, _ population: Int?) -> Record {
        Record(id: id, title: title, fields: population.map { ["population": .number(String($0))] } ?? [:])
    }

    static let cities: [Record] = [
        city("s1", "Springfield", 167_000),
        city("s2", "Springfield", 169_000),
        city("s3", "Springfield", 155_000),
        city("s4", "Springfield", nil),
        city("s5", "Springfield", 60_000),
        city("s6", "Springfield Gardens", 9_000_000),
        city("s7", "West Springfield", 28_000),
        city("f1", "Frankfurt am Main", 753_056),
        city("f2", "Frankfurt (Oder)", 57_015),
        city("f3", "Frankfort", 28_602),
        city("f4", "Frankfort", 15_000),
    ]

    static func definition(ranking: String?) -> CatalogDefinition {
        var definition = CatalogDefinition(id: "cities", title: "Cities", locale: "en")
        definition.searchSettings.rankingField = ranking
        return definition
    }

    func fixture(_ engine: TemporaryDatabase.Engine, ranking: String?) throws -> StoreFixture {
        let fixture = try StoreFixture(engine)
        try fixture.load(Self.definition(ranking: ranking), Self.cities)
        return fixture
    }

    func search(_ fixture: StoreFixture, _ query: String, after: String? = nil, limit: Int = 50) throws
        -> SearchResult
    {
        try fixture.ranked(query, in: "cities", after: after, limit: limit)
    }

    func pages(_ fixture: StoreFixture, _ query: String, limit: Int) throws -> [String] {
        try fixture.pages(query, in: "cities", limit: limit)
    }

    @Test(arguments: engines)
    func withoutARankingFieldTiesKeepSearchOrder(engine: TemporaryDatabase.Engine) throws {
        let fixture = try fixture(engine, ranking: nil)
        #expect(try search(fixture, "springfield").hits.map(\.stored.id) == ["s1", "s2", "s3", "s4", "s5", "s6", "s7"])
        // The shorter title first.
        #expect(try search(fixture, "frankfurt").hits.map(\.stored.id).prefix(2) == ["f2", "f1"])
    }

    @Test(arguments: engines)
    func theRankingFieldOrdersEachTier(engine: TemporaryDatabase.Engine) throws {
        let fixture = try fixture(engine, ranking: "-population")
        // Five exact titles by population, the one without last; then the prefix, then the word.
        let springfield = ["s2", "s1", "s3", "s5", "s4", "s6", "s7"]
        #expect(try search(fixture, "springfield").hits.map(\.stored.id) == springfield)
        #expect(try pages(fixture, "springfield", limit: 2) == springfield)
        #expect(try pages(fixture, "springfield", limit: 1) == springfield)
        // Frankfurt am Main before the shorter Frankfurt (Oder); the Frankforts (one typo) after both.
        let frankfurt = try search(fixture, "frankfurt").hits
        #expect(frankfurt.map(\.stored.id) == ["f1", "f2", "f3", "f4"])
        #expect(frankfurt.map(\.isExact) == [true, true, false, false])
        #expect(try pages(fixture, "frankfurt", limit: 3) == ["f1", "f2", "f3", "f4"])

        // Smallest first.
        let ascending = try self.fixture(engine, ranking: "population")
        #expect(
            try search(ascending, "springfield").hits.map(\.stored.id) == ["s5", "s3", "s1", "s2", "s4", "s6", "s7"])
    }

    /// Records changed through the editor land in new segments: pages of every segment come in
    /// one order, and cursors made before a change or a merge go on from their place.
    @Test(arguments: engines)
    func pagesFollowOneOrderAcrossSegmentsChangesAndMerges(engine: TemporaryDatabase.Engine) throws {
        let fixture = try fixture(engine, ranking: "-population")
        let collation = try ICUCollation(locale: "en")
        // A cursor of the single segment, then changes: s3 grows past every other, s8 is new.
        let first = try search(fixture, "springfield", limit: 2)
        #expect(first.hits.map(\.stored.id) == ["s2", "s1"])
        _ = try CatalogEditor.apply(
            [
                RecordEdit(.upsert(Self.city("s3", "Springfield", 170_000))),
                RecordEdit(.upsert(Self.city("s8", "Springfield", 100_000))),
            ], to: "cities", in: fixture.database, collation: collation)
        #expect(try fixture.read { try $0.searchSegments(of: $0.requireCatalog("cities")).count } > 1)
        let expected = ["s3", "s2", "s1", "s8", "s5", "s4", "s6", "s7"]
        #expect(try search(fixture, "springfield").hits.map(\.stored.id) == expected)
        for limit in [1, 2, 3] { #expect(try pages(fixture, "springfield", limit: limit) == expected) }
        // The cursor made before the change goes on after s1's place.
        let rest = try search(fixture, "springfield", after: try #require(first.next))
        #expect(rest.hits.map(\.stored.id) == ["s8", "s5", "s4", "s6", "s7"])
        // A cursor made across segments goes on from its place after they are merged into one.
        let beforeMerge = try search(fixture, "springfield", limit: 4)
        #expect(beforeMerge.hits.map(\.stored.id) == Array(expected.prefix(4)))
        _ = try SegmentMerger.mergeAll(catalog: "cities", in: fixture.database)
        let afterMerge = try search(fixture, "springfield", after: try #require(beforeMerge.next))
        #expect(afterMerge.hits.map(\.stored.id) == Array(expected.dropFirst(4)))
        #expect(try pages(fixture, "springfield", limit: 3) == expected)
    }

    /// What the first ranked search would make (the field's order, per segment) is made ahead
    /// once; a catalog without a ranking field needs nothing.
    @Test(arguments: engines)
    func preparingMakesEachSegmentsOrderOnce(engine: TemporaryDatabase.Engine) throws {
        let fixture = try fixture(engine, ranking: "-population")
        func prepare() throws -> Int { try fixture.read { try $0.prepareSearch(of: $0.requireCatalog("cities")) } }
        #expect(try prepare() == 1)
        #expect(try prepare() == 0)
        _ = try CatalogEditor.apply(
            [RecordEdit(.upsert(Self.city("s9", "Springfield", 1)))], to: "cities", in: fixture.database,
            collation: try ICUCollation(locale: "en"))
        // Only the new segment's.
        #expect(try prepare() == 1)
        #expect(try search(fixture, "springfield").hits.first?.stored.id == "s2")
        let plain = try self.fixture(engine, ranking: nil)
        #expect(try plain.read { try $0.prepareSearch(of: $0.requireCatalog("cities")) } == 0)
    }

    @Test func rankingCursorsReadBackAndRefuseDamage() throws {
        for value in [nil, [], [0, 1, 2, 255]] as [[UInt8]?] {
            let cursor = SearchCursor.rankedValueKey(
                tier: 3, value: value, length: 11, sortKey: [9, 8, 7], id: "s-ü")
            #expect(try SearchCursor(parsing: cursor.text) == cursor)
            #expect(cursor.text.hasPrefix("v"))
            // Every shorter text is refused or reads as another cursor, never a crash.
            for end in 1..<cursor.text.count {
                _ = try? SearchCursor(parsing: String(cursor.text.prefix(end)))
            }
        }
        #expect(throws: StorageError.self) { try SearchCursor(parsing: "v") }
        #expect(throws: StorageError.self) { try SearchCursor(parsing: "vAgE") }
    }

    @Test func aRankingFieldNamesOneRecordField() throws {
        for good in ["population", "-population", "Rank 2"] {
            #expect(SearchSettings(rankingField: good).problems().isEmpty, "\(good)")
        }
        #expect(
            SearchSettings(rankingField: "-population").rankingKey
                == SearchSort.Key(.field("population"), descending: true))
        for bad in ["", "-", "title", "-price", "a,b", "--x"] {
            let problems = SearchSettings(rankingField: bad).problems()
            #expect(problems.map(\.pointer) == ["/rankingField"], "\(bad)")
            #expect(SearchSettings(rankingField: bad).rankingKey == nil)
        }
        // Set and taken back by a merge patch; a wrong type is a problem at its pointer.
        let patch = try CatalogDocument.MergePatch(Array(#"{"rankingField":"-population"}"#.utf8))
        let set = try SearchSettingsDocument.merging(patch, into: SearchSettings())
        #expect(set.rankingField == "-population")
        let unset = try SearchSettingsDocument.merging(
            try CatalogDocument.MergePatch(Array(#"{"rankingField":null}"#.utf8)), into: set)
        #expect(unset.rankingField == nil && unset.isDefault)
        let wrong = try #require(throws: CatalogChangeError.self) {
            try SearchSettingsDocument.merging(
                try CatalogDocument.MergePatch(Array(#"{"rankingField":3}"#.utf8)), into: SearchSettings())
        }
        #expect(wrong.problems.map(\.pointer) == ["/rankingField"])
        // A change needs no new index.
        #expect(!SearchSettings(rankingField: "-population").needsRebuild(from: SearchSettings()))
    }
}
