import CatalogCollation
import CatalogCore
import CatalogEngines
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

/// A server's writes load the search indexes they make (``SearchIndexCache/loadsWrittenIndexes``),
/// so the first search after an import or a change does not load them while readers wait; a
/// write that rolls back leaves nothing of it in the cache, though its segment numbers are
/// handed out again.
@Suite struct WrittenIndexesTests {
    static let shelf = CatalogDefinition(id: "shelf", title: "Shelf", locale: "en")
    static let books = [
        Record(id: "b1", title: "Moby Dick"), Record(id: "b2", title: "Middlemarch"),
        Record(id: "b3", title: "Dubliners"),
    ]

    /// A second handle on a new database, with the server's setting (or another) and its index
    /// cache; closed when it goes.
    final class Opened {
        let temporary: TemporaryDatabase
        let database: any CatalogDatabase
        let cache: SearchIndexCache

        init(_ engine: TemporaryDatabase.Engine, loadsWrittenIndexes: Bool?) throws {
            temporary = try TemporaryDatabase(engine: engine)
            var options = CatalogEngines.Options()
            options.indexFiles = .directory(temporary.directory.path)
            options.loadsWrittenIndexes = loadsWrittenIndexes
            database = try CatalogEngines.open(temporary.location, options: options)
            cache = try database.read { $0.indexCache }
        }

        deinit { database.close() }
    }

    func importBooks(into database: any CatalogDatabase) throws {
        _ = try CatalogImporter.run(
            into: database, definition: Self.shelf, replace: true, collation: try ICUCollation.forImport(locale: "en"),
            records: { add in
                for record in Self.books { try add(record) }
                return nil
            })
    }

    func segmentKeys(_ database: any CatalogDatabase) throws -> [String] {
        try database.read { reader in try reader.searchSegments(of: reader.requireCatalog("shelf")).map(\.key) }
    }

    func titles(_ query: String, _ database: any CatalogDatabase) throws -> [String] {
        try database.read { reader in
            try reader.search(SearchRequest(query: query).checked(), in: reader.requireCatalog("shelf")).hits.map {
                $0.stored.title
            }
        }
    }

    func upsert(_ record: Record, _ writer: any CatalogWriter) throws {
        _ = try CatalogEditor.apply(
            [RecordEdit(.upsert(record))], to: "shelf", writer: writer,
            collation: try ICUCollation.forImport(locale: "en"))
    }

    struct Abandoned: Error {}

    @Test(arguments: CatalogBehaviourTests.engines)
    func anImportAndAChangeLoadTheIndexesTheyMakeBeforeTheirFirstSearch(engine: TemporaryDatabase.Engine) throws {
        let opened = try Opened(engine, loadsWrittenIndexes: true)
        defer { withExtendedLifetime(opened) {} }
        let (database, cache) = (opened.database, opened.cache)
        #expect(cache.loadsWrittenIndexes)
        try importBooks(into: database)
        let imported = try segmentKeys(database)
        #expect(!imported.isEmpty && imported.allSatisfy(cache.holds))
        try database.write { try upsert(Record(id: "b4", title: "Emma"), $0) }
        let changed = try segmentKeys(database)
        #expect(changed.count == imported.count + 1 && changed.allSatisfy(cache.holds))
        // What the writer loaded is what searches use: nothing was loaded by them.
        let loaded = cache.indexCount
        #expect(try titles("emma", database) == ["Emma"])
        #expect(try titles("moby", database) == ["Moby Dick"])
        #expect(cache.indexCount == loaded)
    }

    @Test(arguments: CatalogBehaviourTests.engines)
    func aWriteThatRollsBackLeavesNothingItLoaded(engine: TemporaryDatabase.Engine) throws {
        let opened = try Opened(engine, loadsWrittenIndexes: true)
        defer { withExtendedLifetime(opened) {} }
        let (database, cache) = (opened.database, opened.cache)
        try importBooks(into: database)
        let before = try segmentKeys(database)
        var abandoned: [String] = []
        #expect(throws: Abandoned.self) {
            try database.write { writer in
                try upsert(Record(id: "b5", title: "Rolled Back"), writer)
                abandoned = try writer.reader.searchSegments(of: writer.reader.requireCatalog("shelf")).map(\.key)
                    .filter { !before.contains($0) }
                #expect(abandoned.count == 1 && abandoned.allSatisfy(cache.holds))
                throw Abandoned()
            }
        }
        #expect(!abandoned.isEmpty && !abandoned.contains(where: cache.holds))
        #expect(before.allSatisfy(cache.holds))
        // The next change may get the number the abandoned one had: it finds its own index.
        try database.write { try upsert(Record(id: "b6", title: "Kept Forward"), $0) }
        #expect(try titles("kept", database) == ["Kept Forward"])
        #expect(try titles("rolled", database).isEmpty)
    }

    @Test(arguments: CatalogBehaviourTests.engines)
    func theCommandLinesWritesLeaveLoadingToTheFirstSearch(engine: TemporaryDatabase.Engine) throws {
        let opened = try Opened(engine, loadsWrittenIndexes: nil)
        defer { withExtendedLifetime(opened) {} }
        let (database, cache) = (opened.database, opened.cache)
        #expect(!cache.loadsWrittenIndexes)
        try importBooks(into: database)
        #expect(try !segmentKeys(database).contains(where: cache.holds))
        #expect(try titles("dubliners", database) == ["Dubliners"])
        #expect(try segmentKeys(database).allSatisfy(cache.holds))
    }
}
