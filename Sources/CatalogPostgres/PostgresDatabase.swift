import CatalogModel
import CatalogStorage
import Foundation
import Synchronization

/// The PostgreSQL engine: every catalog in one database, which several servers can share.
///
/// Each thread that reads keeps a connection of its own; a ``read(_:)`` is one `REPEATABLE READ
/// READ ONLY` transaction on it, begun (with the data version it sees) in one round trip and
/// ended when the closure returns, so the next read sees every committed write. The `async`
/// twin runs on the database's ``ReadWorkers``. Every write transaction bumps the data version
/// in `catalog_state`; a read or an epoch check (``Options/epochCheckInterval``) that sees
/// another version starts a new read epoch, which empties the response caches of every server
/// on the database. Catalog writes go through one connection and take a transaction-level advisory
/// lock, so writers of every process queue (for up to ``Options/lockTimeout``); they hold no
/// lock a reader waits for. Account, session and favorite writes use a connection of their own
/// and only row locks, so a sign-in never waits for an import.
///
/// ```swift
/// let database = try PostgresDatabase(url: "postgres://catalog@db.internal/catalog?sslmode=require")
/// defer { database.close() }
/// let catalogs = try database.read { try $0.catalogs() }
/// ```
public final class PostgresDatabase: CatalogDatabase {
    /// How the engine uses locks and memory, and how often it asks for the data version.
    public struct Options: Sendable {
        /// How long a writer waits for another writer (another import, another process) before
        /// it gives up with `.busy`.
        public var lockTimeout: Duration = .seconds(300)
        /// How long a thread's ``PostgresDatabase/readEpoch()`` trusts the data version it saw
        /// last (at its last read or check) before asking again: zero asks every time (the
        /// command line, tests); a server trusts it for 100 ms, so most requests ask nothing
        /// and another server's write reaches the response cache within that time.
        public var epochCheckInterval: Duration = .zero
        /// Called once when a write has to wait for another writer ("waiting for another import").
        public var waitingForLock: (@Sendable () -> Void)?
        /// Bytes of posting chunks kept in memory for searches, shared by the readers.
        public var postingCacheBytes = 64 << 20
        /// How long a read's snapshot may stay open while its closure sends nothing (a slow
        /// consumer of a walk): PostgreSQL then ends that session
        /// (`idle_in_transaction_session_timeout`), so the locks it holds never keep a migration
        /// or an administrator's `ALTER TABLE` (and the readers queued behind it) waiting longer;
        /// the read goes on on a new connection.
        public var idleSnapshotTimeout: Duration = .seconds(30)

        /// The defaults: imports and the command line.
        public init() {}

        /// A server's: the data version trusted for 100 ms, a larger posting cache.
        public static var server: Options {
            var options = Options()
            options.epochCheckInterval = .milliseconds(100)
            options.postingCacheBytes = 256 << 20
            return options
        }
    }

    /// Where the database is, without the password.
    public let postgresLocation: PostgresLocation
    public var location: String { postgresLocation.redacted }
    let options: Options
    /// Names this database in version keys (`catalog_state.database_id`).
    let databaseID: String
    private let readers: WorkerLocal<Reader>
    private let writer: ConnectionSlot
    private let accounts: ConnectionSlot
    /// Posting chunks read by any thread, shared by every reader.
    private let postings: PostingCache
    /// The database's loaded search indexes, handed out by its readers.
    private let indexes = SearchIndexCache()
    /// The threads of the `async` reads.
    private let workers: ReadWorkers
    /// Bumped after every write through this database: a new read epoch.
    private let generation = Atomic<Int>(0)

    /// The advisory lock key catalog writers hold ("CTLG").
    static let writerLock: Int64 = 0x4354_4C47

    /// Connects, creating and migrating the schema when needed.
    ///
    /// - Parameter url: a `postgres://` or `postgresql://` URL, given to libpq as is (host,
    ///   port, user, password, database, `sslmode` and the other parameters libpq knows).
    /// - Throws: ``StorageError`` `.cannotOpen` for a server that cannot be reached, bad
    ///   credentials, a database that is not a catalog database or is newer than this program.
    public init(url: String, options: Options = Options()) throws {
        let location = PostgresLocation(url)
        postgresLocation = location
        self.options = options
        let connection = try PostgresConnection(location)
        let databaseID: String
        do {
            try PostgresSchema.migrate(connection, lockTimeout: options.lockTimeout)
            databaseID = try connection.query("SELECT database_id FROM catalog_state").text(0, 0)
        } catch {
            connection.close()
            throw error
        }
        self.databaseID = databaseID
        writer = ConnectionSlot(location: location, connection: connection)
        accounts = ConnectionSlot(location: location, connection: nil)
        let postings = PostingCache(budget: options.postingCacheBytes)
        self.postings = postings
        workers = ReadWorkers(name: "postgres.read")
        let interval = options.epochCheckInterval
        let indexes = indexes
        let settings = [("idle_in_transaction_session_timeout", options.idleSnapshotTimeout.millisecondsText)]
        readers = WorkerLocal {
            Reader(
                connection: try PostgresConnection(location, settings: settings), databaseID: databaseID,
                postings: postings, indexCache: indexes, interval: interval)
        }
    }

    // MARK: - Reading

    /// A thread's connection, how deep in `read`s the thread is, its read epoch and its user
    /// store. Used by its own thread only.
    final class Reader {
        let catalogs: PostgresCatalogReader
        var epoch: ReadEpoch
        var depth = 0
        var users: PostgresUserStore?
        var connection: PostgresConnection { catalogs.connection }
        /// This process's write generation when the snapshot began.
        private var generation = 0

        init(
            connection: PostgresConnection, databaseID: String, postings: PostingCache, indexCache: SearchIndexCache,
            interval: Duration
        ) {
            catalogs = PostgresCatalogReader(
                connection: connection, databaseID: databaseID, postings: postings, indexCache: indexCache)
            epoch = ReadEpoch(interval: interval)
            catalogs.restart = { [unowned self] in try begin(generation: generation) }
        }

        /// Begins a snapshot and reads the data version it sees, in one round trip (after a
        /// ROLLBACK of a transaction left open, in the same one). A lost connection is connected
        /// again once.
        func begin(generation: Int) throws {
            catalogs.dataVersion = -1
            let begin = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SELECT data_version FROM catalog_state"
            let sql = connection.inTransaction ? "ROLLBACK; " + begin : begin
            let result = try Self.executeReconnecting(sql, on: connection)
            let version = Int64(result.text(0, 0)) ?? 0
            self.generation = generation
            epoch.observed(now: .now, generation: generation, dataVersion: version)
            catalogs.dataVersion = version
        }

        /// Runs `sql`, connecting again once when the connection was lost (``PostgresConnection/isLost(after:)``:
        /// the server restarted, or ended the session). Only reads and transaction control come
        /// here, so running it again is safe.
        static func executeReconnecting(_ sql: String, on connection: PostgresConnection) throws -> PostgresResult {
            do {
                return try connection.execute(sql)
            } catch {
                guard connection.isLost(after: error) else { throw error }
            }
            try connection.reconnect()
            return try connection.execute(sql)
        }

        /// Ends the snapshot, if one is open (ROLLBACK also ends one that failed), without
        /// waiting for the server's answer: it ends the snapshot as soon as it reads it, and the
        /// next statement on the connection reads the answer. A read costs one round trip.
        func end() {
            catalogs.dataVersion = -1
            if connection.inTransaction { connection.send("ROLLBACK") }
        }

        /// Ends the snapshot, if one is open, and waits for it (before closing the connection).
        func endNow() {
            catalogs.dataVersion = -1
            if connection.inTransaction { _ = try? connection.execute("ROLLBACK") }
        }
    }

    public func read<T>(_ body: (any CatalogReader) throws -> T) throws -> T {
        let reader = try readers.value()
        if reader.depth > 0 {
            reader.depth += 1
            defer { reader.depth -= 1 }
            return try body(reader.catalogs)
        }
        try reader.begin(generation: generation.load(ordering: .acquiring))
        reader.depth = 1
        defer {
            reader.depth = 0
            reader.end()
        }
        return try body(reader.catalogs)
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any CatalogReader) throws -> T) async throws -> T {
        try await workers.run { [self] in try read(body) }
    }

    public func readEpoch() throws -> Int {
        let reader = try readers.value()
        let current = generation.load(ordering: .acquiring)
        let now = ContinuousClock.now
        // Inside a read the epoch is the read's (its BEGIN saw the data version).
        guard reader.depth == 0, reader.epoch.needsCheck(now: now, generation: current) else {
            return reader.epoch.epoch
        }
        let result = try Reader.executeReconnecting("SELECT data_version FROM catalog_state", on: reader.connection)
        reader.epoch.observed(now: now, generation: current, dataVersion: Int64(result.text(0, 0)) ?? 0)
        return reader.epoch.epoch
    }

    /// The calling thread's connection for reads outside a snapshot, connected again when it
    /// was lost since its last statement.
    private func readingConnection() throws -> PostgresConnection {
        let connection = try readers.value().connection
        if !connection.inTransaction && !connection.isAlive { try connection.reconnect() }
        return connection
    }

    // MARK: - Writing

    public func write<T>(_ body: (any CatalogWriter) throws -> T) throws -> T {
        defer { generation.add(1, ordering: .releasing) }
        return try writer.with { connection in
            try transaction(on: connection, writerLock: true) {
                try body(
                    PostgresCatalogWriter(
                        connection: connection, databaseID: databaseID, postings: postings, indexCache: indexes))
            }
        }
    }

    /// Runs `body` in a transaction on `connection` that bumps the data version before it
    /// commits; with `writerLock`, after taking the writers' advisory lock.
    private func transaction<T>(on connection: PostgresConnection, writerLock: Bool, _ body: () throws -> T) throws
        -> T
    {
        do {
            try connection.execute("BEGIN")
        } catch {
            // The server may have ended an idle connection or restarted: nothing happened yet,
            // so try again on a new connection. A write that fails later is not repeated here.
            guard connection.isLost(after: error) else { throw error }
            try connection.reconnect()
            try connection.execute("BEGIN")
        }
        do {
            if writerLock { try lockForWriting(connection) }
            let result = try body()
            try connection.query("UPDATE catalog_state SET data_version = data_version + 1")
            try connection.execute("COMMIT")
            return result
        } catch {
            connection.abortCopy()
            if connection.inTransaction { _ = try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    /// Takes the writers' lock for the transaction, waiting for other writers up to the lock
    /// timeout and saying so once when it has to wait.
    private func lockForWriting(_ connection: PostgresConnection) throws {
        let key = PostgresValue.int8(Self.writerLock)
        guard try !connection.query("SELECT pg_try_advisory_xact_lock($1)", [key]).bool(0, 0) else { return }
        options.waitingForLock?()
        try connection.query(
            "SELECT set_config('lock_timeout', $1, true)", [.text(options.lockTimeout.millisecondsText)])
        do {
            try connection.query("SELECT pg_advisory_xact_lock($1)", [key])
        } catch {
            guard error.code == .busy else { throw error }
            throw StorageError(
                .busy,
                "another process kept \(location) locked for writing for more than "
                    + "\(options.lockTimeout.secondsText); try again later",
                engineCode: error.engineCode)
        }
        try connection.query("SELECT set_config('lock_timeout', '0', true)")
    }

    public func users() throws -> any UserStore {
        let reader = try readers.value()
        if let store = reader.users { return store }
        let store = PostgresUserStore(
            reads: { [unowned self] in try readingConnection() },
            writes: { [unowned self] body in
                defer { generation.add(1, ordering: .releasing) }
                try accounts.with { connection in
                    try transaction(on: connection, writerLock: false) { try body(connection) }
                }
            },
            quietly: { [unowned self] body in try accounts.with { try body($0) } })
        reader.users = store
        return store
    }

    deinit {
        close()
    }

    public func close() {
        workers.close()
        for reader in readers.drain() {
            reader.endNow()
            reader.connection.close()
        }
        writer.close()
        accounts.close()
    }
}

/// A write connection, used by one caller at a time; connected on first use and again after
/// it was lost.
final class ConnectionSlot: @unchecked Sendable {
    // @unchecked: `connection` and `closed` are only touched while `lock` is held, so the
    // non-Sendable connection is never used by two threads at once. (`Mutex` cannot lend a
    // non-Sendable value to a closure that is not `sending`.)
    private let lock = NSLock()
    private let location: PostgresLocation
    private var connection: PostgresConnection?
    private var closed = false

    init(location: PostgresLocation, connection: PostgresConnection?) {
        self.location = location
        self.connection = connection
    }

    func with<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try lock.withLock {
            guard !closed else { throw StorageError(.engine, "the database \(location) is closed") }
            if let connection {
                if !connection.isAlive { try connection.reconnect() }
                return try body(connection)
            }
            let made = try PostgresConnection(location)
            connection = made
            return try body(made)
        }
    }

    func close() {
        lock.withLock {
            connection?.close()
            connection = nil
            closed = true
        }
    }
}
