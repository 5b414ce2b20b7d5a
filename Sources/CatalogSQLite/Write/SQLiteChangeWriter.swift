import CatalogModel
import CatalogStorage
import Foundation
import SQLiteSupport

/// Changes a catalog's records in place, inside the write transaction (SQLite has one writer at
/// a time, so the catalog is locked for it). Live rows (`item_order`, `item_categories`,
/// `item_ids`) are removed and added one record at a time; records and index rows of segments
/// are only ever added, or dropped a segment at a time.
final class SQLiteChangeWriter: CatalogChangeWriter {
    private let writer: SQLiteCatalogWriter
    let catalog: StoredCatalog
    /// The catalog's data version (its live rows' key).
    private let version: Int64
    /// Category numbers by label: the catalog's, and those new in segments this batch wrote (a
    /// merge in the same batch removes their records again).
    private var categoryNumbers: [String: Int]

    init(writer: SQLiteCatalogWriter, catalog: StoredCatalog, version: Int64) {
        self.writer = writer
        self.catalog = catalog
        self.version = version
        categoryNumbers = Dictionary(catalog.categories.map { ($0.name, $0.id) }, uniquingKeysWith: { a, _ in a })
    }

    private var connection: Connection { writer.connection }

    func segments() throws -> [SegmentInfo] {
        let statement = try connection.cached(
            "SELECT segment, documents, deleted FROM segments WHERE version = ? ORDER BY segment")
        try statement.bind(version)
        var segments: [SegmentInfo] = []
        try statement.forEachRow { row in
            segments.append(
                SegmentInfo(number: row.int64(0), documents: row.int(1), deleted: row.int(2), isBase: segments.isEmpty))
        }
        return segments
    }

    func live(id: String) throws -> RemovedRecord? {
        let statement = try connection.cached(
            """
            SELECT \(SQLiteCatalogReader.joinedHitColumns), i.hash, coalesce(o.segment, o.version), o.document
                FROM item_ids AS o \(SQLiteCatalogReader.liveJoin) WHERE o.version = ? AND o.id = ?
            """)
        try statement.bind(version, id)
        defer { statement.finish() }
        guard try statement.step() else { return nil }
        let hit = StoredHit(
            document: statement.int(10), id: statement.text(1), json: statement.blob(2), title: statement.text(3),
            subtitle: statement.optionalText(4), categories: StoredColumns.labels(json: statement.blob(5)),
            key: BrowseKey(section: statement.int(6), sortKey: statement.blob(7), id: statement.text(1)))
        return RemovedRecord(
            hit: hit, hash: UInt64(bitPattern: statement.int64(8)),
            categoryNumbers: hit.categories.compactMap { categoryNumbers[$0] }, segment: statement.int64(9),
            document: statement.int(10))
    }

    func remove(id: String, change: Int) throws -> RemovedRecord? {
        guard let record = try live(id: id), let key = record.hit.key else { return nil }
        try connection.cached("DELETE FROM item_order WHERE version = ? AND section = ? AND sort_key = ? AND id = ?")
            .bind(version, key.section, key.sortKey, key.id).run()
        let category = try connection.cached(
            "DELETE FROM item_categories WHERE version = ? AND category = ? AND section = ? AND sort_key = ? AND id = ?"
        )
        for number in Set(record.categoryNumbers) {
            category.reset()
            try category.bind(version, number, key.section, key.sortKey, key.id).run()
        }
        try connection.cached("DELETE FROM item_ids WHERE version = ? AND id = ?").bind(version, id).run()
        try connection.cached("INSERT OR IGNORE INTO deleted_documents (segment, change, document) VALUES (?, ?, ?)")
            .bind(record.segment, change, record.document).run()
        try connection.cached("UPDATE segments SET deleted = deleted + 1 WHERE segment = ?").bind(record.segment)
            .run()
        return record
    }

    func beginSegment() throws -> any CatalogSegmentWriter {
        let segment = try SQLiteVersionWriter(
            connection: connection, id: catalog.id, version: version, segment: writer.nextNumber())
        segment.categoriesWritten = { [unowned self] labels, numbers in
            for (label, number) in zip(labels, numbers) where categoryNumbers[label] == nil {
                categoryNumbers[label] = number
            }
        }
        return segment
    }

    func forEachLive(inSegments segments: [Int64], _ body: (StoredHit, UInt64) throws -> Void) throws {
        for segment in segments {
            var deleted = Set<Int>()
            let gone = try connection.cached("SELECT document FROM deleted_documents WHERE segment = ?").bind(segment)
            try gone.forEachRow { deleted.insert($0.int(0)) }
            let statement = try connection.prepare(
                "SELECT \(SQLiteCatalogReader.hitColumns), hash FROM items WHERE key >= ? AND key < ? ORDER BY key")
            try statement.bind(segment << 32, (segment + 1) << 32)
            while try statement.step() {
                let document = Int(statement.int64(0) & 0xFFFF_FFFF)
                guard !deleted.contains(document) else { continue }
                let hit = StoredHit(
                    document: document, id: statement.text(1), json: statement.blob(2), title: statement.text(3),
                    subtitle: statement.optionalText(4), categories: StoredColumns.labels(json: statement.blob(5)),
                    key: BrowseKey(section: statement.int(6), sortKey: statement.blob(7), id: statement.text(1)))
                try body(hit, UInt64(bitPattern: statement.int64(8)))
            }
        }
    }

    func dropSegments(_ segments: [Int64]) throws {
        for segment in segments where segment != version {
            try SQLiteCatalogWriter.deleteSegment(segment, connection: connection)
        }
    }

    func finish(
        definition: CatalogDefinition, count: Int, sectionCounts: [Int: Int], categories: [CategoryCount],
        change: Int, log: [StoredChange]
    ) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try connection.cached(
            """
            UPDATE catalogs SET definition = ?, title = ?, item_count = ?, categories = ?, change = ?,
                updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?
            """
        ).bind(
            try StoredColumns.definition(definition), definition.title, count,
            String(decoding: try encoder.encode(categories), as: UTF8.self), change, catalog.id
        ).run()
        try connection.cached("DELETE FROM sections WHERE version = ?").bind(version).run()
        let insertSection = try connection.cached(
            "INSERT INTO sections (version, position, label, item_count) VALUES (?, ?, ?, ?)")
        for (position, count) in sectionCounts.sorted(by: { $0.key < $1.key }) where count > 0 {
            let labels = catalog.sectionLabels
            insertSection.reset()
            try insertSection.bind(version, position, labels.indices.contains(position) ? labels[position] : "#", count)
                .run()
        }
        let insertChange = try connection.cached(
            """
            INSERT INTO changes (catalog, number, kind, item, record, previous, actor, at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for entry in log {
            insertChange.reset()
            try insertChange.bind(
                catalog.id, entry.number, entry.kind.rawValue, entry.item,
                entry.record.map { String(decoding: $0, as: UTF8.self) },
                entry.previous.map { String(decoding: $0, as: UTF8.self) }, entry.actor, entry.time
            ).run()
        }
    }

    /// Logs a catalog-level change under the catalog's current change number (already raised).
    static func log(catalog id: String, kind: StoredChangeKind, connection: Connection) throws {
        try connection.cached(
            """
            INSERT INTO changes (catalog, number, kind, at)
                SELECT id, change, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM catalogs WHERE id = ?
            """
        ).bind(kind.rawValue, id).run()
    }
}
