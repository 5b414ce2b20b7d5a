import CatalogModel

/// A database of catalogs: one SQLite file, or one PostgreSQL database that several servers
/// share. What the server, the command line and the benchmarks program against; engines are
/// opened from a location string (`CatalogEngines.open`), never named.
///
/// Reads are scoped, as GRDB's `DatabasePool.read`: ``read(_:)`` runs its closure in one
/// snapshot that begins when the closure starts and ends when it returns or throws, so every
/// read in it sees the same data and the next `read` sees the newest (another process's
/// writes, this process's own). Its `async` twin runs the closure on a worker thread of the
/// database's own (reads block; they never run on Swift's cooperative threads). Writes go
/// through ``write(_:)``, one at a time, waiting for each other. Readers never wait for writers.
///
/// ```swift
/// let catalogs = try database.read { reader in try reader.catalogs() }
/// let page = try await database.read { reader in try reader.items(of: catalog, after: nil, limit: 50) }
/// ```
///
/// A reader belongs to its closure: do not keep it, or use it on another thread, after the
/// closure returns.
public protocol CatalogDatabase: AnyObject, Sendable {
    /// Where the database is, for messages (a path, or a URL without its password).
    var location: String { get }

    /// Runs `body` in one snapshot, on the calling thread: it begins when `body` starts and
    /// ends when `body` returns or throws.
    ///
    /// A `read` inside another `read` on the same thread reads in the outer snapshot (it does
    /// not begin one of its own), so helpers that read can be called from inside a read.
    func read<T>(_ body: (any CatalogReader) throws -> T) throws -> T

    /// Runs `body` as the synchronous `read` does, on one of the database's reading threads,
    /// and returns what it returns (or throws what it throws).
    func read<T: Sendable>(_ body: @escaping @Sendable (any CatalogReader) throws -> T) async throws -> T

    /// A number that changes whenever the calling thread's next reads may see different data:
    /// after a write through this database, or after another process's write (noticed within
    /// the engine's check interval). Responses made in one epoch can be reused within it.
    /// Cheap: no snapshot is kept for it, and most calls ask the database nothing.
    func readEpoch() throws -> Int

    /// Runs `body` in one write transaction: all of it or nothing. Writers queue; one that
    /// cannot start within the engine's lock timeout fails with ``StorageError/Code/busy``.
    func write<T>(_ body: (any CatalogWriter) throws -> T) throws -> T

    /// Accounts, sessions, tokens and favorites, for the calling thread.
    func users() throws -> any UserStore

    /// Where reads went and how the read replicas are, asked of each replica now; nil for a
    /// database without replicas (the default).
    func readReplicaReport() -> ReadReplicaReport?

    /// Closes every connection. Nothing may use the database afterwards.
    func close()
}

/// Reads of one snapshot: the engine's answers to narrow questions. The rules (cursors, search,
/// scopes) are CatalogCore's, built on these.
public protocol CatalogReader: AnyObject {
    /// Every catalog, ordered by id.
    func catalogs() throws -> [CatalogSummary]
    /// A catalog's stored description, or nil when there is none with that id.
    func catalog(_ id: String) throws -> StoredCatalog?
    /// The catalog's non-empty sections, in index order.
    func sections(of catalog: StoredCatalog) throws -> [SectionCount]
    /// Up to `limit` records in index order (section, collation key, id) from `bound`.
    func page(of catalog: StoredCatalog, selection: BrowseSelection, from bound: BrowseBound?, limit: Int) throws
        -> StoredPage
    /// How many records of the selection come before `key` in index order (for a position in a
    /// list of the whole catalog).
    func count(of catalog: StoredCatalog, selection: BrowseSelection, before key: BrowseKey) throws -> Int
    /// One record by id.
    func item(of catalog: StoredCatalog, id: String) throws -> StoredHit?
    /// Featured records by rank, then index order.
    func featured(of catalog: StoredCatalog, limit: Int) throws -> [StoredHit]
    /// Every record in index order (exports).
    func forEachItem(of catalog: StoredCatalog, _ body: (StoredHit) throws -> Void) throws
    /// Every record's id and content hash (what a re-import compares against).
    func itemHashes(of catalog: StoredCatalog) throws -> [String: UInt64]
    /// The catalog's search index: its segments, the base first (``SearchSegment``).
    func searchSegments(of catalog: StoredCatalog) throws -> [SearchSegment]
    /// Up to `limit` records of the selection in index order from the `position`-th on (for
    /// lists addressed by position when the search index cannot answer alone).
    func page(of catalog: StoredCatalog, selection: BrowseSelection, position: Int, limit: Int) throws -> StoredPage
    /// How many records of each section the selection holds, by label index (non-empty ones).
    func sectionCounts(of catalog: StoredCatalog, selection: BrowseSelection) throws -> [(position: Int, count: Int)]
    /// The change log after change `since`, oldest first, at most `limit` entries.
    func changes(of catalog: StoredCatalog, since: Int, limit: Int) throws -> [StoredChange]
    /// The changes of one record, newest first, at most `limit` entries.
    func history(of catalog: StoredCatalog, item: String, limit: Int) throws -> [StoredChange]
    /// The oldest change number the log still holds for the catalog (older ones were pruned or
    /// came before a reload), or nil when it holds none.
    func oldestChange(of catalog: StoredCatalog) throws -> Int?
    /// The image stored for record `item` of catalog `catalog` (``StoredImage``), or nil.
    func storedImage(of catalog: String, item: String) throws -> StoredImage?
    /// Every image stored for records of catalog `catalog`, by record id.
    func forEachStoredImage(of catalog: String, _ body: (StoredImage) throws -> Void) throws
    /// The loaded search indexes of the database this reader reads (each database has its own).
    var indexCache: SearchIndexCache { get }
}

/// The write side, inside one transaction of ``CatalogDatabase/write(_:)``.
public protocol CatalogWriter: AnyObject {
    /// Reads inside the transaction: everything committed so far, and this transaction's writes.
    var reader: any CatalogReader { get }
    /// Starts a new version of catalog `id` (a new catalog when there is none): its records and
    /// index go to the returned writer, and its ``CatalogVersionWriter/commit(_:)`` makes it the
    /// catalog's version, removing the previous one. Readers see the previous version until the
    /// transaction ends.
    func beginVersion(of id: String) throws -> any CatalogVersionWriter
    /// Deletes a catalog and everything in it, its stored images too. Returns false when it did not exist.
    func deleteCatalog(_ id: String) throws -> Bool
    /// Stores a catalog's definition without touching its records (title, source, scopes).
    func updateDefinition(_ definition: CatalogDefinition) throws
    /// Starts changing the records of catalog `id` in place (``CatalogChangeWriter``), locking it
    /// against other writers until the transaction ends. Throws `.catalogNotFound` without one.
    func beginChange(of id: String) throws -> any CatalogChangeWriter
    /// Removes change log entries older than `time` (ISO 8601, UTC), of every catalog; returns
    /// how many went.
    func pruneChanges(before time: String) throws -> Int
    /// Stores `image` for its record, replacing the one stored before.
    func storeImage(_ image: StoredImage) throws
    /// Removes the image stored for record `item` of catalog `catalog`, unless its hash is
    /// `keeping`; returns whether one was removed.
    func removeStoredImage(of catalog: String, item: String, keeping hash: String?) throws -> Bool
}

/// A catalog version being written.
public protocol CatalogVersionWriter: CatalogIndexSink {
    /// Makes the version current.
    func commit(_ catalog: IndexedCatalog) throws
}

/// What an engine stores about a catalog besides its records.
public struct StoredCatalog: Sendable {
    /// The definition.
    public var definition: CatalogDefinition
    /// Id, title, locale, count.
    public var summary: CatalogSummary
    /// Every label of the locale's index, in order.
    public var sectionLabels: [String]
    /// Categories with their numbers and counts, in display order.
    public var categories: [CategoryCount]
    /// The collator version its sort keys were made with.
    public var collationVersion: String
    /// Identifies this version of the catalog's data in this database: it changes with every
    /// import and every change, so caches of what was read from it key on it.
    public var versionKey: String
    /// The catalog's change number: it grows by one with every change (``StoredChange``).
    public var change: Int

    /// Creates the description.
    public init(
        definition: CatalogDefinition, summary: CatalogSummary, sectionLabels: [String], categories: [CategoryCount],
        collationVersion: String, versionKey: String, change: Int = 0
    ) {
        self.change = change
        self.definition = definition
        self.summary = summary
        self.sectionLabels = sectionLabels
        self.categories = categories
        self.collationVersion = collationVersion
        self.versionKey = versionKey
    }

    /// The catalog's id.
    public var id: String { summary.id }
}

/// Which records a browse page walks.
public enum BrowseSelection: Sendable, Equatable {
    /// Every record.
    case all
    /// The records of one section (by label index).
    case section(Int)
    /// The records carrying a category (by number).
    case category(Int)
}

/// A record's place in index order: section, collation key, id.
public struct BrowseKey: Sendable, Equatable, Hashable, Comparable {
    /// The section's label index.
    public var section: Int
    /// The collation key of the title.
    public var sortKey: [UInt8]
    /// The record's id.
    public var id: String

    /// Creates a key.
    public init(section: Int, sortKey: [UInt8], id: String) {
        self.section = section
        self.sortKey = sortKey
        self.id = id
    }

    /// The key before every record of `section`.
    public static func start(ofSection section: Int) -> BrowseKey {
        BrowseKey(section: section, sortKey: [], id: "")
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        if lhs.section != rhs.section { return lhs.section < rhs.section }
        if lhs.sortKey != rhs.sortKey { return lhs.sortKey.lexicographicallyPrecedes(rhs.sortKey) }
        return Array(lhs.id.utf8).lexicographicallyPrecedes(Array(rhs.id.utf8))
    }
}

/// Where a browse page starts.
public enum BrowseBound: Sendable, Equatable {
    /// The records after this key.
    case after(BrowseKey)
    /// The records at or after this key.
    case from(BrowseKey)
    /// The records before this key (the page ends right before it).
    case before(BrowseKey)
}

/// A browse page as stored.
public struct StoredPage: Sendable {
    /// The records, in index order.
    public var items: [StoredHit]
    /// Whether there are records beyond the page in the direction it was read.
    public var hasMore: Bool

    /// Creates a page.
    public init(items: [StoredHit], hasMore: Bool) {
        self.items = items
        self.hasMore = hasMore
    }
}
