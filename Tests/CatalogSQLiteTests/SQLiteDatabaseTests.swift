import CatalogCollation
import CatalogCore
import CatalogEngines
import CatalogModel
import CatalogSQLite
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

/// What only the SQLite engine does: its file format, foreign files, old layouts.
@Suite struct SQLiteDatabaseTests {
    static func sqlite3(_ path: String, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path, sql]
        try process.run()
        process.waitUntilExit()
    }

    @Test func aForeignSQLiteFileIsNotOpenedAsACatalog() throws {
        let temporary = try TemporaryDatabase()
        let foreign = temporary.directory.appendingPathComponent("other.sqlite").path
        try Self.sqlite3(foreign, "CREATE TABLE t(x); PRAGMA application_id = 42;")
        #expect(throws: StorageError.self) { try CatalogEngines.open(foreign) }
        let notSQLite = temporary.directory.appendingPathComponent("text.sqlite")
        try Data("hello, this is not a database at all, just text".utf8).write(to: notSQLite)
        #expect(throws: StorageError.self) { try CatalogEngines.open(notSQLite.path) }
    }

    @Test func tablesArePlainForSQLiteTools() throws {
        let temporary = try TemporaryDatabase()
        let output = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [temporary.path, ".tables"]
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        let tables = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        for name in [
            "catalogs", "items", "item_order", "item_ids", "item_categories", "sections", "search_blobs",
            "search_postings",
        ] {
            #expect(tables.contains(name))
        }
    }

    /// A file written by the previous layout (schema 2) opens, and its catalogs come back in the
    /// current one with every record.
    @Test func filesOfTheOldLayoutAreConverted() throws {
        let temporary = try TemporaryDatabase()
        let old = temporary.directory.appendingPathComponent("old.sqlite").path
        try Self.sqlite3(
            old,
            """
            PRAGMA application_id = \(0x4354_4C47);
            CREATE TABLE catalogs (number INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, title TEXT NOT NULL,
                locale TEXT NOT NULL, definition TEXT NOT NULL, item_count INTEGER NOT NULL DEFAULT 0,
                section_labels TEXT NOT NULL DEFAULT '[]', collation_version TEXT NOT NULL DEFAULT '',
                updated_at TEXT NOT NULL DEFAULT '');
            CREATE TABLE items (ord INTEGER PRIMARY KEY, catalog_number INTEGER NOT NULL, id TEXT NOT NULL,
                title TEXT NOT NULL, subtitle TEXT, description TEXT, categories TEXT NOT NULL DEFAULT '[]',
                price TEXT, currency TEXT, quantity INTEGER, country TEXT, image TEXT, featured INTEGER,
                fields TEXT NOT NULL DEFAULT '{}', section INTEGER NOT NULL, sort_key BLOB NOT NULL);
            CREATE TABLE sections (catalog_number INTEGER, position INTEGER, label TEXT, item_count INTEGER,
                first_ord INTEGER);
            CREATE TABLE categories (catalog_number INTEGER, number INTEGER, name TEXT);
            CREATE TABLE search_terms (catalog_number INTEGER, index_name TEXT, term TEXT, documents INTEGER);
            CREATE TABLE scope_masks (catalog_number INTEGER PRIMARY KEY, masks BLOB);
            CREATE VIRTUAL TABLE title_words_1 USING fts5 (words, content = '');
            CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE,
                is_admin INTEGER NOT NULL DEFAULT 0, password_hash TEXT, token_selector TEXT UNIQUE, token_hash BLOB,
                created_at TEXT NOT NULL DEFAULT '');
            CREATE TABLE sessions (selector TEXT PRIMARY KEY, user_id INTEGER NOT NULL, hash BLOB NOT NULL,
                expires TEXT NOT NULL) WITHOUT ROWID;
            CREATE TABLE favorites (user_id INTEGER NOT NULL, catalog_id TEXT NOT NULL, item_id TEXT NOT NULL,
                added_at TEXT NOT NULL DEFAULT '', seq INTEGER NOT NULL,
                PRIMARY KEY (user_id, catalog_id, item_id)) WITHOUT ROWID;
            INSERT INTO catalogs (number, id, title, locale, definition) VALUES
                (1, 'shop', 'Shop', 'de', '{"id":"shop","title":"Shop","locale":"de","mapping":{}}');
            INSERT INTO items (ord, catalog_number, id, title, price, fields, section, sort_key) VALUES
                (4294967297, 1, 'a', 'Äpfel', '2.5', '{"farbe":"rot"}', 0, x'00'),
                (4294967298, 1, 'b', 'Birnen', NULL, '{}', 1, x'00');
            INSERT INTO users (id, name) VALUES (1, 'ada');
            PRAGMA user_version = 2;
            """)
        let database = try CatalogEngines.open(old)
        defer { database.close() }
        try database.read { reader in
            let catalog = try reader.requireCatalog("shop")
            let records = try reader.items(of: catalog, limit: 10).records()
            #expect(records.map(\.title) == ["Äpfel", "Birnen"])
            #expect(records.first?.section == "A")
            #expect(records.first?.price == Decimal(string: "2.5"))
            #expect(records.first?.fields["farbe"] == .text("rot"))
            #expect(try reader.search(SearchRequest(query: "apf").checked(), in: catalog).hits.count == 1)
            #expect(try database.users().user(named: "ada") != nil)
        }
    }

    /// A file of schema 3 (index order and ids in indexes of `items`) gets its order and id
    /// tables filled from the records it has, and reads the same.
    @Test func filesOfSchemaThreeGetOrderAndIDTables() throws {
        let temporary = try TemporaryDatabase()
        let path = temporary.directory.appendingPathComponent("three.sqlite").path
        do {
            let database = try CatalogEngines.open(path)
            let definition = CatalogDefinition(
                id: "shop", title: "Shop", locale: "de", categories: [CategoryInfo(id: 1, name: "Obst")])
            let titles = ["Äpfel", "Birnen", "Zitronen", "apfelmus", "Öl", "Bananen", "Mango", "Kiwi"]
            _ = try CatalogImporter.run(
                into: database, definition: definition, replace: true,
                collation: try ICUCollation.forImport(locale: "de"),
                records: { add in
                    for (index, title) in titles.enumerated() {
                        try add(
                            Record(
                                id: "r\(titles.count - index)", title: title, categories: index % 2 == 0 ? ["Obst"] : []
                            ))
                    }
                    return nil
                })
            database.close()
        }
        let before = try Self.pages(path)
        // Back to schema 3's layout (without schema 6's stored images, 5's live tables and columns, and 4's tables).
        try Self.sqlite3(
            path,
            """
            DROP TABLE stored_images;
            DROP TABLE segments; DROP TABLE deleted_documents; DROP TABLE changes; DELETE FROM sqlite_sequence;
            ALTER TABLE catalogs DROP COLUMN change; ALTER TABLE item_categories DROP COLUMN segment;
            DROP TABLE item_order; DROP TABLE item_ids;
            CREATE UNIQUE INDEX items_id ON items (version, id);
            CREATE INDEX items_order ON items (version, section, sort_key, id);
            PRAGMA user_version = 3;
            """)
        let after = try Self.pages(path)
        #expect(after == before)
        #expect(!after.isEmpty)
    }

    @Test func aFileOfVersion5GainsStoredImages() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("old.sqlite").path
        try CatalogEngines.open(path).close()
        try Self.sqlite3(path, "DROP TABLE stored_images; PRAGMA user_version = 5;")
        let database = try CatalogEngines.open(path)
        defer { database.close() }
        let image = StoredImage(
            catalog: "shop", item: "p1", bytes: [1, 2, 3], contentType: "image/png", width: 1, height: 1, hash: "ab",
            storedAt: "2026-12-02T06:00:00.000Z")
        try database.write { try $0.storeImage(image) }
        #expect(try database.read { try $0.storedImage(of: "shop", item: "p1") } == image)
    }

    /// Every record's id and title in index order, and each found by id.
    static func pages(_ path: String) throws -> [String] {
        let database = try CatalogEngines.open(path)
        defer { database.close() }
        return try database.read { reader in
            var lines: [String] = []
            for summary in try reader.catalogs() {
                let catalog = try reader.requireCatalog(summary.id)
                for record in try reader.items(of: catalog, limit: 500).records() {
                    let found = try reader.item(of: catalog, id: record.id)
                    lines.append("\(summary.id) \(record.id) \(record.title) \(found?.id == record.id)")
                }
                for record in try reader.items(of: catalog, category: "Obst", limit: 500).records() {
                    lines.append("Obst \(record.id)")
                }
            }
            return lines
        }
    }
}
