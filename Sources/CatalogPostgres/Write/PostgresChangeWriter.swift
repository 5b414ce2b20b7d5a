import CatalogModel
import CatalogStorage
import Foundation

/// Changes a catalog's records in place, inside the write transaction, on the catalog's row
/// locked by ``PostgresCatalogWriter/beginChange(of:)``: change numbers come from that row, so
/// writers of the catalog in any process take them one after the other, in commit order.
///
/// A record's live state is `items.live` (the catalog's data version, NULL once replaced or
/// deleted) and its rows in `item_categories`; both change one record at a time. The records
/// and index rows of segments are only ever added, or dropped a segment at a time. Each request
/// costs one or two round trips, whatever the catalog's size.
final class PostgresChangeWriter: CatalogChangeWriter {
    private let writer: PostgresCatalogWriter
    let catalog: StoredCatalog
    /// The catalog's data version (its live rows' key).
    private let version: Int64
    /// Category numbers by label: the catalog's, and those new in segments this batch wrote.
    private var categoryNumbers: [String: Int]
    /// What the last ``live(id:)`` found: the ``remove(id:change:)`` that usually follows it
    /// reads nothing again. Any write forgets it.
    private var lastLookup: (id: String, record: RemovedRecord?)?

    init(writer: PostgresCatalogWriter, catalog: StoredCatalog, version: Int64) {
        self.writer = writer
        self.catalog = catalog
        self.version = version
        categoryNumbers = Dictionary(catalog.categories.map { ($0.name, $0.id) }, uniquingKeysWith: { a, _ in a })
    }

    private var connection: PostgresConnection { writer.connection }

    func segments() throws -> [SegmentInfo] {
        let rows = try connection.query(
            "SELECT segment, documents, deleted FROM segments WHERE version = $1 ORDER BY segment", [.int8(version)])
        return (0..<rows.count).map { row in
            let number = rows.int64(row, 0)
            return SegmentInfo(
                number: number, documents: rows.int(row, 1), deleted: rows.int(row, 2), isBase: number == version)
        }
    }

    /// The columns of a record as ``record(_:_:)`` decodes them.
    private static let recordColumns = PostgresCatalogReader.hitColumns.joined(separator: ", ") + ", hash, version"

    /// Decodes a row selected with ``recordColumns``.
    private func record(_ rows: PostgresResult, _ row: Int) -> RemovedRecord {
        let hit = PostgresCatalogReader.hit(rows, row)
        return RemovedRecord(
            hit: hit, hash: UInt64(bitPattern: rows.int64(row, 8)),
            categoryNumbers: hit.categories.compactMap { categoryNumbers[$0] }, segment: rows.int64(row, 9),
            document: hit.document)
    }

    func live(id: String) throws -> RemovedRecord? {
        guard !id.utf8.contains(0) else { return nil }
        let rows = try connection.query(
            "SELECT \(Self.recordColumns) FROM items WHERE live = $1 AND id = $2", [.int8(version), .text(id)])
        let found = rows.count == 1 ? record(rows, 0) : nil
        lastLookup = (id, found)
        return found
    }

    func remove(id: String, change: Int) throws -> RemovedRecord? {
        let found: RemovedRecord?
        if let lastLookup, lastLookup.id == id {
            found = lastLookup.record
        } else {
            found = try live(id: id)
        }
        lastLookup = nil
        guard let found, let key = found.hit.key else { return nil }
        // One statement: the record leaves the live rows, its document is marked deleted at
        // `change`, and its segment counts one deletion more.
        try connection.query(
            """
            WITH record AS (UPDATE items SET live = NULL WHERE version = $1 AND document = $2),
                categories AS (
                    DELETE FROM item_categories WHERE version = $3 AND category = ANY ($4) AND section = $5
                        AND sort_key = $6 AND id = $7),
                deletion AS (
                    INSERT INTO deleted_documents (segment, change, document) VALUES ($1, $8, $2)
                        ON CONFLICT DO NOTHING)
            UPDATE segments SET deleted = deleted + 1 WHERE segment = $1
            """,
            [
                .int8(found.segment), .int(found.document), .int8(version),
                .int4Array(Set(found.categoryNumbers).sorted().map { Int32(clamping: $0) }), .int(key.section),
                .bytea(key.sortKey), .text(key.id), .int(change),
            ])
        return found
    }

    func beginSegment() throws -> any CatalogSegmentWriter {
        lastLookup = nil
        let segment = PostgresVersionWriter(
            connection: connection, id: catalog.id, version: version, segment: try writer.nextNumber())
        segment.categoriesWritten = { [unowned self] labels, numbers in
            for (label, number) in zip(labels, numbers) where categoryNumbers[label] == nil {
                categoryNumbers[label] = number
            }
        }
        return segment
    }

    func forEachLive(inSegments segments: [Int64], _ body: (StoredHit, UInt64) throws -> Void) throws {
        guard !segments.isEmpty else { return }
        let rows = try connection.query(
            "SELECT \(Self.recordColumns) FROM items WHERE version = ANY ($1) AND live = $2 ORDER BY version, document",
            [.int8Array(segments), .int8(version)])
        for row in 0..<rows.count {
            let found = record(rows, row)
            try body(found.hit, found.hash)
        }
    }

    func dropSegments(_ segments: [Int64]) throws {
        lastLookup = nil
        try PostgresCatalogWriter.deleteSegments(segments.filter { $0 != version }, connection: connection)
    }

    func finish(
        definition: CatalogDefinition, count: Int, sectionCounts: [Int: Int], categories: [CategoryCount],
        change: Int, log: [StoredChange]
    ) throws {
        lastLookup = nil
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try connection.query(
            """
            UPDATE catalogs SET definition = $1, title = $2, item_count = $3, categories = $4, change = $5,
                updated_at = to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') WHERE id = $6
            """,
            [
                .text(try StoredColumns.definition(definition)), .text(definition.title), .int(count),
                .text(String(decoding: try encoder.encode(categories), as: UTF8.self)), .int(change),
                .text(catalog.id),
            ])
        // The sections that are left, in one statement: the emptied ones go, the others are
        // stored with their counts.
        let sections = sectionCounts.filter { $0.value > 0 }.sorted { $0.key < $1.key }
        let labels = catalog.sectionLabels
        try connection.query(
            """
            WITH emptied AS (DELETE FROM sections WHERE version = $1 AND position <> ALL ($2))
            INSERT INTO sections (version, position, label, item_count)
                SELECT $1, position, label, item_count FROM unnest($2, $3, $4) AS s (position, label, item_count)
                ON CONFLICT (version, position) DO UPDATE SET label = excluded.label, item_count = excluded.item_count
            """,
            [
                .int8(version), .int4Array(sections.map { Int32(clamping: $0.key) }),
                .textArray(sections.map { labels.indices.contains($0.key) ? labels[$0.key] : "#" }),
                .int4Array(sections.map { Int32(clamping: $0.value) }),
            ])
        guard !log.isEmpty else { return }
        try connection.query(
            """
            INSERT INTO changes (catalog, number, kind, item, record, previous, actor, at)
                SELECT $1, * FROM unnest($2, $3, $4, $5, $6, $7, $8)
            """,
            [
                .text(catalog.id), .int4Array(log.map { Int32(clamping: $0.number) }),
                .textArray(log.map { $0.kind.rawValue }), .textArray(log.map { $0.item }),
                .textArray(log.map { $0.record.map { String(decoding: $0, as: UTF8.self) } }),
                .textArray(log.map { $0.previous.map { String(decoding: $0, as: UTF8.self) } }),
                .textArray(log.map { $0.actor }), .textArray(log.map { $0.time }),
            ])
    }
}
