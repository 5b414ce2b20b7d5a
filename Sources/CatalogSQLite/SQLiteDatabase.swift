import CatalogModel
import CatalogStorage
import Foundation
import Synchronization
import SQLiteSupport

/// The SQLite engine: every catalog in one file.
///
/// Each thread that reads keeps a read-only connection of its own (made on its first read); a
/// ``read(_:)`` is one deferred read transaction on it, so a read sees one snapshot and the
/// next read sees every committed write, this process's and others'. The `async` twin runs on
/// the database's ``ReadWorkers``. Writes go through one read-write connection, one at a time.
/// In WAL mode readers never wait for the writer.
///
/// ```swift
/// let database = try SQLiteDatabase(path: "catalog.sqlite")
/// defer { database.close() }
/// let catalogs = try database.read { try $0.catalogs() }
/// ```
public final class SQLiteDatabase: CatalogDatabase {
    /// How the engine uses memory and locks.
    public struct Options: Sendable {
        /// Page cache per reading connection, in KiB.
        public var cacheKiB = 32_768
        /// Page cache of the writing connection, in KiB: imports write every table in its key's
        /// order, so a small cache holds the pages being filled.
        public var writerCacheKiB = 8_192
        /// Bytes of the file mapped into memory for reads: pages come straight from the OS cache.
        /// Mapped pages count in a process's RSS as file pages, not as its own memory.
        public var mmapBytes = 1 << 30
        /// How long a writer waits for another writer (another import, another process) before
        /// it gives up with `.busy`.
        public var lockTimeout: Duration = .seconds(300)
        /// Called once when a write has to wait for another writer ("waiting for another import").
        public var waitingForLock: (@Sendable () -> Void)?
        /// The accounts file; nil: ``SQLiteUserStore/defaultPath(forCatalog:)`` of the catalog file.
        public var usersPath: String?
        /// Whether the file keeps a write-ahead log (readers never wait for the writer), or the
        /// rollback journal it has (an offline snapshot: read-only opens of it need nothing beside
        /// the file, and it may be moved over another file once closed).
        public var writeAheadLog = true
        /// Where loaded search indexes keep their lexicons and columns: mapped files in this
        /// directory (``IndexFiles``), or nil for the heap.
        public var indexFiles: IndexFiles?
        /// Whether accounts are kept (in their own file beside the catalog file); without them
        /// ``SQLiteDatabase/users()`` fails and no accounts file is made.
        public var keepsAccounts = true
        /// Whether a write loads the search indexes it makes, so that the first search after it
        /// finds them loaded (``SearchIndexCache/loadsWrittenIndexes``).
        public var loadsWrittenIndexes = false

        /// The defaults: imports and the command line.
        public init() {}

        /// A server's: a smaller page cache per reader (the file is mapped); writes load the
        /// indexes they make.
        public static var server: Options {
            var options = Options()
            options.cacheKiB = 8_192
            options.loadsWrittenIndexes = true
            return options
        }

        /// An offline snapshot's (``SQLiteSnapshotWriter``), changed in place by the client
        /// library: its rollback journal kept, no accounts.
        public static var snapshot: Options {
            var options = Options()
            options.writeAheadLog = false
            options.keepsAccounts = false
            options.cacheKiB = 4_096
            options.mmapBytes = 0
            return options
        }
    }

    /// The file.
    public let path: String
    public var location: String { path }
    let options: Options
    private let readers: WorkerLocal<Reader>
    private let writer: WriterSlot
    private let accounts: SQLiteAccounts?
    /// The threads of the `async` reads.
    private let workers: ReadWorkers
    /// The database's loaded search indexes, handed out by its readers.
    private let indexes: SearchIndexCache
    /// Bumped after every write through this database: a new read epoch.
    private let generation = Atomic<Int>(0)
    /// The wal-index header the read epochs look at before they ask SQLite (``WALIndexHeader``);
    /// nil for a database not in WAL mode (a stale `-shm` file may lie beside one), whose epochs
    /// always ask.
    private let walHeader: WALIndexHeader?

    /// Opens the file, creating and migrating it when needed.
    ///
    /// - Throws: ``StorageError`` `.cannotOpen` for a file that is not a catalog database or is
    ///   newer than this program.
    public init(path: String, options: Options = Options()) throws {
        self.path = path
        self.options = options
        indexes = SearchIndexCache(files: options.indexFiles, loadsWrittenIndexes: options.loadsWrittenIndexes)
        let connection = try Self.openWriter(path: path, options: options)
        do {
            accounts =
                options.keepsAccounts
                ? try SQLiteAccounts(
                    path: options.usersPath ?? SQLiteUserStore.defaultPath(forCatalog: path), catalogPath: path)
                : nil
        } catch {
            connection.close()
            throw error
        }
        walHeader = Self.walHeader(of: connection, path: path)
        writer = WriterSlot(connection)
        workers = ReadWorkers(name: "sqlite.read")
        let indexes = indexes
        readers = WorkerLocal {
            Reader(connection: try Self.openReader(path: path, options: options), path: path, indexCache: indexes)
        }
    }

    /// The wal-index header of the database `connection` has open, nil when it is not in WAL mode.
    private static func walHeader(of connection: Connection, path: String) -> WALIndexHeader? {
        guard let statement = try? connection.cached("PRAGMA journal_mode") else { return nil }
        defer { statement.finish() }
        guard (try? statement.step()) == true, statement.text(0).lowercased() == "wal" else { return nil }
        return WALIndexHeader(databasePath: path)
    }

    /// The `PRAGMA application_id` of catalog databases ("CTLG").
    static let applicationID = 0x4354_4C47

    private static func openWriter(path: String, options: Options) throws -> Connection {
        let connection = try Connection(path: path, mode: .readWriteCreate)
        do {
            try connection.execute(
                "PRAGMA foreign_keys = ON; PRAGMA temp_store = FILE; PRAGMA cache_size = -\(options.writerCacheKiB)")
            try checkApplicationID(connection)
            if options.writeAheadLog {
                try connection.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
            }
            if try connection.cached("PRAGMA application_id").scalarInt() == 0 {
                try connection.execute("PRAGMA application_id = \(applicationID)")
            }
            connection.setBusyTimeout(options.lockTimeout)
            try Schema.migrate(connection)
        } catch {
            connection.close()
            throw error
        }
        return connection
    }

    private static func openReader(path: String, options: Options) throws -> Connection {
        let connection = try Connection(path: path, mode: .readOnly)
        do {
            try connection.execute(
                "PRAGMA cache_size = -\(options.cacheKiB); PRAGMA mmap_size = \(options.mmapBytes)")
            try checkApplicationID(connection)
            let version = try connection.cached("PRAGMA user_version").scalarInt() ?? 0
            guard version == Schema.currentVersion else {
                throw StorageError(
                    .cannotOpen, "\(path) has schema version \(version), this program needs \(Schema.currentVersion)")
            }
        } catch {
            connection.close()
            throw error
        }
        return connection
    }

    private static func checkApplicationID(_ connection: Connection) throws {
        let applicationID = try connection.cached("PRAGMA application_id").scalarInt() ?? 0
        let tables = try connection.cached("SELECT count(*) FROM sqlite_schema").scalarInt() ?? 0
        if applicationID != Self.applicationID && (applicationID != 0 || tables > 0) {
            throw StorageError(.cannotOpen, "\(connection.path) is not a catalog database")
        }
    }

    // MARK: - Reading

    /// A thread's read connection, how deep in `read`s the thread is, and its read epoch. Used
    /// by its own thread only.
    final class Reader {
        let catalogs: SQLiteCatalogReader
        var depth = 0
        var generation = -1
        var dataVersion = -1
        var epoch = 0
        /// The database's wal-index header as it read just before this reader's last `PRAGMA
        /// data_version`: while it reads the same, no commit has finished since.
        var headerAtCheck: WALIndexHeader.Bytes?

        init(connection: Connection, path: String, indexCache: SearchIndexCache) {
            catalogs = SQLiteCatalogReader(connection: connection, path: path, indexCache: indexCache)
        }
    }

    public func read<T>(_ body: (any CatalogReader) throws -> T) throws -> T {
        try readSQLite { try body($0) }
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any CatalogReader) throws -> T) async throws -> T {
        try await workers.run { [self] in try read(body) }
    }

    /// ``read(_:)`` with the engine's own reader (for its extensions, such as snapshots).
    public func readSQLite<T>(_ body: (SQLiteCatalogReader) throws -> T) throws -> T {
        let reader = try readers.value()
        let connection = reader.catalogs.connection
        if reader.depth > 0 {
            reader.depth += 1
            defer { reader.depth -= 1 }
            return try body(reader.catalogs)
        }
        // Deferred: the snapshot is taken by the first statement, and a read that reads nothing
        // locks nothing. Begun and ended by prepared statements: `execute` would parse them
        // again for every read.
        if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
        try connection.cached("BEGIN DEFERRED").run()
        reader.depth = 1
        defer {
            reader.depth = 0
            if !connection.isAutocommit { try? connection.cached("COMMIT").run() }
        }
        return try body(reader.catalogs)
    }

    public func readEpoch() throws -> Int {
        let reader = try readers.value()
        let current = generation.load(ordering: .acquiring)
        // Outside a read, a wal-index header that reads as it did before the last check means no
        // other process has committed since: no need to ask SQLite (a read lock taken and dropped).
        // Inside one, the check answers for the read's snapshot, which the header does not show.
        let header = reader.depth == 0 ? walHeader?.read() : nil
        if let header, header == reader.headerAtCheck, current == reader.generation { return reader.epoch }
        // Outside a read this looks at the newest commit (a shared-memory read in WAL mode);
        // inside one, at the read's snapshot.
        let version = try reader.catalogs.connection.cached("PRAGMA data_version").scalarInt() ?? 0
        reader.headerAtCheck = header
        if version != reader.dataVersion || current != reader.generation {
            reader.epoch += 1
            reader.dataVersion = version
            reader.generation = current
        }
        return reader.epoch
    }

    // MARK: - Writing

    public func write<T>(_ body: (any CatalogWriter) throws -> T) throws -> T {
        defer { generation.add(1, ordering: .releasing) }
        return try withWriter { connection in
            try beginImmediate(connection)
            do {
                let result = try body(SQLiteCatalogWriter(connection: connection, path: path, indexCache: indexes))
                try connection.execute("COMMIT")
                indexes.endWrite(committed: true)
                return result
            } catch {
                indexes.endWrite(committed: false)
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// Runs `body` with the read-write connection, one caller at a time.
    func withWriter<T>(_ body: (Connection) throws -> T) throws -> T {
        try writer.with { connection in
            guard let connection else { throw StorageError(.engine, "the database \(path) is closed") }
            return try body(connection)
        }
    }

    /// Starts a write transaction, waiting for other writers up to the lock timeout and saying
    /// so once when it has to wait.
    private func beginImmediate(_ connection: Connection) throws {
        connection.setBusyTimeout(.zero)
        let first = Result { () throws(StorageError) in try connection.execute("BEGIN IMMEDIATE") }
        connection.setBusyTimeout(options.lockTimeout)
        guard case .failure(let error) = first else { return }
        guard error.code == .busy else { throw error }
        options.waitingForLock?()
        let second = Result { () throws(StorageError) in try connection.execute("BEGIN IMMEDIATE") }
        guard case .failure(let again) = second else { return }
        guard again.code == .busy else { throw again }
        throw StorageError(
            .busy,
            "another process kept \(path) locked for writing for more than \(options.lockTimeout.secondsText); "
                + "try again later",
            engineCode: again.engineCode)
    }

    public func users() throws -> any UserStore {
        guard let accounts else { throw StorageError(.invalidArgument, "\(path) keeps no accounts") }
        return accounts
    }

    deinit {
        close()
    }

    public func close() {
        workers.close()
        for reader in readers.drain() {
            try? reader.catalogs.connection.execute("COMMIT")
            reader.catalogs.connection.close()
        }
        writer.close()
        accounts?.close()
    }
}

/// The read-write connection, used by one caller at a time.
final class WriterSlot: @unchecked Sendable {
    // @unchecked: `connection` is only touched while `lock` is held, so the non-Sendable
    // connection is never used by two threads at once.
    private let lock = NSLock()
    private var connection: Connection?

    init(_ connection: Connection) {
        self.connection = connection
    }

    func with<T>(_ body: (Connection?) throws -> T) rethrows -> T {
        try lock.withLock { try body(connection) }
    }

    func close() {
        lock.withLock {
            connection?.close()
            connection = nil
        }
    }
}

extension Duration {
    /// "300 s", for messages.
    var secondsText: String { "\(components.seconds) s" }
}

/// The accounts of a catalog database, in their own file: reads on a read-only connection per
/// thread (they see every committed write at once), writes through one read-write connection
/// under a lock. Account writes never wait for a catalog import, which holds the catalog file.
final class SQLiteAccounts: UserStore, @unchecked Sendable {
    // @unchecked: each reader is used only by the thread that made it (WorkerLocal), and the
    // writer only while `lock` is held.
    private let readers: WorkerLocal<SQLiteUserStore>
    private let lock = NSLock()
    private var writer: SQLiteUserStore?

    /// Opens (creating and migrating) the accounts file, moving accounts an older version kept
    /// in the catalog file into it.
    init(path: String, catalogPath: String) throws {
        writer = try SQLiteUserStore(path: path, migratingFrom: catalogPath)
        readers = WorkerLocal { try SQLiteUserStore(path: path, readOnly: true) }
    }

    private func read<T>(_ body: (SQLiteUserStore) throws -> T) throws -> T {
        try body(readers.value())
    }

    private func write<T>(_ body: (SQLiteUserStore) throws -> T) throws -> T {
        try lock.withLock {
            guard let writer else { throw StorageError(.engine, "the accounts database is closed") }
            return try body(writer)
        }
    }

    func close() {
        for reader in readers.drain() { reader.close() }
        lock.withLock {
            writer?.close()
            writer = nil
        }
    }

    func addUser(name: String, isAdmin: Bool, passwordHash: String?, tokenSelector: String, tokenHash: [UInt8])
        throws -> User
    {
        try write {
            try $0.addUser(
                name: name, isAdmin: isAdmin, passwordHash: passwordHash, tokenSelector: tokenSelector,
                tokenHash: tokenHash)
        }
    }

    func user(named name: String) throws -> User? { try read { try $0.user(named: name) } }
    func users() throws -> [User] { try read { try $0.users() } }
    func removeUser(named name: String) throws -> Bool { try write { try $0.removeUser(named: name) } }

    func setPasswordHash(_ hash: String?, forUser name: String) throws {
        try write { try $0.setPasswordHash(hash, forUser: name) }
    }

    func passwordHash(forUser name: String) throws -> (user: User, hash: String)? {
        try read { try $0.passwordHash(forUser: name) }
    }

    func replaceToken(forUser name: String, selector: String, hash: [UInt8]) throws {
        try write { try $0.replaceToken(forUser: name, selector: selector, hash: hash) }
    }

    func tokenCredential(selector: String) throws -> (user: User, hash: [UInt8])? {
        try read { try $0.tokenCredential(selector: selector) }
    }

    func createSession(userID: Int64, selector: String, hash: [UInt8], expires: String) throws {
        try write { try $0.createSession(userID: userID, selector: selector, hash: hash, expires: expires) }
    }

    func sessionCredential(selector: String) throws -> (user: User, hash: [UInt8], expires: String)? {
        try read { try $0.sessionCredential(selector: selector) }
    }

    func deleteSession(selector: String) throws { try write { try $0.deleteSession(selector: selector) } }
    func deleteExpiredSessions(now: String) throws { try write { try $0.deleteExpiredSessions(now: now) } }
    func favorites(ofUser id: Int64) throws -> [Favorite] { try read { try $0.favorites(ofUser: id) } }

    func addFavorite(userID: Int64, catalog: String, item: String) throws -> Bool {
        try write { try $0.addFavorite(userID: userID, catalog: catalog, item: item) }
    }

    func removeFavorite(userID: Int64, catalog: String, item: String) throws -> Bool {
        try write { try $0.removeFavorite(userID: userID, catalog: catalog, item: item) }
    }

    func grant(user name: String, catalog: String, role: CatalogRole) throws -> CatalogRole? {
        try write { try $0.grant(user: name, catalog: catalog, role: role) }
    }

    func revoke(user name: String, catalog: String) throws -> Bool {
        try write { try $0.revoke(user: name, catalog: catalog) }
    }

    func roles(ofUser id: Int64) throws -> [String: CatalogRole] { try read { try $0.roles(ofUser: id) } }
    func members(ofCatalog id: String) throws -> [CatalogMember] { try read { try $0.members(ofCatalog: id) } }
    func removeCatalog(_ id: String) throws { try write { try $0.removeCatalog(id) } }

    func addKey(_ key: NewAPIKey) throws -> StoredAPIKey { try write { try $0.addKey(key) } }
    func key(named name: String) throws -> StoredAPIKey? { try read { try $0.key(named: name) } }
    func keys(ofUser userID: Int64?) throws -> [StoredAPIKey] { try read { try $0.keys(ofUser: userID) } }
    func removeKey(named name: String) throws -> Bool { try write { try $0.removeKey(named: name) } }

    func keyCredential(selector: String) throws -> (key: StoredAPIKey, user: User, hash: [UInt8])? {
        try read { try $0.keyCredential(selector: selector) }
    }

    func recordKeyUse(named name: String, at time: String, from address: String?) throws {
        try write { try $0.recordKeyUse(named: name, at: time, from: address) }
    }
    func appendAuditEvents(_ events: [AuditEvent]) throws { try write { try $0.appendAuditEvents(events) } }
    func auditEvents(_ query: AuditQuery) throws -> [AuditEvent] { try read { try $0.auditEvents(query) } }
    func pruneAuditEvents(before time: String) throws -> Int { try write { try $0.pruneAuditEvents(before: time) } }

    func accounts() throws -> [StoredAccount] { try read { try $0.accounts() } }
    func restore(_ account: StoredAccount) throws -> User { try write { try $0.restore(account) } }
}
