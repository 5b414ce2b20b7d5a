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
/// With read replicas (hot standbys of the primary, ``init(url:readReplicas:options:)``), a
/// ``read(_:)`` begins its snapshot on one of them, taking turns, when that replica has replayed
/// the newest data version this process knows of: every write made through it (the version its
/// commit set) and the primary's version as last asked (at most the check interval ago, as for
/// the epoch). A replica behind that, or down, is passed over for the next one, then for the
/// primary; one that fails rests a second before it is tried again, and a read whose replica
/// went away mid-read (or cancelled it for a recovery conflict) runs again on the primary. So a
/// write is read back at once through this process, and another process's within the interval,
/// however far a replica lags. Writes, accounts, sessions and favorites stay on the primary.
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
        /// How long a read replica that could not be reached is left out before it is tried again.
        public var replicaRetryAfter: Duration = .seconds(1)
        /// Where loaded search indexes keep their lexicons and columns: mapped files in this
        /// directory (``IndexFiles``), or nil for the heap.
        public var indexFiles: IndexFiles?
        /// Whether a write loads the search indexes it makes, so that the first search after it
        /// finds them loaded (``SearchIndexCache/loadsWrittenIndexes``).
        public var loadsWrittenIndexes = false

        /// The defaults: imports and the command line.
        public init() {}

        /// A server's: the data version trusted for 100 ms, a larger posting cache; writes load
        /// the indexes they make.
        public static var server: Options {
            var options = Options()
            options.epochCheckInterval = .milliseconds(100)
            options.postingCacheBytes = 256 << 20
            options.loadsWrittenIndexes = true
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
    private let indexes: SearchIndexCache
    /// The threads of the `async` reads.
    private let workers: ReadWorkers
    /// Bumped after every write through this database: a new read epoch.
    private let generation = Atomic<Int>(0)
    /// The newest data version this process knows the primary committed: set by its writes,
    /// the primary's snapshots and epoch checks. A replica must have replayed it to be read.
    private let newestVersion = Atomic<Int64>(0)
    /// The read replicas, nil without any.
    private let replicas: ReadReplicas?
    /// The primary's connection for the replica probes.
    private let primaryProbe: ConnectionSlot

    /// The advisory lock key catalog writers hold ("CTLG").
    static let writerLock: Int64 = 0x4354_4C47

    /// Connects, creating and migrating the schema when needed.
    ///
    /// - Parameters:
    ///   - url: a `postgres://` or `postgresql://` URL, given to libpq as is (host, port, user,
    ///     password, database, `sslmode` and the other parameters libpq knows).
    ///   - readReplicas: URLs of hot standbys of the same database, which reads go to (see the
    ///     type's discussion). One that cannot be reached now is tried again later.
    /// - Throws: ``StorageError`` `.cannotOpen` for a server that cannot be reached, bad
    ///   credentials, a database that is not a catalog database or is newer than this program, a
    ///   replica that is a copy of another database.
    public init(url: String, readReplicas: [String] = [], options: Options = Options()) throws {
        let location = PostgresLocation(url)
        postgresLocation = location
        self.options = options
        indexes = SearchIndexCache(files: options.indexFiles, loadsWrittenIndexes: options.loadsWrittenIndexes)
        let connection = try PostgresConnection(location)
        let databaseID: String
        let replicaLocations = readReplicas.map(PostgresLocation.init)
        do {
            try PostgresSchema.migrate(connection, lockTimeout: options.lockTimeout)
            let state = try connection.query("SELECT database_id, data_version FROM catalog_state")
            databaseID = state.text(0, 0)
            newestVersion.store(state.int64(0, 1), ordering: .relaxed)
            for replica in replicaLocations { try Self.checkReplica(replica, of: location, databaseID: databaseID) }
        } catch {
            connection.close()
            throw error
        }
        self.databaseID = databaseID
        writer = ConnectionSlot(location: location, connection: connection)
        accounts = ConnectionSlot(location: location, connection: nil)
        primaryProbe = ConnectionSlot(location: location, connection: nil)
        replicas =
            replicaLocations.isEmpty ? nil : ReadReplicas(replicaLocations, retryAfter: options.replicaRetryAfter)
        let postings = PostingCache(budget: options.postingCacheBytes)
        self.postings = postings
        workers = ReadWorkers(name: "postgres.read")
        let interval = options.epochCheckInterval
        let indexes = indexes
        let settings = [("idle_in_transaction_session_timeout", options.idleSnapshotTimeout.millisecondsText)]
        readers = WorkerLocal {
            Reader(
                connection: try PostgresConnection(location, settings: settings), databaseID: databaseID,
                postings: postings, indexCache: indexes, interval: interval, replicas: replicaLocations.count
            ) { replica in
                PostgresCatalogReader(
                    connection: try PostgresConnection(replicaLocations[replica], settings: settings),
                    databaseID: databaseID, postings: postings, indexCache: indexes)
            }
        }
    }

    /// Refuses a replica that answers as a copy of another catalog database (its
    /// `catalog_state.database_id` differs): reads from it would mix two databases. One that
    /// cannot be reached, or has not replayed the schema yet, is accepted, and tried when read.
    private static func checkReplica(
        _ replica: PostgresLocation, of primary: PostgresLocation, databaseID: String
    ) throws {
        guard let connection = try? PostgresConnection(replica) else { return }
        defer { connection.close() }
        guard let found = try? connection.query("SELECT database_id FROM catalog_state").text(0, 0),
            found != databaseID
        else { return }
        throw StorageError(
            .cannotOpen, "the read replica \(replica) is not a copy of \(primary): it holds another catalog database")
    }

    // MARK: - Reading

    /// A thread's connection, how deep in `read`s the thread is, its read epoch and its user
    /// store. Used by its own thread only.
    final class Reader {
        /// Reads on the primary.
        let catalogs: PostgresCatalogReader
        var epoch: ReadEpoch
        var depth = 0
        var users: PostgresUserStore?
        /// The primary connection.
        var connection: PostgresConnection { catalogs.connection }
        /// The reader the open snapshot is on: ``catalogs``, or a replica's.
        private(set) var active: PostgresCatalogReader
        /// Reads on each replica, connected on first use.
        private var replicas: [PostgresCatalogReader?]
        private let makeReplica: (Int) throws -> PostgresCatalogReader
        /// This process's write generation when the snapshot began.
        private var generation = 0

        init(
            connection: PostgresConnection, databaseID: String, postings: PostingCache, indexCache: SearchIndexCache,
            interval: Duration, replicas: Int, makeReplica: @escaping (Int) throws -> PostgresCatalogReader
        ) {
            catalogs = PostgresCatalogReader(
                connection: connection, databaseID: databaseID, postings: postings, indexCache: indexCache)
            active = catalogs
            epoch = ReadEpoch(interval: interval)
            self.replicas = Array(repeating: nil, count: replicas)
            self.makeReplica = makeReplica
            catalogs.restart = { [unowned self] in try begin(generation: generation) }
        }

        /// Begins a snapshot on `replica` and returns the data version it sees, connecting to
        /// it first when this thread has not yet (or again once, when the connection was lost).
        /// A replica's reader never restarts on its own: a read that loses it runs again on the
        /// primary (``PostgresDatabase/read(_:)``).
        func begin(onReplica replica: Int) throws -> (reader: PostgresCatalogReader, version: Int64) {
            let reader: PostgresCatalogReader
            if let made = replicas[replica] {
                reader = made
            } else {
                reader = try makeReplica(replica)
                replicas[replica] = reader
            }
            reader.dataVersion = -1
            let version = try Self.beginSnapshot(on: reader.connection)
            reader.dataVersion = version
            active = reader
            return (reader, version)
        }

        /// Begins a snapshot and reads the data version it sees, in one round trip (after a
        /// ROLLBACK of a transaction left open, in the same one). A lost connection is connected
        /// again once.
        func begin(generation: Int) throws {
            catalogs.dataVersion = -1
            let version = try Self.beginSnapshot(on: connection)
            self.generation = generation
            epoch.observed(now: .now, generation: generation, dataVersion: version)
            catalogs.dataVersion = version
            active = catalogs
        }

        /// Begins a snapshot on `connection` and returns the data version it sees, in one round
        /// trip (after a ROLLBACK of a transaction left open, in the same one).
        static func beginSnapshot(on connection: PostgresConnection) throws -> Int64 {
            let begin = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SELECT data_version FROM catalog_state"
            let sql = connection.inTransaction ? "ROLLBACK; " + begin : begin
            return Int64(try executeReconnecting(sql, on: connection).text(0, 0)) ?? 0
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
            active.dataVersion = -1
            if active.connection.inTransaction { active.connection.send("ROLLBACK") }
            active = catalogs
        }

        /// Ends the snapshot, if one is open, and waits for it (before closing the connection).
        func endNow() {
            active.dataVersion = -1
            if active.connection.inTransaction { _ = try? active.connection.execute("ROLLBACK") }
            active = catalogs
        }

        /// Closes every connection of this thread.
        func close() {
            endNow()
            connection.close()
            for replica in replicas { replica?.connection.close() }
        }
    }

    public func read<T>(_ body: (any CatalogReader) throws -> T) throws -> T {
        let reader = try readers.value()
        if reader.depth > 0 {
            reader.depth += 1
            defer { reader.depth -= 1 }
            return try body(reader.active)
        }
        let generation = generation.load(ordering: .acquiring)
        if let replicas, let chosen = beginOnReplica(reader, replicas, generation: generation) {
            let (replica, on) = chosen
            reader.depth = 1
            do {
                let result = try body(on)
                reader.depth = 0
                reader.end()
                return result
            } catch {
                reader.depth = 0
                reader.end()
                // A replica that went away, or cancelled the read for a recovery conflict
                // (SQLSTATE 40001 on a standby): the read runs again, on the primary.
                let lost = on.connection.isLost(after: error)
                guard lost || (error as? StorageError)?.engineCode == "40001" else { throw error }
                if lost { replicas.failed(replica) } else { replicas.behind(replica) }
            }
        }
        try reader.begin(generation: generation)
        if let replicas {
            observed(reader.catalogs.dataVersion)
            replicas.readOnPrimary()
        }
        reader.depth = 1
        defer {
            reader.depth = 0
            reader.end()
        }
        return try body(reader.catalogs)
    }

    /// Begins the thread's snapshot on the first replica in turn that answers and has replayed
    /// the newest data version this process knows of (asked of the primary first when the
    /// thread's last check is older than the check interval); nil when none has.
    private func beginOnReplica(
        _ reader: Reader, _ replicas: ReadReplicas, generation: Int
    ) -> (replica: Int, reader: PostgresCatalogReader)? {
        // A primary that does not answer leaves the replicas to answer with what they have.
        if reader.epoch.needsCheck(now: .now, generation: generation) { _ = try? readEpoch() }
        let needed = newestVersion.load(ordering: .acquiring)
        for replica in replicas.candidates() {
            do {
                let (on, version) = try reader.begin(onReplica: replica)
                if version >= needed {
                    replicas.read(on: replica)
                    return (replica, on)
                }
                reader.end()
                replicas.behind(replica)
            } catch {
                reader.end()
                replicas.failed(replica)
            }
        }
        return nil
    }

    /// Where reads went, and each replica's replay as it answers now; nil without replicas.
    public func readReplicaReport() -> ReadReplicaReport? {
        guard let replicas else { return nil }
        let primary = try? primaryProbe.with { try $0.query("SELECT data_version FROM catalog_state").int64(0, 0) }
        return replicas.report(primaryVersion: primary)
    }

    /// Remembers that the primary committed data version `version`.
    private func observed(_ version: Int64) {
        newestVersion.max(version, ordering: .releasing)
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
        let version = Int64(result.text(0, 0)) ?? 0
        reader.epoch.observed(now: now, generation: current, dataVersion: version)
        observed(version)
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
            try transaction(on: connection, writerLock: true, endingWrite: indexes.endWrite) {
                try body(
                    PostgresCatalogWriter(
                        connection: connection, databaseID: databaseID, postings: postings, indexCache: indexes))
            }
        }
    }

    /// Runs `body` in a transaction on `connection` that bumps the data version before it
    /// commits; with `writerLock`, after taking the writers' advisory lock. `endingWrite` is told
    /// whether it committed, before a rollback (``SearchIndexCache/endWrite(committed:)``).
    private func transaction<T>(
        on connection: PostgresConnection, writerLock: Bool, endingWrite: (_ committed: Bool) -> Void = { _ in },
        _ body: () throws -> T
    ) throws -> T {
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
            let version = try connection.query(
                "UPDATE catalog_state SET data_version = data_version + 1 RETURNING data_version")
            try connection.execute("COMMIT")
            endingWrite(true)
            observed(version.int64(0, 0))
            return result
        } catch {
            endingWrite(false)
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
        for reader in readers.drain() { reader.close() }
        writer.close()
        accounts.close()
        primaryProbe.close()
        replicas?.close()
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
