import CatalogCollation
import CatalogCore
import CatalogDemo
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

/// The same generated catalog in SQLite and in PostgreSQL answers 1,000 as-you-type queries
/// (scoped and not) with the same records in the same order, the same counts and cursors.
///
/// `CATALOG_EQUIVALENCE_RECORDS` sets the catalog's size (default 70,000: two posting chunks);
/// `make bench` runs the comparison on 100,000.
@Suite(.enabled(if: PostgresTestServer.url != nil, "needs CATALOG_TEST_POSTGRES"))
struct EngineEquivalenceTests {
    @Test func asYouTypeSearchesAnswerTheSameOnBothEngines() throws {
        let count = ProcessInfo.processInfo.environment["CATALOG_EQUIVALENCE_RECORDS"].flatMap { Int($0) } ?? 70_000
        let generator = CatalogGenerator(items: count, locale: "en", seed: 1)
        var definition = generator.definition
        definition.id = "generated"
        let engines = try [TemporaryDatabase(engine: .sqlite), TemporaryDatabase(engine: .postgres)]
        for engine in engines {
            _ = try CatalogImporter.run(
                into: engine.database, definition: definition, replace: true,
                collation: try ICUCollation.forImport(locale: "en"),
                records: { add in
                    try generator.forEachRecord { try add($0) }
                    return nil
                })
        }
        // Both engines read in one snapshot each for the whole comparison.
        try engines[0].database.read { sqliteReader in
            try engines[1].database.read { postgresReader in
                let readers = [sqliteReader, postgresReader]
                let catalogs = try readers.map { try $0.requireCatalog("generated") }
                let scopes = readers[0].scopes(of: catalogs[0]).map(\.label)
                #expect(scopes == readers[1].scopes(of: catalogs[1]).map(\.label))
                let queries = AsYouTypeQueries.make(
                    words: generator.titleWords, scopes: Array(scopes.dropFirst()), count: 1_000)
                #expect(queries.filter { $0.scope != nil }.count > 100)
                // Ids too: the record whose id is the query ranks first on both (Evaluation reads ids).
                var ids: [String] = []
                generator.forEachRecord { if $0.id.hasSuffix("7") && ids.count < 5 { ids.append($0.id) } }
                for id in ids {
                    let request = try SearchRequest(query: id.uppercased(), limit: 5).checked()
                    for (reader, catalog) in zip(readers, catalogs) {
                        let first = try reader.search(request, in: catalog).hits.first
                        #expect(first?.stored.id == id && first?.tier == .exactTitle, "\(id)")
                    }
                }
                var differences: [String] = []
                for query in queries + ids.map({ AsYouTypeQuery(text: $0, scope: nil) }) {
                    let request = SearchRequest(query: query.text, scope: query.scope, limit: 50)
                    let answers = try zip(readers, catalogs).map { reader, catalog in
                        try reader.search(request.checked(), in: catalog)
                    }
                    let (sqlite, postgres) = (answers[0], answers[1])
                    if sqlite.hits.map(\.stored) != postgres.hits.map(\.stored) || sqlite.total != postgres.total
                        || sqlite.totalCapped != postgres.totalCapped || sqlite.scopes != postgres.scopes
                        || sqlite.next != postgres.next || sqlite.hits.map(\.matches) != postgres.hits.map(\.matches)
                    {
                        differences.append("\(query.text) [\(query.scope ?? "all")]")
                    }
                }
                #expect(differences.isEmpty, "\(differences.count) queries differ: \(differences.prefix(10))")
                // The next pages too, for the queries that have one.
                for query in queries.prefix(200) {
                    let first = try readers[0].search(
                        SearchRequest(query: query.text, scope: query.scope, limit: 20).checked(), in: catalogs[0])
                    guard let next = first.next else { continue }
                    let request = SearchRequest(query: query.text, scope: query.scope, after: next, limit: 20)
                    let pages = try zip(readers, catalogs).map {
                        try $0.search(request.checked(), in: $1).hits.map(\.stored.id)
                    }
                    #expect(pages[0] == pages[1], "page after \(next) of \(query.text)")
                }
            }
        }
    }
}
