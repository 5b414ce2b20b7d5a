import CatalogModel
import CatalogStorage
import Foundation

/// Reads on one connection, in the snapshot its owner (``PostgresDatabase/read(_:)``) keeps open.
/// Not Sendable: it belongs to one thread.
public final class PostgresCatalogReader: CatalogReader {
    let connection: PostgresConnection
    /// Names this database in version keys (`catalog_state.database_id`).
    private let databaseID: String
    private let postings: PostingCache
    /// Catalog rows by id, and the segments of catalog data versions, valid while the
    /// snapshot's data version is unchanged (every write bumps it: an import, a change of
    /// records, a definition).
    private var cache: [String: (catalog: StoredCatalog, version: Int64)] = [:]
    private var segmentCache: [Int64: [SearchSegment]] = [:]
    private var cacheVersion: Int64 = -1
    private var indexReaders: [Int64: PostgresIndexReader] = [:]
    /// The data version the current snapshot sees (set by the owner when a snapshot begins).
    var dataVersion: Int64 = -1
    /// Begins a new snapshot after the connection was lost (set by the owner).
    var restart: (() throws -> Void)?
    public let indexCache: SearchIndexCache

    init(connection: PostgresConnection, databaseID: String, postings: PostingCache, indexCache: SearchIndexCache) {
        self.connection = connection
        self.databaseID = databaseID
        self.postings = postings
        self.indexCache = indexCache
    }

    /// Runs a read statement. When the connection was lost in the middle of the snapshot (the
    /// server restarted, or ended the session), the read goes on once in a new snapshot on a new
    /// connection: a read is safe to repeat, and a later version a request then sees is no worse
    /// than the next request's.
    private func read(_ sql: String, _ values: [PostgresValue] = []) throws -> PostgresResult {
        do {
            return try connection.query(sql, values)
        } catch {
            guard connection.isLost(after: error), let restart else { throw error }
            try restart()
        }
        return try connection.query(sql, values)
    }

    /// Runs one batch of a walk over a catalog's rows. When the connection was lost between
    /// batches (a consumer slower than the idle timeout), the walk goes on in a new snapshot if
    /// the catalog is still as the walk found it (no import or change since).
    private func batch(of catalog: StoredCatalog, _ sql: String, _ values: [PostgresValue]) throws -> PostgresResult {
        do {
            return try connection.query(sql, values)
        } catch {
            guard connection.isLost(after: error), let restart else { throw error }
            try restart()
            guard try stored(catalog.id)?.catalog.versionKey == catalog.versionKey else {
                throw StorageError(.catalogNotFound, "catalog \"\(catalog.id)\" changed while it was read")
            }
        }
        return try connection.query(sql, values)
    }

    public func catalogs() throws -> [CatalogSummary] {
        // The visibility and the description are members of the definition (``CatalogDefinition``),
        // absent when public and when there is none: the stored JSON needs no column of its own.
        let rows = try read(
            """
            SELECT id, title, locale, item_count, coalesce(definition::json->>'visibility', ''),
                coalesce(definition::json->>'description', '') FROM catalogs ORDER BY id
            """
        )
        return (0..<rows.count).map { row in
            let description = rows.text(row, 5)
            return CatalogSummary(
                id: rows.text(row, 0), title: rows.text(row, 1), locale: rows.text(row, 2), count: rows.int(row, 3),
                visibility: CatalogVisibility(rawValue: rows.text(row, 4)) ?? .public,
                description: description.isEmpty ? nil : description)
        }
    }

    public func catalog(_ id: String) throws -> StoredCatalog? {
        try stored(id)?.catalog
    }

    /// The catalog and the number of its current data version; with `forUpdate`, read afresh
    /// and its row locked until the transaction ends (a writer's change of its records).
    func stored(_ id: String, forUpdate: Bool = false) throws -> (catalog: StoredCatalog, version: Int64)? {
        if dataVersion != cacheVersion || dataVersion < 0 {
            cache.removeAll()
            segmentCache.removeAll()
            indexReaders.removeAll()
            cacheVersion = dataVersion
        }
        if !forUpdate, let cached = cache[id] { return cached }
        guard !id.utf8.contains(0) else { return nil }
        let rows = try read(
            """
            SELECT id, title, locale, item_count, definition, section_labels, categories, collation_version, version,
                change FROM catalogs WHERE id = $1
            """ + (forUpdate ? " FOR UPDATE" : ""), [.text(id)])
        guard rows.count == 1 else { return nil }
        let version = rows.int64(0, 8)
        let change = rows.int(0, 9)
        let catalog = try StoredColumns.catalog(
            summary: CatalogSummary(
                id: rows.text(0, 0), title: rows.text(0, 1), locale: rows.text(0, 2), count: rows.int(0, 3)),
            definition: rows.bytes(0, 4), sectionLabels: rows.bytes(0, 5), categories: rows.bytes(0, 6),
            collationVersion: rows.text(0, 7), versionKey: "postgres:\(databaseID)#\(version).\(change)",
            change: change)
        if dataVersion >= 0 { cache[id] = (catalog, version) }
        return (catalog, version)
    }

    /// The cache key of a segment (its loaded index, its deletions): segment numbers are never
    /// reused in a database, and a segment's index never changes.
    func segmentKey(_ segment: Int64) -> String {
        "postgres:\(databaseID)#\(segment)"
    }

    private func version(of catalog: StoredCatalog) throws -> Int64 {
        guard let stored = try stored(catalog.id), stored.catalog.versionKey == catalog.versionKey else {
            throw StorageError(.catalogNotFound, "catalog \"\(catalog.id)\" changed or no longer exists")
        }
        return stored.version
    }

    public func sections(of catalog: StoredCatalog) throws -> [SectionCount] {
        let rows = try read(
            "SELECT label, item_count FROM sections WHERE version = $1 ORDER BY position",
            [.int8(try version(of: catalog))])
        return (0..<rows.count).map { SectionCount(label: rows.text($0, 0), count: rows.int($0, 1)) }
    }

    static let hitColumns = ["document", "id", "record", "title", "subtitle", "categories", "section", "sort_key"]
    /// ``hitColumns`` of `items AS i`, for joins.
    static let joinedHitColumns = hitColumns.map { "i.\($0)" }.joined(separator: ", ")
    /// The live records of a category (`c`) with their items (`i`): a category row names its
    /// record's segment (NULL: the base, whose number is the data version).
    static let categoryJoin =
        "item_categories AS c JOIN items AS i ON i.version = coalesce(c.segment, c.version) AND i.document = c.document"

    /// Decodes a row selected with ``hitColumns``.
    static func hit(_ rows: PostgresResult, _ row: Int) -> StoredHit {
        let id = rows.text(row, 1)
        return StoredHit(
            document: rows.int(row, 0), id: id, json: rows.bytes(row, 2), title: rows.text(row, 3),
            subtitle: rows.optionalText(row, 4), categories: StoredColumns.labels(json: rows.bytes(row, 5)),
            key: BrowseKey(section: rows.int(row, 6), sortKey: rows.bytes(row, 7), id: id))
    }

    /// The table and conditions of a selection's live records (`i`: items).
    private static func source(of selection: BrowseSelection, version: Int64, statement: inout Statement) -> (
        table: String, conditions: [String]
    ) {
        let version = statement.bind(.int8(version))
        switch selection {
        case .all:
            return ("items AS i", ["i.live = \(version)"])
        case .section(let position):
            return ("items AS i", ["i.live = \(version)", "i.section = \(statement.bind(.int(position)))"])
        case .category(let number):
            // The category's records in index order come from item_categories' key.
            return (categoryJoin, ["c.version = \(version)", "c.category = \(statement.bind(.int(number)))"])
        }
    }

    /// The prefix of the columns a selection is ordered by.
    private static func orderPrefix(_ selection: BrowseSelection) -> String {
        if case .category = selection { return "c." }
        return "i."
    }

    public func page(of catalog: StoredCatalog, selection: BrowseSelection, from bound: BrowseBound?, limit: Int) throws
        -> StoredPage
    {
        var statement = Statement()
        var (table, conditions) = Self.source(
            of: selection, version: try version(of: catalog), statement: &statement)
        let prefix = Self.orderPrefix(selection)
        var descending = false
        if let bound {
            let comparison: KeyComparison
            switch bound {
            case .after(let key): comparison = KeyComparison(.greater, key)
            case .from(let key): comparison = KeyComparison(.greaterOrEqual, key)
            case .before(let key):
                comparison = KeyComparison(.less, key)
                descending = true
            }
            conditions.append(comparison.condition(prefix: prefix, statement: &statement))
        }
        let direction = descending ? "DESC" : "ASC"
        let order = ["section", "sort_key", "id"].map { "\(prefix)\($0) \(direction)" }.joined(separator: ", ")
        let rows = try read(
            "SELECT \(Self.joinedHitColumns) FROM \(table) WHERE \(conditions.joined(separator: " AND ")) "
                + "ORDER BY \(order) LIMIT \(statement.bind(.int(limit + 1)))", statement.values)
        var items = (0..<min(rows.count, limit)).map { Self.hit(rows, $0) }
        if descending { items.reverse() }
        return StoredPage(items: items, hasMore: rows.count > limit)
    }

    public func count(of catalog: StoredCatalog, selection: BrowseSelection, before key: BrowseKey) throws -> Int {
        var statement = Statement()
        let version = statement.bind(.int8(try version(of: catalog)))
        let table: String
        var conditions: [String]
        switch selection {
        case .all:
            table = "items"
            conditions = ["live = \(version)"]
        case .section(let position):
            table = "items"
            conditions = ["live = \(version)", "section = \(statement.bind(.int(position)))"]
        case .category(let number):
            table = "item_categories"
            conditions = ["version = \(version)", "category = \(statement.bind(.int(number)))"]
        }
        conditions.append(KeyComparison(.less, key).condition(prefix: "", statement: &statement))
        return try read(
            "SELECT count(*) FROM \(table) WHERE \(conditions.joined(separator: " AND "))", statement.values
        ).int(0, 0)
    }

    public func item(of catalog: StoredCatalog, id: String) throws -> StoredHit? {
        let version = try version(of: catalog)
        // PostgreSQL text cannot hold NUL, so no stored record has such an id.
        guard !id.utf8.contains(0) else { return nil }
        let rows = try read(
            "SELECT \(Self.hitColumns.joined(separator: ", ")) FROM items WHERE live = $1 AND id = $2",
            [.int8(version), .text(id)])
        return rows.count == 1 ? Self.hit(rows, 0) : nil
    }

    public func featured(of catalog: StoredCatalog, limit: Int) throws -> [StoredHit] {
        let rows = try read(
            """
            SELECT \(Self.hitColumns.joined(separator: ", ")) FROM items WHERE live = $1 AND featured IS NOT NULL
                ORDER BY featured, section, sort_key, id LIMIT $2
            """, [.int8(try version(of: catalog)), .int(limit)])
        return (0..<rows.count).map { Self.hit(rows, $0) }
    }

    /// Rows read per round trip when walking a whole catalog.
    static let batchSize = 2_000

    public func forEachItem(of catalog: StoredCatalog, _ body: (StoredHit) throws -> Void) throws {
        let version = try version(of: catalog)
        let columns = Self.hitColumns.joined(separator: ", ")
        var after: BrowseKey?
        var delivered = 0
        while true {
            let rows: PostgresResult
            if let after {
                rows = try batch(
                    of: catalog,
                    """
                    SELECT \(columns) FROM items WHERE live = $1 AND (section, sort_key, id) > ($2, $3, $4)
                        ORDER BY section, sort_key, id LIMIT $5
                    """,
                    [.int8(version), .int(after.section), .bytea(after.sortKey), .text(after.id), .int(Self.batchSize)])
            } else {
                rows = try batch(
                    of: catalog,
                    "SELECT \(columns) FROM items WHERE live = $1 ORDER BY section, sort_key, id LIMIT $2",
                    [.int8(version), .int(Self.batchSize)])
            }
            for row in 0..<rows.count {
                let hit = Self.hit(rows, row)
                try body(hit)
                after = hit.key
            }
            delivered += rows.count
            if rows.count < Self.batchSize { break }
        }
        guard delivered == catalog.summary.count else {
            throw StorageError(.catalogNotFound, "catalog \"\(catalog.id)\" changed while it was read")
        }
    }

    /// Ids read per round trip by ``itemHashes(of:)``.
    static let hashBatchSize = 100_000

    public func itemHashes(of catalog: StoredCatalog) throws -> [String: UInt64] {
        let version = try version(of: catalog)
        var hashes: [String: UInt64] = [:]
        hashes.reserveCapacity(catalog.summary.count)
        var after: String?
        while true {
            let rows: PostgresResult
            if let after {
                rows = try batch(
                    of: catalog, "SELECT id, hash FROM items WHERE live = $1 AND id > $2 ORDER BY id LIMIT $3",
                    [.int8(version), .text(after), .int(Self.hashBatchSize)])
            } else {
                rows = try batch(
                    of: catalog, "SELECT id, hash FROM items WHERE live = $1 ORDER BY id LIMIT $2",
                    [.int8(version), .int(Self.hashBatchSize)])
            }
            for row in 0..<rows.count { hashes[rows.text(row, 0)] = UInt64(bitPattern: rows.int64(row, 1)) }
            if rows.count < Self.hashBatchSize { break }
            after = rows.text(rows.count - 1, 0)
        }
        return hashes
    }

    public func searchSegments(of catalog: StoredCatalog) throws -> [SearchSegment] {
        let version = try version(of: catalog)
        if let cached = segmentCache[version] { return cached }
        let rows = try read(
            "SELECT segment, documents, deleted FROM segments WHERE version = $1 ORDER BY segment", [.int8(version)])
        var segments: [SearchSegment] = []
        for row in 0..<rows.count {
            let segment = rows.int64(row, 0)
            let documents = rows.int(row, 1)
            let reader =
                indexReaders[segment]
                ?? PostgresIndexReader(
                    connection: connection, segment: segment, documents: documents, postings: postings)
            indexReaders[segment] = reader
            segments.append(
                SearchSegment(
                    key: segmentKey(segment), number: segment, reader: reader, documents: documents,
                    deleted: rows.int(row, 2)))
        }
        if dataVersion >= 0 { segmentCache[version] = segments }
        return segments
    }

    public func page(of catalog: StoredCatalog, selection: BrowseSelection, position: Int, limit: Int) throws
        -> StoredPage
    {
        var statement = Statement()
        var (table, conditions) = Self.source(
            of: selection, version: try version(of: catalog), statement: &statement)
        let prefix = Self.orderPrefix(selection)
        // A position in the whole list is first found in its section by the section counts, so
        // the server steps over the rows of one section at most.
        var offset = position
        if case .all = selection {
            var section: Int?
            for (index, count) in try sectionCounts(of: catalog, selection: .all) {
                if offset < count {
                    section = index
                    break
                }
                offset -= count
            }
            guard let section else { return StoredPage(items: [], hasMore: false) }
            conditions.append("i.section >= \(statement.bind(.int(section)))")
        }
        let order = ["section", "sort_key", "id"].map { "\(prefix)\($0)" }.joined(separator: ", ")
        let rows = try read(
            "SELECT \(Self.joinedHitColumns) FROM \(table) WHERE \(conditions.joined(separator: " AND ")) "
                + "ORDER BY \(order) LIMIT \(statement.bind(.int(limit + 1))) OFFSET \(statement.bind(.int(offset)))",
            statement.values)
        let items = (0..<min(rows.count, limit)).map { Self.hit(rows, $0) }
        return StoredPage(items: items, hasMore: rows.count > limit)
    }

    public func sectionCounts(of catalog: StoredCatalog, selection: BrowseSelection) throws -> [(
        position: Int, count: Int
    )] {
        let version = try version(of: catalog)
        let rows: PostgresResult
        switch selection {
        case .all:
            rows = try read(
                "SELECT position, item_count FROM sections WHERE version = $1 AND item_count > 0 ORDER BY position",
                [.int8(version)])
        case .section(let index):
            rows = try read(
                "SELECT position, item_count FROM sections WHERE version = $1 AND position = $2 AND item_count > 0",
                [.int8(version), .int(index)])
        case .category(let number):
            rows = try read(
                """
                SELECT section, count(*) FROM item_categories WHERE version = $1 AND category = $2
                    GROUP BY section ORDER BY section
                """, [.int8(version), .int(number)])
        }
        return (0..<rows.count).map { (position: rows.int($0, 0), count: rows.int($0, 1)) }
    }

    public func changes(of catalog: StoredCatalog, since: Int, limit: Int) throws -> [StoredChange] {
        let rows = try read(
            "SELECT \(Self.changeColumns) FROM changes WHERE catalog = $1 AND number > $2 ORDER BY number LIMIT $3",
            [.text(catalog.id), .int(since), .int(limit)])
        return (0..<rows.count).map { Self.change(rows, $0) }
    }

    public func history(of catalog: StoredCatalog, item: String, limit: Int) throws -> [StoredChange] {
        guard !item.utf8.contains(0) else { return [] }
        let rows = try read(
            """
            SELECT \(Self.changeColumns) FROM changes WHERE catalog = $1 AND item = $2
                ORDER BY number DESC LIMIT $3
            """, [.text(catalog.id), .text(item), .int(limit)])
        return (0..<rows.count).map { Self.change(rows, $0) }
    }

    public func storedImage(of catalog: String, item: String) throws -> StoredImage? {
        guard !catalog.utf8.contains(0), !item.utf8.contains(0) else { return nil }
        let rows = try read(
            "SELECT \(Self.storedImageColumns) FROM stored_images WHERE catalog = $1 AND item = $2",
            [.text(catalog), .text(item)])
        return rows.count == 1 ? Self.storedImage(rows, 0) : nil
    }

    /// Images read per round trip when walking a catalog's stored images.
    static let storedImageBatch = 32

    public func forEachStoredImage(of catalog: String, _ body: (StoredImage) throws -> Void) throws {
        guard !catalog.utf8.contains(0) else { return }
        var after = ""
        while true {
            let rows = try read(
                """
                SELECT \(Self.storedImageColumns) FROM stored_images WHERE catalog = $1 AND item > $2
                    ORDER BY item LIMIT $3
                """, [.text(catalog), .text(after), .int(Self.storedImageBatch)])
            for row in 0..<rows.count { try body(Self.storedImage(rows, row)) }
            guard rows.count == Self.storedImageBatch else { return }
            after = rows.text(rows.count - 1, 1)
        }
    }

    static let storedImageColumns = "catalog, item, data, content_type, width, height, hash, stored_at"

    /// Decodes a row selected with ``storedImageColumns``.
    static func storedImage(_ rows: PostgresResult, _ row: Int) -> StoredImage {
        StoredImage(
            catalog: rows.text(row, 0), item: rows.text(row, 1), bytes: rows.bytes(row, 2),
            contentType: rows.text(row, 3), width: rows.int(row, 4), height: rows.int(row, 5),
            hash: rows.text(row, 6), storedAt: rows.text(row, 7))
    }

    public func oldestChange(of catalog: StoredCatalog) throws -> Int? {
        let rows = try read("SELECT min(number) FROM changes WHERE catalog = $1", [.text(catalog.id)])
        return rows.optionalInt(0, 0)
    }

    static let changeColumns = "number, kind, item, record, previous, actor, at"

    /// Decodes a row selected with ``changeColumns``.
    static func change(_ rows: PostgresResult, _ row: Int) -> StoredChange {
        StoredChange(
            number: rows.int(row, 0), kind: StoredChangeKind(rawValue: rows.text(row, 1)) ?? .reload,
            item: rows.optionalText(row, 2), record: rows.isNull(row, 3) ? nil : rows.bytes(row, 3),
            previous: rows.isNull(row, 4) ? nil : rows.bytes(row, 4), actor: rows.optionalText(row, 5),
            time: rows.text(row, 6))
    }
}

/// A statement's values as they are bound: each call returns the placeholder (`$1`, `$2`, …).
struct Statement {
    private(set) var values: [PostgresValue] = []

    mutating func bind(_ value: PostgresValue) -> String {
        values.append(value)
        return "$\(values.count)"
    }
}

/// A condition on the index order, `(section, sort_key, id) OP (…)`, exact for every key.
///
/// Ids compare as UTF-8 bytes. PostgreSQL text cannot hold NUL, so no stored id has one; a
/// key whose id has a NUL (from a crafted cursor) is compared as its part before the NUL,
/// which every stored id orders against the same way: `x < "a\0b"` exactly when `x <= "a"`.
struct KeyComparison {
    enum Operator: String {
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    var comparison: Operator
    var key: BrowseKey

    init(_ comparison: Operator, _ key: BrowseKey) {
        guard let nul = key.id.utf8.firstIndex(of: 0) else {
            self.comparison = comparison
            self.key = key
            return
        }
        var truncated = key
        truncated.id = String(decoding: key.id.utf8[..<nul], as: UTF8.self)
        self.key = truncated
        switch comparison {
        case .less, .lessOrEqual: self.comparison = .lessOrEqual
        case .greater, .greaterOrEqual: self.comparison = .greater
        }
    }

    func condition(prefix: String, statement: inout Statement) -> String {
        let section = statement.bind(.int(key.section))
        let sortKey = statement.bind(.bytea(key.sortKey))
        let id = statement.bind(.text(key.id))
        return
            "(\(prefix)section, \(prefix)sort_key, \(prefix)id) \(comparison.rawValue) (\(section), \(sortKey), \(id))"
    }
}
