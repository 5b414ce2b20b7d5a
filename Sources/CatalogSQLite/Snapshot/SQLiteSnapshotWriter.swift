import CatalogCore
import CatalogModel
import CatalogStorage
import Foundation
import SQLiteSupport

/// Writes one catalog into a new SQLite file: an offline snapshot that ``SQLiteCatalogFile``
/// opens read-only, with no collator (sort keys, sections and the search index are copied as the
/// source stored them, so the file browses and searches exactly as the source does).
///
/// The file has the engine's own layout (its current schema, one catalog, its data as version 1),
/// no accounts, a `snapshot` table of name/value pairs the caller chooses (the server stores the
/// ETag), and a rollback journal rather than WAL, so a read-only open needs no `-wal` or `-shm`
/// files beside it.
///
/// The source is any engine's ``CatalogReader``: the records come from
/// ``CatalogReader/forEachItem(of:_:)`` and the index from its ``SearchIndexReading``. When the
/// source is an SQLite file the rows are copied by SQL instead (`ATTACH` and `INSERT … SELECT` of
/// the catalog's version), which gives the same file several times faster.
///
/// ```swift
/// let copied = try SQLiteSnapshotWriter.write(catalog: "cookbook", from: reader, to: "/tmp/cookbook.sqlite") { _ in [:] }
/// ```
public enum SQLiteSnapshotWriter {
    /// How the rows are copied.
    public enum Method: Sendable, Equatable {
        /// By SQL when the source is an SQLite file, else through the reader.
        case automatic
        /// Always through the reader (what other engines get; tests compare the two).
        case generic
    }

    /// The table of name/value pairs about the snapshot.
    public static let metadataTable = "snapshot"

    /// Writes catalog `id` to a new file at `path` (an existing file there is replaced).
    ///
    /// - Parameters:
    ///   - id: the catalog.
    ///   - reader: where it is read from (for the generic method, in one snapshot of the source).
    ///   - path: the new file; on failure nothing is left there.
    ///   - method: how rows are copied.
    ///   - change: the change number the snapshot is as of, nil for the source's (a snapshot
    ///     built from a copy of the records, such as one record filter's, gives the original's,
    ///     where its reader follows the change feed on).
    ///   - isCancelled: asked while copying; true stops with `.cancelled`.
    ///   - metadata: the `snapshot` table's pairs, given the catalog as it was copied.
    /// - Returns: the catalog as the source described it when its rows were copied (its
    ///   ``StoredCatalog/versionKey`` is the source's).
    /// - Throws: ``StorageError`` `.catalogNotFound`, `.cancelled`, or the engine's failure.
    public static func write(
        catalog id: String, from reader: any CatalogReader, to path: String, method: Method = .automatic,
        change: Int? = nil, isCancelled: @escaping @Sendable () -> Bool = { false },
        metadata: (StoredCatalog) -> [String: String]
    ) throws -> StoredCatalog {
        try? FileManager.default.removeItem(atPath: path)
        let connection = try Connection(path: path, mode: .readWriteCreate)
        do {
            // A new file nobody else sees yet: no journal, no syncs until it is complete.
            try connection.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -16384")
            try connection.execute("PRAGMA application_id = \(SQLiteDatabase.applicationID)")
            try Schema.migrate(connection)
            try connection.execute(
                "CREATE TABLE \(metadataTable) (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID")
            connection.setProgressHandler(every: 20_000, isCancelled)
            let source: StoredCatalog
            if method == .automatic, let sqlite = reader as? SQLiteCatalogReader, try isSingleSegment(id, sqlite) {
                source = try copyBySQL(id, from: sqlite.path, into: connection, path: path)
            } else {
                source = try copy(id, from: reader, into: connection, path: path, isCancelled: isCancelled)
            }
            connection.setProgressHandler(every: 0, nil)
            try connection.transaction {
                // The snapshot is the catalog as of the source's change number; it keeps no log.
                try connection.cached("UPDATE catalogs SET change = ? WHERE id = ?").bind(change ?? source.change, id)
                    .run()
                try connection.execute("DELETE FROM changes")
                let insert = try connection.cached("INSERT INTO \(metadataTable) (name, value) VALUES (?, ?)")
                for (name, value) in metadata(source).sorted(by: { $0.key < $1.key }) {
                    insert.reset()
                    try insert.bind(name, value).run()
                }
            }
            try connection.execute("PRAGMA journal_mode = DELETE")
            connection.close()
            return source
        } catch {
            connection.close()
            try? FileManager.default.removeItem(atPath: path)
            if let error = error as? StorageError, error.engineCode == "SQLITE 9" {
                throw StorageError(.cancelled, "the snapshot was cancelled")
            }
            throw error
        }
    }

    /// The SQLite fast path: the source file attached, the catalog's current version copied row
    /// by row in SQL, renumbered as version 1, all in one read of the source.
    private static func copyBySQL(_ id: String, from sourcePath: String, into connection: Connection, path: String)
        throws -> StoredCatalog
    {
        try connection.prepare("ATTACH DATABASE ? AS source").bind(sourcePath).run()
        defer { try? connection.execute("DETACH DATABASE source") }
        let (version, _, cookie): (Int64, Int, Int) = try connection.transaction(immediate: false) {
            let found = try connection.prepare("SELECT version, definition, change FROM source.catalogs WHERE id = ?")
                .bind(id)
            guard try found.step() else {
                throw StorageError(.catalogNotFound, "no catalog named \"\(id.prefix(80))\"")
            }
            let version = found.int64(0)
            // The snapshot is for anyone who may read the catalog: the feed's URL, its
            // credentials and validators stay on the server.
            guard let stored = try? JSONDecoder().decode(CatalogDefinition.self, from: Data(found.text(1).utf8)) else {
                throw StorageError(.engine, "the stored description of catalog \"\(id.prefix(80))\" is damaged")
            }
            let published = try StoredColumns.definition(stored.published)
            let change = found.int(2)
            found.finish()
            let itemLow = version << 32
            let itemHigh = (version + 1) << 32
            let postingLow = version << 40
            let postingHigh = (version + 1) << 40
            let statements: [(String, [any SQLValue])] = [
                (
                    """
                    INSERT INTO main.items (key, version, id, section, sort_key, title, subtitle, categories, featured,
                            price, hash, record)
                        SELECT (1 << 32) | (key - ?), 1, id, section, sort_key, title, subtitle, categories, featured,
                            price, hash, record
                        FROM source.items WHERE key >= ? AND key < ? ORDER BY key
                    """, [itemLow, itemLow, itemHigh]
                ),
                (
                    """
                    INSERT INTO main.item_categories (version, category, section, sort_key, id, document)
                        SELECT 1, category, section, sort_key, id, document FROM source.item_categories
                        WHERE version = ? ORDER BY version, category, section, sort_key, id
                    """, [version]
                ),
                (
                    """
                    INSERT INTO main.item_order (version, section, sort_key, id, document)
                        SELECT 1, section, sort_key, id, document FROM source.item_order
                        WHERE version = ? ORDER BY version, section, sort_key, id
                    """, [version]
                ),
                (
                    """
                    INSERT INTO main.item_ids (version, id, document, hash)
                        SELECT 1, id, document, hash FROM source.item_ids WHERE version = ? ORDER BY version, id
                    """, [version]
                ),
                (
                    """
                    INSERT INTO main.sections (version, position, label, item_count)
                        SELECT 1, position, label, item_count FROM source.sections WHERE version = ?
                    """, [version]
                ),
                (
                    """
                    INSERT INTO main.search_postings (key, data)
                        SELECT (1 << 40) | (key - ?), data FROM source.search_postings WHERE key >= ? AND key < ?
                        ORDER BY key
                    """, [postingLow, postingLow, postingHigh]
                ),
                (
                    """
                    INSERT INTO main.catalogs (id, title, locale, definition, item_count, section_labels, categories,
                            collation_version, version, change, updated_at)
                        SELECT id, title, locale, ?, item_count, section_labels, categories,
                            collation_version, 1, change, updated_at FROM source.catalogs WHERE id = ?
                    """, [published, id]
                ),
                (
                    """
                    INSERT INTO main.segments (segment, version, documents)
                        SELECT 1, 1, item_count FROM source.catalogs WHERE id = ?
                    """, [id]
                ),
            ]
            for (sql, values) in statements {
                try connection.prepare(sql).bind(values).run()
            }
            try copyBlobs(version: version, in: connection)
            let cookie = try connection.prepare("PRAGMA source.schema_version").scalarInt() ?? 0
            return (version, change, cookie)
        }
        guard
            var catalog = try SQLiteCatalogReader(connection: connection, path: path, indexCache: SearchIndexCache())
                .catalog(id)
        else {
            throw StorageError(.engine, "the snapshot of \"\(id)\" lost its catalog")
        }
        // The source's key: its version and change number (copied with the catalog's row).
        catalog.versionKey = SQLiteCatalogReader.versionKey(
            path: SQLiteCatalogReader.fileIdentity(sourcePath, schemaCookie: cookie), version: version,
            change: catalog.change)
        return catalog
    }

    /// The index's blobs of the source's `version`, each streamed a megabyte at a time into a
    /// row made to its size: copied by `INSERT … SELECT`, SQLite would hold a blob whole in
    /// memory twice over (read, then made into the new row), 600 MB for the lexicon of
    /// 10,000,000 records.
    private static func copyBlobs(version: Int64, in connection: Connection) throws {
        let found = try connection.prepare(
            "SELECT rowid, name, length(data) FROM source.search_blobs WHERE version = ? ORDER BY name"
        ).bind(version)
        var blobs: [(rowid: Int64, name: String, count: Int)] = []
        while try found.step() { blobs.append((found.int64(0), found.text(1), Int(found.int64(2)))) }
        found.finish()
        let insert = try connection.prepare(
            "INSERT INTO main.search_blobs (version, name, data) VALUES (1, ?, zeroblob(?))")
        for blob in blobs {
            insert.reset()
            let target = try Blob.inserted(
                by: insert.bind(blob.name, blob.count), into: "search_blobs", column: "data", on: connection)
            guard
                let source = Blob(
                    connection: connection, database: "source", table: "search_blobs", column: "data",
                    rowid: blob.rowid)
            else {
                throw StorageError(.engine, "cannot copy the search index's \(blob.name): \(connection.lastMessage)")
            }
            try source.copy(into: target)
        }
    }

    /// Whether the catalog's index is one segment without deletions (what the SQL path copies).
    private static func isSingleSegment(_ id: String, _ reader: any CatalogReader) throws -> Bool {
        let catalog = try reader.requireCatalog(id)
        let segments = try reader.searchSegments(of: catalog)
        return segments.count == 1 && segments[0].deleted == 0
    }

    /// A catalog whose records changed since its import (several segments): its records are
    /// indexed again into one segment, with the sort keys and sections the source stored.
    private static func rebuild(
        _ catalog: StoredCatalog, from reader: any CatalogReader, into connection: Connection, path: String,
        isCancelled: @escaping @Sendable () -> Bool
    ) throws -> StoredCatalog {
        var keys: [String: (sortKey: [UInt8], section: Int)] = [:]
        var records: [Record] = []
        try reader.forEachItem(of: catalog) { hit in
            guard let key = hit.key else { throw StorageError(.engine, "the source gave a record without its place") }
            keys[hit.title] = (key.sortKey, key.section)
            records.append(try hit.record())
        }
        let collation = StoredKeys(
            version: catalog.collationVersion, sectionLabels: catalog.sectionLabels, keys: keys)
        let builder = try CatalogIndexBuilder(
            definition: catalog.definition.published, collation: collation,
            existingCategories: Dictionary(
                catalog.categories.map { ($0.name, $0.id) }, uniquingKeysWith: { first, _ in first }))
        for record in records { try builder.add(record) }
        try connection.transaction {
            let version = try SQLiteCatalogWriter(connection: connection, path: path, indexCache: SearchIndexCache())
                .beginVersion(of: catalog.id)
            try version.commit(try builder.finish(into: version, isCancelled: isCancelled))
        }
        return catalog
    }

    /// The sort keys and sections a catalog stored, as a collation (titles with the same text
    /// have the same key).
    private struct StoredKeys: CatalogCollating {
        let version: String
        let sectionLabels: [String]
        let keys: [String: (sortKey: [UInt8], section: Int)]

        func sortKey(_ title: String) -> [UInt8] { keys[title]?.sortKey ?? [] }
        func section(for title: String) -> Int { keys[title]?.section ?? max(0, sectionLabels.count - 1) }
    }

    /// The engine-neutral path: every record and every part of the index read through the
    /// source's protocols and written through this engine's writer.
    private static func copy(
        _ id: String, from reader: any CatalogReader, into connection: Connection, path: String,
        isCancelled: @escaping @Sendable () -> Bool
    ) throws -> StoredCatalog {
        let catalog = try reader.requireCatalog(id)
        guard try isSingleSegment(id, reader) else {
            return try rebuild(catalog, from: reader, into: connection, path: path, isCancelled: isCancelled)
        }
        let hashes = try reader.itemHashes(of: catalog)
        let numbers = Dictionary(catalog.categories.map { ($0.name, $0.id) }, uniquingKeysWith: { first, _ in first })
        try connection.transaction {
            let version = try SQLiteCatalogWriter(connection: connection, path: path, indexCache: SearchIndexCache())
                .beginVersion(of: id)
            var position = 0
            // Index order comes as the records do; category membership and ids are written after,
            // each in its key's order, as the engine wants them.
            var inCategories: [Int: [OrderEntry]] = [:]
            var ids: [(id: String, document: Int)] = []
            try reader.forEachItem(of: catalog) { hit in
                guard let key = hit.key else {
                    throw StorageError(.engine, "the source gave a record without its place")
                }
                if position % 4096 == 0, isCancelled() { throw StorageError(.cancelled, "the snapshot was cancelled") }
                let record = try hit.record()
                let categoryNumbers = hit.categories.compactMap { numbers[$0] }
                try version.write(
                    item: IndexedItem(
                        document: hit.document, id: hit.id, section: key.section, sortKey: key.sortKey,
                        position: position, title: hit.title, subtitle: hit.subtitle, categories: hit.categories,
                        categoryNumbers: categoryNumbers, featured: record.featured,
                        price: IndexedItem.price(record.price),
                        hash: hashes[hit.id] ?? 0, json: hit.json))
                if version.wantsOrderEntries {
                    let entry = OrderEntry(key: key, document: hit.document)
                    try version.write(orderEntry: entry)
                    for number in categoryNumbers { inCategories[number, default: []].append(entry) }
                    ids.append((hit.id, hit.document))
                }
                position += 1
            }
            for number in inCategories.keys.sorted() {
                for entry in inCategories[number]! { try version.write(categoryEntry: entry, category: number) }
            }
            ids.sort { Array($0.id.utf8).lexicographicallyPrecedes(Array($1.id.utf8)) }
            for (itemID, document) in ids {
                try version.write(idEntry: itemID, document: document, hash: hashes[itemID] ?? 0)
            }
            let index = try reader.searchSegments(of: catalog)[0].reader
            if let bytes = try index.blob(named: SearchBlobs.lexicon) {
                let lexicon = try Lexicon(serialized: bytes)
                var copied = Set<UInt32>()
                for entry in 0..<lexicon.count {
                    guard case .stored(let term, let chunks) = lexicon.postings(at: entry), copied.insert(term).inserted
                    else { continue }
                    if copied.count % 4096 == 0, isCancelled() {
                        throw StorageError(.cancelled, "the snapshot was cancelled")
                    }
                    for chunk in chunks {
                        if let posting = try index.postingChunk(term: term, chunk: chunk) {
                            try version.write(postingChunk: posting, term: term, chunk: chunk)
                        }
                    }
                }
            }
            for name in SearchBlobs.all {
                if let blob = try index.blob(named: name) { try version.write(blob: blob, named: name) }
            }
            let sections = try reader.sections(of: catalog).compactMap { section -> (position: Int, count: Int)? in
                catalog.sectionLabels.firstIndex(of: section.label).map { ($0, section.count) }
            }
            try version.commit(
                IndexedCatalog(
                    definition: catalog.definition.published, count: catalog.summary.count,
                    sectionLabels: catalog.sectionLabels,
                    sections: sections, categories: catalog.categories,
                    categoryPositions: Array(catalog.categories.indices), collationVersion: catalog.collationVersion))
        }
        return catalog
    }
}
