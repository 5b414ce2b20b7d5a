import CatalogCore
import CatalogModel
import CatalogStorage
import Foundation
import SQLiteSupport

/// Reads on one read-only connection, in the transaction its owner keeps open (one `read`). Not
/// Sendable: it belongs to one thread.
public final class SQLiteCatalogReader: CatalogReader {
    let connection: Connection
    let path: String
    /// What names the file in ``StoredCatalog/versionKey`` (which keys the process's search index
    /// cache): its path, or something unique to this open for files that may be replaced in place.
    private let identity: String
    /// ``identity`` and the file's schema cookie (`PRAGMA schema_version`), as the cache keys
    /// name the file. A restore (``CatalogBackup``) writes another database's pages over the
    /// file, whose catalog and segment numbers may be the ones the process has loaded; SQLite's
    /// backup API then sets the cookie one past the file's, so keys of the restored content
    /// never meet keys of what was there (the cookie only grows: schema changes and restores).
    private var fileIdentity: String
    /// Catalog rows by id, valid while `PRAGMA data_version` is unchanged.
    private var cache: [String: (catalog: StoredCatalog, version: Int64)] = [:]
    private var cacheVersion = -1
    private var indexReaders: [Int64: SQLiteIndexReader] = [:]
    public let indexCache: SearchIndexCache

    init(connection: Connection, path: String, indexCache: SearchIndexCache, identity: String? = nil) {
        self.connection = connection
        self.path = path
        self.indexCache = indexCache
        self.identity = identity ?? path
        fileIdentity = self.identity
    }

    public func catalogs() throws -> [CatalogSummary] {
        // The visibility and the description are members of the definition (``CatalogDefinition``),
        // absent when public and when there is none: the stored JSON needs no column of its own.
        let statement = try connection.cached(
            """
            SELECT id, title, locale, item_count, json_extract(definition, '$.visibility'),
                json_extract(definition, '$.description') FROM catalogs ORDER BY id
            """)
        var result: [CatalogSummary] = []
        try statement.forEachRow { row in
            result.append(
                CatalogSummary(
                    id: row.text(0), title: row.text(1), locale: row.text(2), count: row.int(3),
                    visibility: CatalogVisibility(rawValue: row.text(4)) ?? .public, description: row.optionalText(5)))
        }
        return result
    }

    public func catalog(_ id: String) throws -> StoredCatalog? {
        try stored(id)?.catalog
    }

    /// The catalog and the number of its current data version.
    func stored(_ id: String) throws -> (catalog: StoredCatalog, version: Int64)? {
        try forgetIfChanged()
        if let cached = cache[id] { return cached }
        let statement = try connection.cached(
            """
            SELECT id, title, locale, item_count, definition, section_labels, categories, collation_version, version,
                change FROM catalogs WHERE id = ?
            """)
        try statement.bind(id)
        defer { statement.finish() }
        guard try statement.step() else { return nil }
        let version = statement.int64(8)
        let change = statement.int(9)
        let catalog = try StoredColumns.catalog(
            summary: CatalogSummary(
                id: statement.text(0), title: statement.text(1), locale: statement.text(2), count: statement.int(3)),
            definition: statement.blob(4), sectionLabels: statement.blob(5), categories: statement.blob(6),
            collationVersion: statement.text(7),
            versionKey: Self.versionKey(path: fileIdentity, version: version, change: change), change: change)
        cache[id] = (catalog, version)
        return (catalog, version)
    }

    /// Forgets the catalog rows and index readers when the file changed since they were read
    /// (`PRAGMA data_version`), and reads the schema cookie that ``fileIdentity`` carries.
    private func forgetIfChanged() throws {
        let dataVersion = try connection.cached("PRAGMA data_version").scalarInt() ?? 0
        guard dataVersion != cacheVersion else { return }
        cache.removeAll()
        indexReaders.removeAll()
        cacheVersion = dataVersion
        let cookie = try connection.cached("PRAGMA schema_version").scalarInt() ?? 0
        fileIdentity = Self.fileIdentity(identity, schemaCookie: cookie)
    }

    /// What names a file in cache keys: its identity and its schema cookie.
    static func fileIdentity(_ identity: String, schemaCookie: Int) -> String {
        identity + "~" + String(schemaCookie)
    }

    /// The ``StoredCatalog/versionKey`` of a catalog version in the file at `path`.
    static func versionKey(path: String, version: Int64) -> String {
        "\(path)#\(version)"
    }

    /// A catalog's ``StoredCatalog/versionKey``: its data version and its change number, so it
    /// changes with every import and every change of its records or definition.
    static func versionKey(path: String, version: Int64, change: Int) -> String {
        versionKey(path: path, version: version) + "." + String(change)
    }

    private func version(of catalog: StoredCatalog) throws -> Int64 {
        guard let stored = try stored(catalog.id), stored.catalog.versionKey == catalog.versionKey else {
            throw StorageError(.catalogNotFound, "catalog \"\(catalog.id)\" changed or no longer exists")
        }
        return stored.version
    }

    public func sections(of catalog: StoredCatalog) throws -> [SectionCount] {
        let statement = try connection.cached(
            "SELECT label, item_count FROM sections WHERE version = ? ORDER BY position")
        try statement.bind(try version(of: catalog))
        var sections: [SectionCount] = []
        try statement.forEachRow { sections.append(SectionCount(label: $0.text(0), count: $0.int(1))) }
        return sections
    }

    static let hitColumns = "key, id, record, title, subtitle, categories, section, sort_key"
    /// ``hitColumns`` of `items AS i`, for joins.
    static let joinedHitColumns = hitColumns.split(separator: ", ").map { "i.\($0)" }.joined(separator: ", ")
    /// The join of a live table (`o`: item_order, item_categories, item_ids) with its records.
    static let liveJoin = "JOIN items AS i ON i.key = (coalesce(o.segment, o.version) << 32) | o.document"

    /// Decodes a row selected with ``hitColumns`` (from `items`).
    func hit(from row: Statement, version: Int64) -> StoredHit {
        StoredHit(
            document: Int(row.int64(0) & 0xFFFF_FFFF), id: row.text(1), json: row.blob(2), title: row.text(3),
            subtitle: row.optionalText(4), categories: StoredColumns.labels(json: row.blob(5)),
            key: BrowseKey(section: row.int(6), sortKey: row.blob(7), id: row.text(1)))
    }

    public func page(of catalog: StoredCatalog, selection: BrowseSelection, from bound: BrowseBound?, limit: Int) throws
        -> StoredPage
    {
        let version = try version(of: catalog)
        // Index order comes from the key of item_order (every record) or item_categories (a
        // category's); the records themselves by document number.
        var conditions = ["o.version = ?"]
        var values: [any SQLValue] = [version]
        var table = "item_order AS o"
        switch selection {
        case .all:
            break
        case .section(let position):
            conditions.append("o.section = ?")
            values.append(position)
        case .category(let number):
            table = "item_categories AS o"
            conditions.append("o.category = ?")
            values.append(number)
        }
        table += " " + Self.liveJoin
        var descending = false
        if let bound {
            let key: BrowseKey
            let comparison: String
            switch bound {
            case .after(let k):
                key = k
                comparison = ">"
            case .from(let k):
                key = k
                comparison = ">="
            case .before(let k):
                key = k
                comparison = "<"
                descending = true
            }
            if case .section(let position) = selection {
                // Within one section the key's section is known, and a comparison of the rest
                // keeps SQLite on the primary key's range (with the section in the row value it
                // reads every later row and sorts them: 100 ms on a large catalog).
                if key.section == position {
                    conditions.append("(o.sort_key, o.id) \(comparison) (?, ?)")
                    values += [key.sortKey, key.id]
                } else if (key.section < position) == descending {
                    // The whole section lies on the other side of the key.
                    return StoredPage(items: [], hasMore: false)
                }
            } else {
                conditions.append("(o.section, o.sort_key, o.id) \(comparison) (?, ?, ?)")
                values += [key.section, key.sortKey, key.id]
            }
        }
        let direction = descending ? "DESC" : "ASC"
        let order = ["section", "sort_key", "id"].map { "o.\($0) \(direction)" }.joined(separator: ", ")
        let statement = try connection.cached(
            "SELECT \(Self.joinedHitColumns) FROM \(table) WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(order) LIMIT ?"
        )
        try statement.bind(values + [limit + 1])
        defer { statement.finish() }
        var items: [StoredHit] = []
        var more = false
        while try statement.step() {
            if items.count == limit {
                more = true
                break
            }
            items.append(hit(from: statement, version: version))
        }
        if descending { items.reverse() }
        return StoredPage(items: items, hasMore: more)
    }

    public func count(of catalog: StoredCatalog, selection: BrowseSelection, before key: BrowseKey) throws -> Int {
        let version = try version(of: catalog)
        let statement: Statement
        switch selection {
        case .all:
            statement = try connection.cached(
                "SELECT count(*) FROM item_order WHERE version = ? AND (section, sort_key, id) < (?, ?, ?)")
            try statement.bind(version, key.section, key.sortKey, key.id)
        case .section(let position):
            // As a page of one section: the rest of the key compared, within the section.
            if key.section < position { return 0 }
            if key.section > position {
                statement = try connection.cached("SELECT count(*) FROM item_order WHERE version = ? AND section = ?")
                try statement.bind(version, position)
            } else {
                statement = try connection.cached(
                    "SELECT count(*) FROM item_order WHERE version = ? AND section = ? AND (sort_key, id) < (?, ?)")
                try statement.bind(version, position, key.sortKey, key.id)
            }
        case .category(let number):
            statement = try connection.cached(
                """
                SELECT count(*) FROM item_categories WHERE version = ? AND category = ?
                    AND (section, sort_key, id) < (?, ?, ?)
                """)
            try statement.bind(version, number, key.section, key.sortKey, key.id)
        }
        return try statement.scalarInt() ?? 0
    }

    public func item(of catalog: StoredCatalog, id: String) throws -> StoredHit? {
        let version = try version(of: catalog)
        let statement = try connection.cached(
            """
            SELECT \(Self.joinedHitColumns) FROM item_ids AS o \(Self.liveJoin) WHERE o.version = ? AND o.id = ?
            """)
        try statement.bind(version, id)
        defer { statement.finish() }
        return try statement.step() ? hit(from: statement, version: version) : nil
    }

    public func featured(of catalog: StoredCatalog, limit: Int) throws -> [StoredHit] {
        let version = try version(of: catalog)
        let statement = try connection.cached(
            """
            SELECT \(Self.joinedHitColumns) FROM segments AS s JOIN items AS i ON i.version = s.segment
                WHERE s.version = ? AND i.featured IS NOT NULL
                    AND EXISTS (SELECT 1 FROM item_ids AS o WHERE o.version = s.version AND o.id = i.id
                        AND coalesce(o.segment, o.version) = s.segment AND o.document = i.key & 4294967295)
                ORDER BY i.featured, i.section, i.sort_key, i.id LIMIT ?
            """)
        try statement.bind(version, limit)
        var hits: [StoredHit] = []
        try statement.forEachRow { hits.append(hit(from: $0, version: version)) }
        return hits
    }

    public func forEachItem(of catalog: StoredCatalog, _ body: (StoredHit) throws -> Void) throws {
        let version = try version(of: catalog)
        let statement = try connection.prepare(
            """
            SELECT \(Self.joinedHitColumns) FROM item_order AS o \(Self.liveJoin)
                WHERE o.version = ? ORDER BY o.section, o.sort_key, o.id
            """)
        try statement.bind(version)
        while try statement.step() { try body(hit(from: statement, version: version)) }
    }

    public func itemHashes(of catalog: StoredCatalog) throws -> [String: UInt64] {
        let version = try version(of: catalog)
        let statement = try connection.prepare("SELECT id, hash FROM item_ids WHERE version = ?")
        try statement.bind(version)
        var hashes: [String: UInt64] = [:]
        hashes.reserveCapacity(catalog.summary.count)
        while try statement.step() { hashes[statement.text(0)] = UInt64(bitPattern: statement.int64(1)) }
        return hashes
    }

    public func searchSegments(of catalog: StoredCatalog) throws -> [SearchSegment] {
        let version = try version(of: catalog)
        let statement = try connection.cached(
            "SELECT segment, documents, deleted FROM segments WHERE version = ? ORDER BY segment")
        try statement.bind(version)
        var segments: [SearchSegment] = []
        try statement.forEachRow { row in
            let segment = row.int64(0)
            let reader = indexReaders[segment] ?? SQLiteIndexReader(connection: connection, version: segment)
            indexReaders[segment] = reader
            segments.append(
                SearchSegment(
                    key: Self.versionKey(path: fileIdentity, version: segment), number: segment, reader: reader,
                    documents: row.int(1),
                    deleted: row.int(2)))
        }
        return segments
    }

    public func page(of catalog: StoredCatalog, selection: BrowseSelection, position: Int, limit: Int) throws
        -> StoredPage
    {
        let version = try version(of: catalog)
        // A position in the whole list is first found in its section by the section counts, so
        // the engine steps over the rows of one section at most.
        var section: Int?
        var offset = position
        var table = "item_order AS o"
        var conditions = ["o.version = ?"]
        var values: [any SQLValue] = [version]
        switch selection {
        case .all:
            for (index, count) in try sectionCounts(of: catalog, selection: .all) {
                if offset < count {
                    section = index
                    break
                }
                offset -= count
            }
            guard section != nil else { return StoredPage(items: [], hasMore: false) }
        case .section(let index):
            conditions.append("o.section = ?")
            values.append(index)
        case .category(let number):
            table = "item_categories AS o"
            conditions.append("o.category = ?")
            values.append(number)
        }
        if let section {
            conditions.append("o.section >= ?")
            values.append(section)
        }
        let statement = try connection.cached(
            """
            SELECT \(Self.joinedHitColumns) FROM \(table) \(Self.liveJoin) WHERE \(conditions.joined(separator: " AND "))
                ORDER BY o.section, o.sort_key, o.id LIMIT ? OFFSET ?
            """)
        try statement.bind(values + [limit + 1, offset])
        defer { statement.finish() }
        var items: [StoredHit] = []
        var more = false
        while try statement.step() {
            if items.count == limit {
                more = true
                break
            }
            items.append(hit(from: statement, version: version))
        }
        return StoredPage(items: items, hasMore: more)
    }

    public func sectionCounts(of catalog: StoredCatalog, selection: BrowseSelection) throws -> [(
        position: Int, count: Int
    )] {
        let version = try version(of: catalog)
        let statement: Statement
        switch selection {
        case .all, .section:
            statement = try connection.cached(
                "SELECT position, item_count FROM sections WHERE version = ? AND item_count > 0 ORDER BY position")
            try statement.bind(version)
        case .category(let number):
            statement = try connection.cached(
                """
                SELECT section, count(*) FROM item_categories WHERE version = ? AND category = ?
                    GROUP BY section ORDER BY section
                """)
            try statement.bind(version, number)
        }
        var counts: [(position: Int, count: Int)] = []
        try statement.forEachRow { counts.append(($0.int(0), $0.int(1))) }
        if case .section(let index) = selection { counts = counts.filter { $0.position == index } }
        return counts
    }

    public func changes(of catalog: StoredCatalog, since: Int, limit: Int) throws -> [StoredChange] {
        let statement = try connection.cached(
            """
            SELECT \(Self.changeColumns) FROM changes WHERE catalog = ? AND number > ? ORDER BY number LIMIT ?
            """)
        try statement.bind(catalog.id, since, limit)
        return try Self.changes(from: statement)
    }

    public func history(of catalog: StoredCatalog, item: String, limit: Int) throws -> [StoredChange] {
        let statement = try connection.cached(
            """
            SELECT \(Self.changeColumns) FROM changes WHERE catalog = ? AND item = ? ORDER BY number DESC LIMIT ?
            """)
        try statement.bind(catalog.id, item, limit)
        return try Self.changes(from: statement)
    }

    public func storedImage(of catalog: String, item: String) throws -> StoredImage? {
        let statement = try connection.cached(
            "SELECT \(Self.storedImageColumns) FROM stored_images WHERE catalog = ? AND item = ?")
        try statement.bind(catalog, item)
        defer { statement.finish() }
        return try statement.step() ? Self.storedImage(from: statement) : nil
    }

    public func forEachStoredImage(of catalog: String, _ body: (StoredImage) throws -> Void) throws {
        let statement = try connection.prepare(
            "SELECT \(Self.storedImageColumns) FROM stored_images WHERE catalog = ? ORDER BY item")
        try statement.bind(catalog)
        while try statement.step() { try body(Self.storedImage(from: statement)) }
    }

    static let storedImageColumns = "catalog, item, data, content_type, width, height, hash, stored_at"

    static func storedImage(from row: Statement) -> StoredImage {
        StoredImage(
            catalog: row.text(0), item: row.text(1), bytes: row.blob(2), contentType: row.text(3), width: row.int(4),
            height: row.int(5), hash: row.text(6), storedAt: row.text(7))
    }

    public func oldestChange(of catalog: StoredCatalog) throws -> Int? {
        try connection.cached("SELECT min(number) FROM changes WHERE catalog = ?").bind(catalog.id).scalarInt()
    }

    static let changeColumns = "number, kind, item, record, previous, actor, at"

    /// Every row a statement selecting ``changeColumns`` gives.
    static func changes(from statement: Statement) throws -> [StoredChange] {
        var changes: [StoredChange] = []
        try statement.forEachRow { changes.append(change(from: $0)) }
        return changes
    }

    /// Decodes a row selected with ``changeColumns``.
    static func change(from row: Statement) -> StoredChange {
        StoredChange(
            number: row.int(0), kind: StoredChangeKind(rawValue: row.text(1)) ?? .reload, item: row.optionalText(2),
            record: row.optionalText(3).map { Array($0.utf8) }, previous: row.optionalText(4).map { Array($0.utf8) },
            actor: row.optionalText(5), time: row.text(6))
    }
}

/// The search index questions, answered from one catalog version's rows.
final class SQLiteIndexReader: SearchIndexReading {
    private let connection: Connection
    private let version: Int64
    private var chunkStatement: Statement?

    init(connection: Connection, version: Int64) {
        self.connection = connection
        self.version = version
    }

    func postingChunk(term: UInt32, chunk: Int) throws -> [UInt8]? {
        // Kept here: the hottest statement of a search, spared the cache's lookup by SQL text.
        let statement = try chunkStatement ?? connection.prepare("SELECT data FROM search_postings WHERE key = ?")
        chunkStatement = statement
        statement.reset()
        try statement.bind(SQLiteCatalogWriter.postingKey(version: version, chunk: chunk, term: term))
        defer { statement.finish() }
        return try statement.step() ? statement.blob(0) : nil
    }

    func blob(named name: String) throws -> [UInt8]? {
        let statement = try connection.cached("SELECT data FROM search_blobs WHERE version = ? AND name = ?")
        try statement.bind(version, name)
        defer { statement.finish() }
        return try statement.step() ? statement.blob(0) : nil
    }

    func readBlob(named name: String, into write: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        let statement = try connection.cached("SELECT rowid FROM search_blobs WHERE version = ? AND name = ?")
        try statement.bind(version, name)
        let rowid = try statement.step() ? statement.int64(0) : nil
        statement.finish()
        guard let rowid else { return false }
        // A piece at a time: a lexicon of tens of megabytes never sits whole on the heap.
        guard let blob = Blob(connection: connection, table: "search_blobs", column: "data", rowid: rowid) else {
            throw StorageError(.engine, "cannot read the search index's \(name)")
        }
        try blob.read(write)
        return true
    }

    func hits(documents: [Int]) throws -> [StoredHit] {
        let statement = try connection.cached("SELECT \(SQLiteCatalogReader.hitColumns) FROM items WHERE key = ?")
        var hits: [StoredHit] = []
        hits.reserveCapacity(documents.count)
        for document in documents {
            statement.reset()
            try statement.bind(version << 32 | Int64(document))
            if try statement.step() {
                hits.append(
                    StoredHit(
                        document: document, id: statement.text(1), json: statement.blob(2), title: statement.text(3),
                        subtitle: statement.optionalText(4),
                        categories: StoredColumns.labels(json: statement.blob(5)),
                        key: BrowseKey(section: statement.int(6), sortKey: statement.blob(7), id: statement.text(1))))
            }
        }
        statement.finish()
        return hits
    }

    func deletedDocuments(since change: Int) throws -> [UInt32] {
        let statement = try connection.cached(
            "SELECT document FROM deleted_documents WHERE segment = ? AND change > ?")
        try statement.bind(version, change)
        var documents: [UInt32] = []
        try statement.forEachRow { documents.append(UInt32(truncatingIfNeeded: $0.int64(0))) }
        return documents
    }

    func titles(documents: [Int]) throws -> [String] {
        try texts("title", documents: documents)
    }

    func ids(documents: [Int]) throws -> [String] {
        try texts("id", documents: documents)
    }

    /// One text column of these documents' rows, in the order given (`""` for a missing one).
    private func texts(_ column: StaticString, documents: [Int]) throws -> [String] {
        let statement = try connection.cached("SELECT \(column) FROM items WHERE key = ?")
        var texts: [String] = []
        texts.reserveCapacity(documents.count)
        for document in documents {
            statement.reset()
            try statement.bind(version << 32 | Int64(document))
            texts.append(try statement.step() ? statement.text(0) : "")
        }
        statement.finish()
        return texts
    }
}
