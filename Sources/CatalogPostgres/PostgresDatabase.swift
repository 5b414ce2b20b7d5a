import CatalogModel
import CatalogStorage
import Foundation
import Synchronization

/// The PostgreSQL engine: every catalog in one database, which several servers can share.
///
/// Each thread that reads gets its own connection, which reads in a snapshot (a `REPEATABLE
/// READ READ ONLY` transaction) kept for up to ``Options/snapshotLifetime`` and renewed at once
/// after a write through this database, so a client reads its own writes. Every write
/// transaction bumps the data version in `catalog_state`; a renewed snapshot that sees another
/// version starts a new read epoch, which empties the response caches of every server on the
/// database. Catalog writes go through one connection and take a transaction-level advisory
/// lock, so writers of every process queue (for up to ``Options/lockTimeout``); they hold no
/// lock a reader waits for. Account, session and favorite writes use a connection of their own
/// and only row locks, so a sign-in never waits for an import.
///
/// ```swift
/// let database = try PostgresDatabase(url: "postgres://catalog@db.internal/catalog?sslmode=require")
/// defer { database.close() }
/// let catalogs = try database.reader().catalogs()
/// ```
public final class PostgresDatabase: CatalogDatabase {
    /// How the engine uses snapshots, locks and memory.
    public struct Options: Sendable {
        /// How long a writer waits for another writer (another import, another process) before
        /// it gives up with `.busy`.
        public var lockTimeout: Duration = .seconds(300)
        /// How long a reader keeps one snapshot: zero renews it for every read (the command line,
        /// tests); a server keeps it for up to 100 ms, so its requests share the round trip.
        public var snapshotLifetime: Duration = .zero
        /// Called once when a write has to wait for another writer ("waiting for another import").
        public var waitingForLock: (@Sendable () -> Void)?
        /// Bytes of posting chunks kept in memory for searches, shared by the readers.
        public var postingCacheBytes = 64 << 20
        /// How long a reading thread's snapshot may stay open while the thread does nothing:
        /// PostgreSQL then ends that session (`idle_in_transaction_session_timeout`), so the
        /// locks an idle server's snapshots hold never keep a migration or an administrator's
        /// `ALTER TABLE` (and the readers queued behind it) waiting longer; the thread's next read
        /// connects again.
        public var idleSnapshotTimeout: Duration = .seconds(30)

        /// The defaults: imports and the command line.
        public init() {}

        /// A server's: snapshots kept for 100 ms, a larger posting cache.
        public static var server: Options {
            var options = Options()
            options.snapshotLifetime = .milliseconds(100)
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
    /// Bumped after every write through this database: readers holding an older snapshot
    /// renew it.
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
        let lifetime = options.snapshotLifetime
        let settings = [("idle_in_transaction_session_timeout", options.idleSnapshotTimeout.millisecondsText)]
        readers = WorkerLocal {
            Reader(
                connection: try PostgresConnection(location, settings: settings), databaseID: databaseID,
                postings: postings, lifetime: lifetime)
        }
    }

    // MARK: - Reading

    /// A thread's connection, its snapshot and its stores. Used by its own thread only.
    final class Reader {
        let catalogs: PostgresCatalogReader
        var snapshot: ReadSnapshot
        var users: PostgresUserStore?
        var connection: PostgresConnection { catalogs.connection }

        /// This process's write generation when the snapshot began.
        private var generation = 0

        init(connection: PostgresConnection, databaseID: String, postings: PostingCache, lifetime: Duration) {
            catalogs = PostgresCatalogReader(connection: connection, databaseID: databaseID, postings: postings)
            snapshot = ReadSnapshot(lifetime: lifetime)
            catalogs.restart = { [unowned self] in try begin(now: .now, generation: generation) }
        }

        /// Ends the open transaction, if any (ROLLBACK also ends one that failed), and begins a
        /// snapshot; one round trip. A lost connection is connected again once.
        func begin(now: ContinuousClock.Instant, generation: Int) throws {
            snapshot.ended()
            catalogs.dataVersion = -1
            let sql =
                "ROLLBACK; BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SELECT data_version FROM catalog_state"
            let result = try Self.executeReconnecting(sql, on: connection)
            let version = Int64(result.text(0, 0)) ?? 0
            self.generation = generation
            snapshot.began(now: now, generation: generation, dataVersion: version)
            catalogs.dataVersion = version
        }

        /// Runs `sql`, connecting again once when the connection was lost (``PostgresConnection/isLost(after:)``:
        /// the server restarted, or ended the session). Only reads and transaction control come
        /// here, so running it again is safe.
        private static func executeReconnecting(_ sql: String, on connection: PostgresConnection) throws
            -> PostgresResult
        {
            do {
                return try connection.execute(sql)
            } catch {
                guard connection.isLost(after: error) else { throw error }
            }
            try connection.reconnect()
            return try connection.execute(sql)
        }

        /// Ends the snapshot, if one is open.
        func end() {
            snapshot.ended()
            catalogs.dataVersion = -1
            if connection.inTransaction { _ = try? connection.execute("ROLLBACK") }
        }
    }

    public func reader() throws -> any CatalogReader {
        try freshReader().catalogs
    }

    /// Ends the calling thread's snapshot, if it has one: its next read sees the newest data.
    public func endSnapshot() {
        (try? readers.value())?.end()
    }

    public func readEpoch() throws -> Int {
        try freshReader().snapshot.epoch
    }

    /// The calling thread's reader, its snapshot renewed when it is too old, after a write
    /// through this database, or (`renewing`) in any case.
    private func freshReader(renewing: Bool = false) throws -> Reader {
        let reader = try readers.value()
        let now = ContinuousClock.now
        let current = generation.load(ordering: .acquiring)
        // A snapshot whose transaction is gone (the session was ended or lost) or failed (a
        // statement in it failed, so every later one would) is replaced at once.
        // So is one whose connection died since its last read (the server restarted): the read
        // then begins on a new connection instead of failing on the old one.
        let gone = reader.snapshot.isOpen && !reader.connection.inTransaction
        if renewing || gone || !reader.connection.isAlive || reader.connection.isFailedTransaction
            || reader.snapshot.next(now: now, generation: current) != .keep
        {
            try reader.begin(now: now, generation: current)
        }
        return reader
    }

    // MARK: - Writing

    public func write<T>(_ body: (any CatalogWriter) throws -> T) throws -> T {
        defer { generation.add(1, ordering: .releasing) }
        return try writer.with { connection in
            try transaction(on: connection, writerLock: true) {
                try body(PostgresCatalogWriter(connection: connection, databaseID: databaseID, postings: postings))
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
        let reader = try freshReader()
        if let store = reader.users { return store }
        let store = PostgresUserStore(
            reads: { [unowned self] in try freshReader().connection },
            renewed: { [unowned self] in try freshReader(renewing: true).connection }
        ) { [unowned self] body in
            defer { generation.add(1, ordering: .releasing) }
            try accounts.with { connection in
                try transaction(on: connection, writerLock: false) { try body(connection) }
            }
        }
        reader.users = store
        return store
    }

    deinit {
        close()
    }

    public func close() {
        for reader in readers.drain() {
            reader.end()
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
