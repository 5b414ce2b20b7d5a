import CatalogModel
import CatalogStorage
import Foundation

/// Writes inside one transaction on the write connection, which holds the database's writer
/// lock (``PostgresDatabase/write(_:)``).
///
/// A catalog's data is kept in versions, as in the SQLite engine: an import writes its records
/// and index under a new version number (from the `catalog_versions` sequence, never reused)
/// beside the current one, then points the catalog at it and deletes the old one, all in the
/// same transaction. Readers keep seeing the old version until the transaction commits. A
/// change of records in place (``beginChange(of:)``) writes a new segment of the current version
/// instead, numbered from the same sequence.
final class PostgresCatalogWriter: CatalogWriter {
    let connection: PostgresConnection
    /// A reader on the write connection, made for this transaction: it sees what the
    /// transaction wrote, and keeps no catalog rows between calls (no snapshot data version).
    let reader: any CatalogReader
    private let catalogReader: PostgresCatalogReader

    init(connection: PostgresConnection, databaseID: String, postings: PostingCache, indexCache: SearchIndexCache) {
        self.connection = connection
        catalogReader = PostgresCatalogReader(
            connection: connection, databaseID: databaseID, postings: postings, indexCache: indexCache)
        reader = catalogReader
    }

    /// The time the change log records for what SQL writes (the statement's, not the
    /// transaction's start, which came before the writers' lock): ISO 8601 UTC with milliseconds.
    static let now = #"to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')"#

    func beginVersion(of id: String) throws -> any CatalogVersionWriter {
        guard CatalogDefinition.isValidID(id) else {
            throw StorageError(.invalidArgument, "invalid catalog id \"\(id.prefix(80))\"")
        }
        return PostgresVersionWriter(connection: connection, id: id, version: try nextNumber())
    }

    /// A version or segment number never used in the database (a sequence: safe for writers of
    /// several processes, and never handed out twice even when a transaction rolls back).
    func nextNumber() throws -> Int64 {
        try connection.query("SELECT nextval('catalog_versions')").int64(0, 0)
    }

    /// Locks the catalog's row (`SELECT … FOR UPDATE`) before reading it: another writer of the
    /// catalog waits until this transaction ends, so change numbers, taken from the row, are
    /// taken one after the other, gap-free and in commit order.
    func beginChange(of id: String) throws -> any CatalogChangeWriter {
        guard let (catalog, version) = try catalogReader.stored(id, forUpdate: true) else {
            throw StorageError(.catalogNotFound, "no catalog named \"\(id.prefix(80))\"")
        }
        return PostgresChangeWriter(writer: self, catalog: catalog, version: version)
    }

    func pruneChanges(before time: String) throws -> Int {
        try connection.query("DELETE FROM changes WHERE at < $1", [.text(time)]).affectedRows
    }

    func deleteCatalog(_ id: String) throws -> Bool {
        guard !id.utf8.contains(0) else { return false }
        let rows = try connection.query("SELECT version FROM catalogs WHERE id = $1 FOR UPDATE", [.text(id)])
        guard rows.count == 1 else { return false }
        try Self.deleteVersion(rows.int64(0, 0), connection: connection)
        try connection.query("DELETE FROM catalogs WHERE id = $1", [.text(id)])
        try connection.query("DELETE FROM changes WHERE catalog = $1", [.text(id)])
        try connection.query("DELETE FROM stored_images WHERE catalog = $1", [.text(id)])
        return true
    }

    func storeImage(_ image: StoredImage) throws {
        guard !image.catalog.utf8.contains(0), !image.item.utf8.contains(0) else {
            throw StorageError(.invalidArgument, "an id holds a NUL character")
        }
        try connection.query(
            """
            INSERT INTO stored_images (catalog, item, data, content_type, width, height, hash, stored_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                ON CONFLICT (catalog, item) DO UPDATE SET data = excluded.data, content_type = excluded.content_type,
                    width = excluded.width, height = excluded.height, hash = excluded.hash,
                    stored_at = excluded.stored_at
            """,
            [
                .text(image.catalog), .text(image.item), .bytea(image.bytes), .text(image.contentType),
                .int(image.width), .int(image.height), .text(image.hash), .text(image.storedAt),
            ])
    }

    func removeStoredImage(of catalog: String, item: String, keeping hash: String?) throws -> Bool {
        guard !catalog.utf8.contains(0), !item.utf8.contains(0) else { return false }
        let rows = try connection.query(
            "DELETE FROM stored_images WHERE catalog = $1 AND item = $2 AND hash IS DISTINCT FROM $3 RETURNING 1",
            [.text(catalog), .text(item), .text(hash)])
        return rows.count > 0
    }

    func updateDefinition(_ definition: CatalogDefinition) throws {
        let json = try StoredColumns.definition(definition)
        guard let current = try reader.catalog(definition.id) else {
            throw StorageError(.catalogNotFound, "no catalog named \"\(definition.id)\"")
        }
        if current.definition.isEquivalent(to: definition) {
            // What only remembers an import (its stamp) is no change clients follow.
            try connection.query(
                "UPDATE catalogs SET definition = $1, title = $2 WHERE id = $3",
                [.text(json), .text(definition.title), .text(definition.id)])
            return
        }
        let logged = try connection.query(
            """
            WITH updated AS (
                UPDATE catalogs SET definition = $1, title = $2, change = change + 1 WHERE id = $3 RETURNING id, change)
            INSERT INTO changes (catalog, number, kind, at) SELECT id, change, $4, \(Self.now) FROM updated
            """,
            [.text(json), .text(definition.title), .text(definition.id), .text(StoredChangeKind.definition.rawValue)])
        guard logged.affectedRows > 0 else {
            throw StorageError(.catalogNotFound, "no catalog named \"\(definition.id)\"")
        }
    }

    /// Deletes every row of a data version, its segments included.
    static func deleteVersion(_ version: Int64, connection: PostgresConnection) throws {
        let rows = try connection.query("SELECT segment FROM segments WHERE version = $1", [.int8(version)])
        var segments: [Int64] = [version]
        for row in 0..<rows.count where rows.int64(row, 0) != version { segments.append(rows.int64(row, 0)) }
        try deleteSegments(segments, connection: connection)
        for table in ["item_categories", "sections"] {
            try connection.query("DELETE FROM \(table) WHERE version = $1", [.int8(version)])
        }
    }

    /// Deletes segments' records, index and deletions, in one round trip.
    static func deleteSegments(_ segments: [Int64], connection: PostgresConnection) throws {
        guard !segments.isEmpty else { return }
        try connection.query(
            """
            WITH records AS (DELETE FROM items WHERE version = ANY ($1)),
                blobs AS (DELETE FROM search_blobs WHERE version = ANY ($1)),
                postings AS (DELETE FROM search_postings WHERE version = ANY ($1)),
                deletions AS (DELETE FROM deleted_documents WHERE segment = ANY ($1))
            DELETE FROM segments WHERE segment = ANY ($1)
            """, [.int8Array(segments)])
    }
}

/// One new catalog version being written, or one new segment of a catalog's current version
/// (``CatalogSegmentWriter``): records, their categories and posting chunks go through
/// `COPY … FROM STDIN (FORMAT binary)`. Records, postings and blobs are written under the
/// segment's number (the version's own for an import), marked live in the version; category
/// rows go to the version's live rows, naming the segment.
///
/// A connection runs one COPY at a time, and the index builder interleaves records with the
/// posting chunks of each 65,536 of them, so the writer keeps the COPY of the kind it is
/// writing open (the server stores rows while the next ones are encoded) and switches when the
/// kind changes; category rows wait in memory until the records' COPY ends.
final class PostgresVersionWriter: CatalogVersionWriter, CatalogSegmentWriter {
    private let connection: PostgresConnection
    private let id: String
    /// The catalog data version the records are live in.
    private let version: Int64
    /// The number records, postings and blobs are written under (the version itself for a new
    /// version).
    let number: Int64
    /// The segment the category rows name (nil for a version's base).
    private let segment: Int64?
    /// Told each record's category labels and numbers as it is written (a change writer learns
    /// the numbers of categories that are new in its batch).
    var categoriesWritten: ((_ labels: [String], _ numbers: [Int]) -> Void)?

    private enum Stream {
        case none, items, postings
    }

    private var stream = Stream.none
    private var rows = CopyEncoder(capacity: PostgresVersionWriter.sendSize + 64 * 1024)
    private var categories = CopyEncoder()
    private var headerSent = false

    /// Bytes encoded before they are sent.
    static let sendSize = 1 << 20

    static let itemsCopy =
        "COPY items (version, document, live, id, section, sort_key, title, subtitle, categories, featured, price, "
        + "hash, record) FROM STDIN (FORMAT binary)"
    static let categoriesCopy =
        "COPY item_categories (version, category, section, sort_key, id, document, segment) FROM STDIN (FORMAT binary)"
    static let postingsCopy = "COPY search_postings (version, term, chunk, data) FROM STDIN (FORMAT binary)"

    init(connection: PostgresConnection, id: String, version: Int64, segment: Int64? = nil) {
        self.connection = connection
        self.id = id
        self.version = version
        self.segment = segment
        number = segment ?? version
    }

    func write(item: IndexedItem) throws {
        for (field, value) in [("id", item.id), ("title", item.title), ("subtitle", item.subtitle ?? "")]
        where value.utf8.contains(0) {
            throw StorageError(
                .invalidArgument,
                "record \"\(item.id.prefix(80))\" has a NUL character in its \(field), which PostgreSQL cannot store")
        }
        try open(.items)
        rows.beginRow(fields: 13)
        rows.int8(number)
        rows.int4(Int32(item.document))
        rows.int8(version)
        rows.text(item.id)
        rows.int4(Int32(item.section))
        rows.bytea(item.sortKey)
        rows.text(item.title)
        if let subtitle = item.subtitle { rows.text(subtitle) } else { rows.null() }
        rows.text(StoredColumns.labels(item.categories))
        if let featured = item.featured { rows.int4(Int32(clamping: featured)) } else { rows.null() }
        if let price = item.price { rows.float8(price) } else { rows.null() }
        rows.int8(Int64(bitPattern: item.hash))
        rows.text(utf8: item.json)
        for category in item.categoryNumbers {
            categories.beginRow(fields: 7)
            categories.int8(version)
            categories.int4(Int32(category))
            categories.int4(Int32(item.section))
            categories.bytea(item.sortKey)
            categories.text(item.id)
            categories.int4(Int32(item.document))
            if let segment { categories.int8(segment) } else { categories.null() }
        }
        categoriesWritten?(item.categories, item.categoryNumbers)
        try sendIfFull()
    }

    func write(postingChunk: [UInt8], term: UInt32, chunk: Int) throws {
        try open(.postings)
        rows.beginRow(fields: 4)
        rows.int8(number)
        rows.int4(Int32(bitPattern: term))
        rows.int4(Int32(chunk))
        rows.bytea(postingChunk)
        try sendIfFull()
    }

    func write(blob: [UInt8], named name: String) throws {
        // A COPY of its own, the blob (the lexicon is tens of MB) sent from where it is: an
        // INSERT would hold two more copies of it in memory (the bound value, libpq's message).
        try open(.none)
        var head = CopyEncoder()
        head.beginRow(fields: 3)
        head.int8(number)
        head.text(name)
        try connection.beginCopy("COPY search_blobs (version, name, data) FROM STDIN (FORMAT binary)")
        var prefix = CopyEncoder.header + head.bytes
        prefix.appendBigEndian(Int32(blob.count))
        try connection.copyData(prefix)
        try connection.copyData(blob)
        try connection.copyData(CopyEncoder.trailer)
        try connection.endCopy()
    }

    func commit(documents: Int) throws {
        try open(.none)
        try connection.query(
            "INSERT INTO segments (segment, version, documents) VALUES ($1, $2, $3)",
            [.int8(number), .int8(version), .int(documents)])
    }

    func commit(_ catalog: IndexedCatalog) throws {
        try open(.none)
        var sections = CopyEncoder()
        for (position, count) in catalog.sections {
            let label = catalog.sectionLabels.indices.contains(position) ? catalog.sectionLabels[position] : "#"
            sections.beginRow(fields: 4)
            sections.int8(version)
            sections.int4(Int32(position))
            sections.text(label)
            sections.int4(Int32(count))
        }
        try copy("COPY sections (version, position, label, item_count) FROM STDIN (FORMAT binary)", sections)
        let (definition, labels, categories) = try StoredColumns.encode(catalog)
        let previous = try connection.query("SELECT version FROM catalogs WHERE id = $1", [.text(id)])
        // The catalog's change number goes up by one (a new catalog's is 1), logged as a reload.
        try connection.query(
            """
            WITH stored AS (
                INSERT INTO catalogs (id, title, locale, definition, item_count, section_labels, categories,
                        collation_version, version, change) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1)
                    ON CONFLICT (id) DO UPDATE SET title = excluded.title, locale = excluded.locale,
                        definition = excluded.definition, item_count = excluded.item_count,
                        section_labels = excluded.section_labels, categories = excluded.categories,
                        collation_version = excluded.collation_version, version = excluded.version,
                        change = catalogs.change + 1,
                        updated_at = to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
                    RETURNING id, change),
                segment AS (INSERT INTO segments (segment, version, documents) VALUES ($9, $9, $5))
            INSERT INTO changes (catalog, number, kind, at)
                SELECT id, change, $10, \(PostgresCatalogWriter.now) FROM stored
            """,
            [
                .text(id), .text(catalog.definition.title), .text(catalog.definition.locale), .text(definition),
                .int(catalog.count), .text(labels), .text(categories), .text(catalog.collationVersion),
                .int8(version), .text(StoredChangeKind.reload.rawValue),
            ])
        if previous.count == 1 {
            try PostgresCatalogWriter.deleteVersion(previous.int64(0, 0), connection: connection)
        }
    }

    // MARK: - COPY streams

    /// Makes `wanted` the open COPY, ending the other one (and sending the category rows that
    /// waited for the records' COPY to end).
    private func open(_ wanted: Stream) throws {
        guard stream != wanted else { return }
        if stream != .none {
            if !headerSent { try connection.copyData(CopyEncoder.header) }
            try connection.copyData(rows.bytes + CopyEncoder.trailer)
            rows.removeAll()
            try connection.endCopy()
        }
        if stream == .items && categories.rows > 0 {
            try copy(Self.categoriesCopy, categories)
            categories = CopyEncoder()
        }
        stream = wanted
        headerSent = false
        switch wanted {
        case .none: break
        case .items: try connection.beginCopy(Self.itemsCopy)
        case .postings: try connection.beginCopy(Self.postingsCopy)
        }
    }

    private func sendIfFull() throws {
        guard rows.bytes.count >= Self.sendSize else { return }
        if !headerSent {
            try connection.copyData(CopyEncoder.header)
            headerSent = true
        }
        try connection.copyData(rows.bytes)
        rows.removeAll()
    }

    /// One whole COPY of encoded rows.
    private func copy(_ command: String, _ encoded: CopyEncoder) throws {
        guard encoded.rows > 0 else { return }
        try connection.beginCopy(command)
        try connection.copyData(encoded.finish())
        try connection.endCopy()
    }
}
