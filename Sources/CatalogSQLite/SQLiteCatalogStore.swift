import CSQLite
import CatalogCollation
import CatalogModel
import CatalogStorage
import Foundation

/// The SQLite storage engine: every catalog in one file.
///
/// Records of a catalog are stored in index order: a record's `ord` is the catalog's number
/// shifted left 32 bits plus its position (section, then collation key). Browsing is a keyset
/// range scan, and the full-text tables use the same numbers as their rowids, so a search walks
/// matches in index order and stops after the first page instead of ranking every match.
///
/// Not Sendable: one store per thread. Open several on the same file for several threads.
///
/// ```swift
/// let store = try SQLiteCatalogStore(path: "catalog.sqlite")
/// defer { store.close() }
/// let results = try store.search("gulyas", in: "cookbook", scope: nil, limit: 20)
/// ```
public final class SQLiteCatalogStore: CatalogStore {
    /// The connection, for the engine's own extensions.
    let connection: Connection
    /// The file's path.
    public let path: String
    /// Whether the store was opened without write access.
    public let isReadOnly: Bool
    /// Catalog metadata by id, valid while `PRAGMA data_version` is unchanged.
    var cache: [String: CatalogState] = [:]
    var cacheVersion: Int = -1

    /// Bytes of the file mapped into memory for reads: pages come straight from the OS cache
    /// instead of being copied by `pread`.
    static let mmapSize = 1 << 30

    /// `PRAGMA application_id` of catalog databases ("CTLG").
    static let applicationID = 0x4354_4C47

    /// How much memory a connection may use for the database's pages.
    public struct MemoryUse: Sendable, Equatable {
        /// Page cache, in KiB.
        public var cacheKiB: Int
        /// Bytes of the file mapped into memory (0: read with `pread` into the page cache).
        public var mmapBytes: Int

        /// Imports and the CLI: a 32 MB cache and 1 GB of the file mapped.
        public static let standard = MemoryUse(cacheKiB: 32_768, mmapBytes: SQLiteCatalogStore.mmapSize)
        /// A server's read-only connections: the file mapped (searches read index pages in
        /// place, 2.5 times faster than through `pread`) and a small private cache. Mapped pages
        /// are the OS's file cache, shared and reclaimable: they count in a process's RSS as
        /// file pages (`RssFile`), while its own memory (`RssAnon`) stays small.
        public static let server = MemoryUse(cacheKiB: 8_192, mmapBytes: SQLiteCatalogStore.mmapSize)
        /// No mapping and a small cache: the least resident memory, at a cost in speed.
        public static let compact = MemoryUse(cacheKiB: 8_192, mmapBytes: 0)

        /// Creates a setting.
        public init(cacheKiB: Int, mmapBytes: Int) {
            self.cacheKiB = cacheKiB
            self.mmapBytes = mmapBytes
        }
    }

    /// Opens (and, unless read-only, creates and migrates) the database at `path`.
    ///
    /// - Parameters:
    ///   - path: the SQLite file.
    ///   - readOnly: open without write access; the file must exist and be migrated.
    ///   - memory: page cache and memory map sizes.
    /// - Throws: ``StorageError`` `.cannotOpen` for a missing, foreign or newer file.
    public init(path: String, readOnly: Bool = false, memory: MemoryUse = .standard) throws(StorageError) {
        self.path = path
        isReadOnly = readOnly
        connection = try Connection(path: path, mode: readOnly ? .readOnly : .readWriteCreate)
        do {
            try configure(readOnly: readOnly, memory: memory)
        } catch let error as StorageError {
            connection.close()
            throw error
        } catch {
            connection.close()
            throw StorageError(.engine, "\(error)")
        }
    }

    private func configure(readOnly: Bool, memory: MemoryUse) throws {
        try connection.execute(
            "PRAGMA foreign_keys = ON; PRAGMA temp_store = FILE; PRAGMA cache_size = -\(memory.cacheKiB); "
                + "PRAGMA temp.cache_size = -\(memory.cacheKiB); PRAGMA mmap_size = \(memory.mmapBytes)"
        )
        let applicationID = try connection.cached("PRAGMA application_id").scalarInt() ?? 0
        let tableCount = try connection.cached("SELECT count(*) FROM sqlite_schema").scalarInt() ?? 0
        if applicationID != Self.applicationID && (applicationID != 0 || tableCount > 0) {
            throw StorageError(.cannotOpen, "\(path) is not a catalog database")
        }
        if readOnly {
            if tableCount == 0 { throw StorageError(.cannotOpen, "\(path) is not a catalog database (it is empty)") }
            let version = try connection.cached("PRAGMA user_version").scalarInt() ?? 0
            if version != Schema.currentVersion {
                throw StorageError(
                    .cannotOpen, "\(path) has schema version \(version), this program needs \(Schema.currentVersion)")
            }
            return
        }
        try connection.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
        if applicationID == 0 { try connection.execute("PRAGMA application_id = \(Self.applicationID)") }
        try Schema.migrate(connection)
        for id in try catalogsNeedingReindex() { try reindex(id) }
    }

    // MARK: - Snapshots

    /// Starts a read transaction that every following read shares until ``endSnapshot()``.
    ///
    /// A server answering many small requests on one connection saves the file locking that
    /// each statement's own transaction costs (about 12 µs of a 19 µs record lookup here); it ends
    /// and restarts the snapshot often enough to see new data. Writes are not allowed meanwhile.
    public func beginSnapshot() throws {
        guard !inSnapshot else { return }
        try connection.execute("BEGIN DEFERRED")
    }

    /// Ends the snapshot started by ``beginSnapshot()``; later reads see the newest data.
    public func endSnapshot() {
        guard inSnapshot else { return }
        try? connection.execute("COMMIT")
    }

    /// A number that changes whenever another connection changed the database
    /// (`PRAGMA data_version`); constant inside a snapshot.
    public func dataVersion() throws -> Int {
        try connection.cached("PRAGMA data_version").scalarInt() ?? 0
    }

    /// True between ``beginSnapshot()`` and ``endSnapshot()``.
    public var inSnapshot: Bool { !connection.isAutocommit }

    /// Closes the database. The store must not be used afterwards.
    public func close() {
        connection.close()
    }

    // MARK: - Catalog metadata

    /// What the store keeps in memory about a catalog.
    struct CatalogState {
        var number: Int64
        var definition: CatalogDefinition
        var itemCount: Int
        var labels: [String]
        /// Category numbers by label.
        var categoryNumbers: [String: Int]
        var categoryCounts: [String: Int]

        var ordRange: Range<Int64> { (number << 32)..<((number + 1) << 32) }
        var titleWords: String { "title_words_\(number)" }
        var textWords: String { "text_words_\(number)" }
        var titleSuffixes: String { "title_suffixes_\(number)" }
        /// Bits of categories in the scope masks.
        var categoryBits: [String: Int]
    }

    /// The state of catalog `id`, reloaded when another connection changed the file.
    func state(_ id: String) throws -> CatalogState? {
        let version = try connection.cached("PRAGMA data_version").scalarInt() ?? 0
        if version != cacheVersion {
            cache.removeAll()
            cacheVersion = version
        }
        if let state = cache[id] { return state }
        let statement = try connection.cached(
            "SELECT number, definition, item_count, section_labels FROM catalogs WHERE id = ?")
        try statement.bind(id)
        defer { statement.finish() }
        guard try statement.step() else { return nil }
        let number = statement.int64(0)
        let definition = try JSONDecoder().decode(CatalogDefinition.self, from: Data(statement.text(1).utf8))
        let itemCount = statement.int(2)
        let labels = try JSONDecoder().decode([String].self, from: Data(statement.text(3).utf8))
        var numbers: [String: Int] = [:]
        var counts: [String: Int] = [:]
        var bits: [String: Int] = [:]
        let categories = try connection.cached(
            "SELECT number, name, item_count, mask_bit FROM categories WHERE catalog_number = ?")
        try categories.bind(number)
        try categories.forEachRow { row in
            numbers[row.text(1)] = row.int(0)
            counts[row.text(1)] = row.int(2)
            if let bit = row.optionalInt(3) { bits[row.text(1)] = bit }
        }
        let state = CatalogState(
            number: number, definition: definition, itemCount: itemCount, labels: labels,
            categoryNumbers: numbers, categoryCounts: counts, categoryBits: bits)
        cache[id] = state
        return state
    }

    func requireState(_ id: String) throws -> CatalogState {
        guard let state = try state(id) else {
            throw StorageError(.catalogNotFound, "no catalog named \"\(id)\"")
        }
        return state
    }

    public func catalogs() throws -> [CatalogSummary] {
        let statement = try connection.cached("SELECT id, title, locale, item_count FROM catalogs ORDER BY id")
        var result: [CatalogSummary] = []
        try statement.forEachRow { row in
            result.append(CatalogSummary(id: row.text(0), title: row.text(1), locale: row.text(2), count: row.int(3)))
        }
        return result
    }

    public func definition(of id: String) throws -> CatalogDefinition? {
        try state(id)?.definition
    }

    public func deleteCatalog(_ id: String) throws -> Bool {
        guard let state = try state(id) else { return false }
        try connection.transaction {
            try dropSearchTables(of: state)
            try connection.cached("DELETE FROM items WHERE ord >= ? AND ord < ?")
                .bind(state.ordRange.lowerBound, state.ordRange.upperBound).run()
            try connection.cached("DELETE FROM catalogs WHERE number = ?").bind(state.number).run()
        }
        cache.removeAll()
        return true
    }

    func dropSearchTables(of state: CatalogState) throws {
        for table in [state.titleWords, state.textWords, state.titleSuffixes] {
            try connection.execute("DROP TABLE IF EXISTS \(table)")
            connection.forgetStatements(containing: table)
        }
    }

    // MARK: - Rows to records

    static let recordColumns =
        "ord, id, title, subtitle, description, categories, price, currency, quantity, country, image, featured, fields, section"

    /// Decodes a row selected with ``recordColumns``.
    func record(from row: Statement, labels: [String]) -> Record {
        var record = Record(id: row.text(1), title: row.text(2))
        record.subtitle = row.optionalText(3)
        record.description = row.optionalText(4)
        record.categories = StoredJSON.decodeStrings(row.text(5))
        record.price = row.optionalText(6).flatMap(DecimalText.parse)
        record.currency = row.optionalText(7)
        record.quantity = row.optionalInt(8)
        record.country = row.optionalText(9)
        record.image = row.optionalText(10)
        record.featured = row.optionalInt(11)
        record.fields = StoredJSON.decodeFields(row.text(12))
        let section = row.int(13)
        record.section = labels.indices.contains(section) ? labels[section] : "#"
        return record
    }
}
