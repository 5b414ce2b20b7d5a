import CatalogCore
import CatalogModel
import CatalogStorage
import Foundation
import SQLiteSupport

/// Writes inside one transaction on the read-write connection.
///
/// A catalog's data is kept in versions: every import writes its records and index under a new
/// version number beside the current one, then points the catalog at it and deletes the old
/// one, all in the same transaction. Keys carry the version, so new rows never collide with
/// the ones they replace.
final class SQLiteCatalogWriter: CatalogWriter {
    let connection: Connection
    let path: String

    init(connection: Connection, path: String, indexCache: SearchIndexCache) {
        self.connection = connection
        self.path = path
        self.indexCache = indexCache
    }

    private let indexCache: SearchIndexCache

    /// A reader on the write connection, made afresh each time it is asked for: its catalog cache
    /// follows `PRAGMA data_version`, which this connection's own writes do not change, so a
    /// reader kept across them would not see them.
    var reader: any CatalogReader {
        SQLiteCatalogReader(connection: connection, path: path, indexCache: indexCache)
    }

    /// The most versions the key layout has room for (`search_postings.key` keeps 23 bits).
    static let maxVersion: Int64 = (1 << 23) - 1

    /// The row key of a posting chunk: version, chunk, term.
    static func postingKey(version: Int64, chunk: Int, term: UInt32) -> Int64 {
        version << 40 | Int64(chunk) << 32 | Int64(term)
    }

    func beginVersion(of id: String) throws -> any CatalogVersionWriter {
        guard CatalogDefinition.isValidID(id) else {
            throw StorageError(.invalidArgument, "invalid catalog id \"\(id.prefix(80))\"")
        }
        return try SQLiteVersionWriter(connection: connection, id: id, version: try nextNumber())
    }

    /// A version or segment number never used in the file: caches of this process key on it
    /// (``SearchSegment/key``), so a number dropped with its segment is not handed out again
    /// (`sqlite_sequence` keeps the largest one `segments` ever held).
    func nextNumber() throws -> Int64 {
        let next =
            try connection.cached(
                """
                SELECT max(coalesce((SELECT max(version) FROM catalogs), 0), coalesce((SELECT max(key) >> 32 FROM items), 0),
                    coalesce((SELECT max(segment) FROM segments), 0),
                    coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'segments'), 0)) + 1
                """
            ).scalarInt() ?? 1
        guard Int64(next) <= Self.maxVersion else {
            throw StorageError(.engine, "\(path) has used up its version numbers; copy it to a new file")
        }
        return Int64(next)
    }

    func beginChange(of id: String) throws -> any CatalogChangeWriter {
        guard let (catalog, version) = try (reader as! SQLiteCatalogReader).stored(id) else {
            throw StorageError(.catalogNotFound, "no catalog named \"\(id.prefix(80))\"")
        }
        return SQLiteChangeWriter(writer: self, catalog: catalog, version: version)
    }

    func pruneChanges(before time: String) throws -> Int {
        try connection.cached("DELETE FROM changes WHERE at < ?").bind(time).run()
        return connection.changes
    }

    func deleteCatalog(_ id: String) throws -> Bool {
        let statement = try connection.cached("SELECT version FROM catalogs WHERE id = ?")
        try statement.bind(id)
        guard let version = try statement.scalarInt() else { return false }
        try Self.deleteVersion(Int64(version), connection: connection)
        try connection.cached("DELETE FROM catalogs WHERE id = ?").bind(id).run()
        try connection.cached("DELETE FROM changes WHERE catalog = ?").bind(id).run()
        try connection.cached("DELETE FROM stored_images WHERE catalog = ?").bind(id).run()
        return true
    }

    func storeImage(_ image: StoredImage) throws {
        try connection.cached(
            """
            INSERT OR REPLACE INTO stored_images (catalog, item, data, content_type, width, height, hash, stored_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """
        ).bind(
            image.catalog, image.item, image.bytes, image.contentType, image.width, image.height, image.hash,
            image.storedAt
        ).run()
    }

    func removeStoredImage(of catalog: String, item: String, keeping hash: String?) throws -> Bool {
        try connection.cached("DELETE FROM stored_images WHERE catalog = ? AND item = ? AND hash IS NOT ?")
            .bind(catalog, item, hash).run()
        return connection.changes > 0
    }

    func updateDefinition(_ definition: CatalogDefinition) throws {
        guard let current = try (reader as! SQLiteCatalogReader).stored(definition.id)?.catalog else {
            throw StorageError(.catalogNotFound, "no catalog named \"\(definition.id)\"")
        }
        let json = try StoredColumns.definition(definition)
        // What only remembers an import (its stamp) is no change clients follow.
        let changes = !current.definition.isEquivalent(to: definition)
        try connection.cached("UPDATE catalogs SET definition = ?, title = ?, change = change + ? WHERE id = ?")
            .bind(json, definition.title, changes ? 1 : 0, definition.id).run()
        if changes { try SQLiteChangeWriter.log(catalog: definition.id, kind: .definition, connection: connection) }
    }

    /// Deletes every row of a data version, its segments included.
    static func deleteVersion(_ version: Int64, connection: Connection) throws {
        let segments = try connection.cached("SELECT segment FROM segments WHERE version = ?").bind(version)
        var numbers: [Int64] = [version]
        try segments.forEachRow { if $0.int64(0) != version { numbers.append($0.int64(0)) } }
        for segment in numbers { try deleteSegment(segment, connection: connection) }
        try connection.cached("DELETE FROM item_categories WHERE version = ?").bind(version).run()
        try connection.cached("DELETE FROM item_order WHERE version = ?").bind(version).run()
        try connection.cached("DELETE FROM item_ids WHERE version = ?").bind(version).run()
        try connection.cached("DELETE FROM sections WHERE version = ?").bind(version).run()
    }

    /// Deletes a segment's records, index and deletions.
    static func deleteSegment(_ segment: Int64, connection: Connection) throws {
        try connection.cached("DELETE FROM items WHERE key >= ? AND key < ?")
            .bind(segment << 32, (segment + 1) << 32).run()
        try connection.cached("DELETE FROM search_blobs WHERE version = ?").bind(segment).run()
        try connection.cached("DELETE FROM search_postings WHERE key >= ? AND key < ?")
            .bind(segment << 40, (segment + 1) << 40).run()
        try connection.cached("DELETE FROM deleted_documents WHERE segment = ?").bind(segment).run()
        try connection.cached("DELETE FROM segments WHERE segment = ?").bind(segment).run()
    }
}

/// One new catalog version being written, or one new segment of a catalog's current version
/// (``CatalogSegmentWriter``): its records, postings and blobs go under the segment's number,
/// its places in index order, categories and ids into the version's live tables.
final class SQLiteVersionWriter: CatalogVersionWriter, CatalogSegmentWriter {
    private let connection: Connection
    private let id: String
    /// The catalog data version the live rows belong to.
    private let version: Int64
    /// The number records, postings and blobs are written under (the version itself for a new
    /// version).
    let number: Int64
    /// The segment column of the live rows (nil for a version's base).
    private let segment: Int64?
    private let insertItem: Statement
    private let insertCategory: Statement
    private let insertPosting: Statement
    private let insertBlob: Statement
    private let insertOrder: Statement
    private let insertID: Statement
    /// Told each record's category labels and numbers as it is written (a change writer learns
    /// the numbers of categories that are new in its batch).
    var categoriesWritten: ((_ labels: [String], _ numbers: [Int]) -> Void)?

    init(connection: Connection, id: String, version: Int64, segment: Int64? = nil) throws {
        self.connection = connection
        self.id = id
        self.version = version
        self.segment = segment
        number = segment ?? version
        insertItem = try connection.cached(
            """
            INSERT INTO items (key, version, id, section, sort_key, title, subtitle, categories, featured, price, hash,
                record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        insertCategory = try connection.cached(
            """
            INSERT INTO item_categories (version, category, section, sort_key, id, document, segment)
                VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        insertPosting = try connection.cached("INSERT INTO search_postings (key, data) VALUES (?, ?)")
        insertBlob = try connection.cached("INSERT INTO search_blobs (version, name, data) VALUES (?, ?, zeroblob(?))")
        insertOrder = try connection.cached(
            "INSERT INTO item_order (version, section, sort_key, id, document, segment) VALUES (?, ?, ?, ?, ?, ?)")
        insertID = try connection.cached(
            "INSERT INTO item_ids (version, id, document, hash, segment) VALUES (?, ?, ?, ?, ?)")
    }

    func write(item: IndexedItem) throws {
        insertItem.reset()
        try insertItem.bind(number << 32 | Int64(item.document), at: 1)
        try insertItem.bind(number, at: 2)
        try insertItem.bind(item.id, at: 3)
        try insertItem.bind(item.section, at: 4)
        try insertItem.bind(item.sortKey, at: 5)
        try insertItem.bind(item.title, at: 6)
        try insertItem.bind(item.subtitle, at: 7)
        try insertItem.bind(StoredColumns.labels(item.categories), at: 8)
        try insertItem.bind(item.featured, at: 9)
        try insertItem.bind(item.price, at: 10)
        try insertItem.bind(Int64(bitPattern: item.hash), at: 11)
        try insertItem.bind(utf8: item.json, at: 12)
        try insertItem.run()
        categoriesWritten?(item.categories, item.categoryNumbers)
    }

    var wantsOrderEntries: Bool { true }

    func write(orderEntry entry: OrderEntry) throws {
        insertOrder.reset()
        try insertOrder.bind(version, at: 1)
        try bind(entry, to: insertOrder, from: 2)
        try insertOrder.run()
    }

    func write(categoryEntry entry: OrderEntry, category: Int) throws {
        insertCategory.reset()
        try insertCategory.bind(version, at: 1)
        try insertCategory.bind(category, at: 2)
        try bind(entry, to: insertCategory, from: 3)
        try insertCategory.run()
    }

    /// Binds an entry's section, sort key, id, document and segment to five parameters from `first` on.
    private func bind(_ entry: OrderEntry, to statement: Statement, from first: Int32) throws {
        try statement.bind(entry.key.section, at: first)
        try statement.bind(entry.key.sortKey, at: first + 1)
        try statement.bind(entry.key.id, at: first + 2)
        try statement.bind(entry.document, at: first + 3)
        if let segment { try statement.bind(segment, at: first + 4) }
    }

    func write(idEntry id: String, document: Int, hash: UInt64) throws {
        insertID.reset()
        try insertID.bind(version, at: 1)
        try insertID.bind(id, at: 2)
        try insertID.bind(document, at: 3)
        try insertID.bind(Int64(bitPattern: hash), at: 4)
        if let segment { try insertID.bind(segment, at: 5) }
        try insertID.run()
    }

    func write(postingChunk: [UInt8], term: UInt32, chunk: Int) throws {
        insertPosting.reset()
        try insertPosting.bind(SQLiteCatalogWriter.postingKey(version: number, chunk: chunk, term: term), at: 1)
        try insertPosting.bind(postingChunk, at: 2)
        try insertPosting.run()
    }

    /// The row is made to the blob's size and the bytes written into its pages: bound to the
    /// INSERT, SQLite would first copy them into a record of their own (a lexicon's 287 MB at
    /// 10,000,000 records).
    func write(blob: [UInt8], named name: String) throws {
        insertBlob.reset()
        let stored = try Blob.inserted(
            by: insertBlob.bind(number, name, blob.count), into: "search_blobs", column: "data", on: connection)
        try blob.withUnsafeBytes { try stored.write($0, at: 0) }
    }

    func commit(documents: Int) throws {
        try connection.cached("INSERT INTO segments (segment, version, documents) VALUES (?, ?, ?)")
            .bind(number, version, documents).run()
    }

    func commit(_ catalog: IndexedCatalog) throws {
        let insertSection = try connection.cached(
            "INSERT INTO sections (version, position, label, item_count) VALUES (?, ?, ?, ?)")
        for (position, count) in catalog.sections {
            let label = catalog.sectionLabels.indices.contains(position) ? catalog.sectionLabels[position] : "#"
            insertSection.reset()
            try insertSection.bind(version, position, label, count).run()
        }
        let (definition, labels, categories) = try StoredColumns.encode(catalog)
        let previous = try connection.cached("SELECT version FROM catalogs WHERE id = ?").bind(id).scalarInt()
        try connection.cached(
            """
            INSERT INTO catalogs (id, title, locale, definition, item_count, section_labels, categories,
                    collation_version, version, change) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)
                ON CONFLICT (id) DO UPDATE SET title = excluded.title, locale = excluded.locale,
                    definition = excluded.definition, item_count = excluded.item_count,
                    section_labels = excluded.section_labels, categories = excluded.categories,
                    collation_version = excluded.collation_version, version = excluded.version,
                    change = change + 1, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
            """
        ).bind(
            id, catalog.definition.title, catalog.definition.locale, definition, catalog.count, labels, categories,
            catalog.collationVersion, version
        ).run()
        try connection.cached("INSERT INTO segments (segment, version, documents) VALUES (?, ?, ?)")
            .bind(version, version, catalog.count).run()
        if let previous { try SQLiteCatalogWriter.deleteVersion(Int64(previous), connection: connection) }
        try SQLiteChangeWriter.log(catalog: id, kind: .reload, connection: connection)
    }
}
