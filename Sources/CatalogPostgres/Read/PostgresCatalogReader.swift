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
    /// Catalog rows by id, valid while the snapshot's data version is unchanged.
    private var cache: [String: (catalog: StoredCatalog, version: Int64)] = [:]
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

    public func catalogs() throws -> [CatalogSummary] {
        let rows = try read("SELECT id, title, locale, item_count FROM catalogs ORDER BY id")
        return (0..<rows.count).map { row in
            CatalogSummary(
                id: rows.text(row, 0), title: rows.text(row, 1), locale: rows.text(row, 2), count: rows.int(row, 3))
        }
    }

    public func catalog(_ id: String) throws -> StoredCatalog? {
        try stored(id)?.catalog
    }

    /// The catalog and the number of its current data version.
    func stored(_ id: String) throws -> (catalog: StoredCatalog, version: Int64)? {
        if dataVersion != cacheVersion || dataVersion < 0 {
            cache.removeAll()
            indexReaders.removeAll()
            cacheVersion = dataVersion
        }
        if let cached = cache[id] { return cached }
        guard !id.utf8.contains(0) else { return nil }
        let rows = try read(
            """
            SELECT id, title, locale, item_count, definition, section_labels, categories, collation_version, version
                FROM catalogs WHERE id = $1
            """, [.text(id)])
        guard rows.count == 1 else { return nil }
        let version = rows.int64(0, 8)
        let catalog = try StoredColumns.catalog(
            summary: CatalogSummary(
                id: rows.text(0, 0), title: rows.text(0, 1), locale: rows.text(0, 2), count: rows.int(0, 3)),
            definition: rows.bytes(0, 4), sectionLabels: rows.bytes(0, 5), categories: rows.bytes(0, 6),
            collationVersion: rows.text(0, 7), versionKey: "postgres:\(databaseID)#\(version)")
        if dataVersion >= 0 { cache[id] = (catalog, version) }
        return (catalog, version)
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

    /// Decodes a row selected with ``hitColumns``.
    static func hit(_ rows: PostgresResult, _ row: Int) -> StoredHit {
        let id = rows.text(row, 1)
        return StoredHit(
            document: rows.int(row, 0), id: id, json: rows.bytes(row, 2), title: rows.text(row, 3),
            subtitle: rows.optionalText(row, 4), categories: StoredColumns.labels(json: rows.bytes(row, 5)),
            key: BrowseKey(section: rows.int(row, 6), sortKey: rows.bytes(row, 7), id: id))
    }

    public func page(of catalog: StoredCatalog, selection: BrowseSelection, from bound: BrowseBound?, limit: Int) throws
        -> StoredPage
    {
        var statement = Statement()
        let version = statement.bind(.int8(try version(of: catalog)))
        var table = "items"
        var prefix = ""
        var conditions: [String]
        switch selection {
        case .all:
            conditions = ["version = \(version)"]
        case .section(let position):
            conditions = ["version = \(version)", "section = \(statement.bind(.int(position)))"]
        case .category(let number):
            // The category's records in index order come from item_categories' key.
            table = "item_categories AS c JOIN items AS i ON i.version = c.version AND i.document = c.document"
            prefix = "c."
            conditions = ["c.version = \(version)", "c.category = \(statement.bind(.int(number)))"]
        }
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
        let columns = Self.hitColumns.map { table == "items" ? $0 : "i.\($0)" }.joined(separator: ", ")
        let rows = try read(
            "SELECT \(columns) FROM \(table) WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(order) "
                + "LIMIT \(statement.bind(.int(limit + 1)))", statement.values)
        var items = (0..<min(rows.count, limit)).map { Self.hit(rows, $0) }
        if descending { items.reverse() }
        return StoredPage(items: items, hasMore: rows.count > limit)
    }

    public func count(of catalog: StoredCatalog, selection: BrowseSelection, before key: BrowseKey) throws -> Int {
        var statement = Statement()
        let version = statement.bind(.int8(try version(of: catalog)))
        let table: String
        var conditions = ["version = \(version)"]
        switch selection {
        case .all:
            table = "items"
        case .section(let position):
            table = "items"
            conditions.append("section = \(statement.bind(.int(position)))")
        case .category(let number):
            table = "item_categories"
            conditions.append("category = \(statement.bind(.int(number)))")
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
            "SELECT \(Self.hitColumns.joined(separator: ", ")) FROM items WHERE version = $1 AND id = $2",
            [.int8(version), .text(id)])
        return rows.count == 1 ? Self.hit(rows, 0) : nil
    }

    public func featured(of catalog: StoredCatalog, limit: Int) throws -> [StoredHit] {
        let rows = try read(
            """
            SELECT \(Self.hitColumns.joined(separator: ", ")) FROM items WHERE version = $1 AND featured IS NOT NULL
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
        func batch() throws -> PostgresResult {
            if let after {
                return try connection.query(
                    """
                    SELECT \(columns) FROM items WHERE version = $1 AND (section, sort_key, id) > ($2, $3, $4)
                        ORDER BY section, sort_key, id LIMIT $5
                    """,
                    [.int8(version), .int(after.section), .bytea(after.sortKey), .text(after.id), .int(Self.batchSize)])
            }
            return try connection.query(
                "SELECT \(columns) FROM items WHERE version = $1 ORDER BY section, sort_key, id LIMIT $2",
                [.int8(version), .int(Self.batchSize)])
        }
        while true {
            let rows: PostgresResult
            do {
                rows = try batch()
            } catch {
                // A consumer slower than the idle timeout lost the session between batches. The
                // version's rows never change, so the walk goes on in a new snapshot (the count
                // below catches a version replaced meanwhile).
                guard connection.isLost(after: error), let restart else { throw error }
                try restart()
                rows = try batch()
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

    public func itemHashes(of catalog: StoredCatalog) throws -> [String: UInt64] {
        let version = try version(of: catalog)
        var hashes: [String: UInt64] = [:]
        hashes.reserveCapacity(catalog.summary.count)
        let step = 100_000
        for first in stride(from: 0, to: max(1, catalog.summary.count), by: step) {
            let rows = try read(
                "SELECT id, hash FROM items WHERE version = $1 AND document >= $2 AND document < $3",
                [.int8(version), .int(first), .int(first + step)])
            for row in 0..<rows.count { hashes[rows.text(row, 0)] = UInt64(bitPattern: rows.int64(row, 1)) }
        }
        return hashes
    }

    public func searchIndex(of catalog: StoredCatalog) throws -> any SearchIndexReading {
        let version = try version(of: catalog)
        if let reader = indexReaders[version] { return reader }
        let reader = PostgresIndexReader(
            connection: connection, version: version, documents: catalog.summary.count, postings: postings)
        indexReaders[version] = reader
        return reader
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
