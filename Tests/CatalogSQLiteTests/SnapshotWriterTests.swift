import CatalogCollation
import CatalogCore
import CatalogDemo
import CatalogEngines
import CatalogModel
import CatalogSQLite
import CatalogStorage
import CatalogTestSupport
import Foundation
import SQLiteSupport
import Testing

/// Offline snapshots: the SQL fast path and the engine-neutral path (what PostgreSQL gets) write
/// the same rows, and the file reads and searches exactly like the database it came from.
@Suite struct SnapshotWriterTests {
    let temporary: TemporaryDatabase

    init() throws {
        temporary = try TemporaryDatabase()
        let generator = CatalogGenerator(items: 2_500, locale: "hu", seed: 3)
        var definition = generator.definition
        definition.id = "big"
        definition.source = FeedSource(
            url: "https://shop:s3cret-feed@feeds.example/big.xml?token=t0ken", etag: "\"etag-of-the-feed\"")
        _ = try CatalogImporter.run(
            into: temporary.database, definition: definition, replace: true, collation: try ICUCollation(locale: "hu"),
            records: { add in
                try generator.forEachRecord { try add($0) }
                return nil
            })
        _ = try CatalogImporter.run(
            into: temporary.database, definition: CatalogDefinition(id: "other", title: "Other", locale: "en"),
            replace: true, collation: try ICUCollation(locale: "en"),
            records: { add in
                try add(Record(id: "o1", title: "Only here"))
                return nil
            })
    }

    func write(_ method: SQLiteSnapshotWriter.Method, name: String) throws -> (String, StoredCatalog) {
        let path = temporary.directory.appendingPathComponent(name).path
        let copied = try temporary.database.read { reader in
            try SQLiteSnapshotWriter.write(catalog: "big", from: reader, to: path, method: method) { _ in
                ["etag": "\"e\""]
            }
        }
        return (path, copied)
    }

    /// Every row of the catalog tables, as text, in a stable order.
    static func rows(_ path: String) throws -> [String] {
        let connection = try Connection(path: path, mode: .readOnly)
        defer { connection.close() }
        var rows: [String] = []
        let queries = [
            "SELECT id, title, locale, definition, item_count, section_labels, categories, collation_version, version FROM catalogs",
            "SELECT key, version, id, section, hex(sort_key), title, subtitle, categories, featured, price, hash, record FROM items ORDER BY key",
            "SELECT version, category, section, hex(sort_key), id, document FROM item_categories ORDER BY 1, 2, 3, 4, 5",
            "SELECT version, section, hex(sort_key), id, document FROM item_order ORDER BY version, section, sort_key, id",
            "SELECT version, id, document, hash FROM item_ids ORDER BY version, id",
            "SELECT version, position, label, item_count FROM sections ORDER BY 1, 2",
            "SELECT version, name, hex(data) FROM search_blobs ORDER BY 1, 2",
            "SELECT key, hex(data) FROM search_postings ORDER BY key",
            "SELECT name, value FROM snapshot ORDER BY name",
        ]
        for sql in queries {
            let statement = try connection.prepare(sql)
            try statement.forEachRow { row in
                rows.append((0..<row.columnCount).map { row.optionalText($0) ?? "NULL" }.joined(separator: "|"))
            }
        }
        return rows
    }

    @Test func bothPathsWriteTheSameRows() throws {
        let (fast, fromFast) = try write(.automatic, name: "fast.sqlite")
        let (generic, fromGeneric) = try write(.generic, name: "generic.sqlite")
        let fastRows = try Self.rows(fast)
        #expect(fastRows.count > 2_500)
        let genericRows = try Self.rows(generic)
        #expect(fastRows.count == genericRows.count)
        if let first = zip(fastRows, genericRows).first(where: { $0 != $1 }) {
            Issue.record("fast \(first.0.prefix(300))\ngeneric \(first.1.prefix(300))")
        }
        #expect(fromFast.versionKey == fromGeneric.versionKey)
        #expect(fromFast.versionKey == (try temporary.database.read { try $0.requireCatalog("big").versionKey }))
    }

    /// A snapshot is for anyone who may read the catalog: the feed's URL, its password, token and
    /// validators stay on the server, on either path.
    @Test(arguments: [SQLiteSnapshotWriter.Method.automatic, .generic])
    func aSnapshotCarriesNoFeedCredentials(method: SQLiteSnapshotWriter.Method) throws {
        #expect(try temporary.database.read { try $0.requireCatalog("big").definition.source } != nil)
        let (path, _) = try write(method, name: "published-\(method).sqlite")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for secret in ["s3cret-feed", "t0ken", "etag-of-the-feed", "feeds.example"] {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) is in the snapshot")
        }
        let file = try SQLiteCatalogFile(path: path)
        defer { file.close() }
        let definition = try file.reader.requireCatalog("big").definition
        #expect(definition.source == nil && definition.lastImport == nil)
    }

    @Test func theFileReadsAndSearchesLikeTheDatabase() throws {
        let (path, _) = try write(.generic, name: "snapshot.sqlite")
        let file = try SQLiteCatalogFile(path: path)
        defer { file.close() }
        #expect(file.metadata == ["etag": "\"e\""])
        let offline = file.reader
        try temporary.database.read { server in
            let here = try offline.requireCatalog("big")
            let there = try server.requireCatalog("big")
            #expect(try offline.catalogs().map(\.id) == ["big"])
            #expect(try offline.sections(of: here) == server.sections(of: there))
            for query in ["", "a", "ker", "kék asz", "lampa", "xq"] {
                var request = SearchRequest(query: query, limit: 20)
                request.facets = [.categories, .country]
                let a = try offline.search(request.checked(), in: here).response()
                let b = try server.search(request.checked(), in: there).response()
                #expect(a == b, "\(query)")
            }
            var cursor: String?
            repeat {
                let a = try offline.items(of: here, after: cursor, limit: 300)
                let b = try server.items(of: there, after: cursor, limit: 300)
                #expect(try a.records() == b.records() && a.next == b.next && a.previous == b.previous)
                cursor = a.next
            } while cursor != nil
        }
    }

    @Test func aMissingCatalogLeavesNoFile() throws {
        let path = temporary.directory.appendingPathComponent("none.sqlite").path
        #expect(throws: StorageError.self) {
            try temporary.database.read { reader in
                try SQLiteSnapshotWriter.write(catalog: "nope", from: reader, to: path) { _ in [:] }
            }
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(throws: StorageError.self) { try SQLiteCatalogFile(path: path) }
        #expect(throws: StorageError.self) { try SQLiteCatalogFile(path: temporary.path + "-users.sqlite") }
    }
}
