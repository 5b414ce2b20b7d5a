import CSQLite
import CatalogConsole
import CatalogModel
import CatalogStorage
import Foundation

/// One SQLite connection. Not Sendable: it belongs to one thread at a time.
///
/// Shared by the SQLite engine and the readers and writers of plain SQLite tables (imports
/// and exports), so there is one wrapper of the C API.
///
/// Owns the `sqlite3*` handle; ``close()`` must be called before the connection goes away (the
/// deinitializer asserts it did, and closes anyway in release builds).
public final class Connection {
    /// How to open the file.
    public enum Mode: Sendable {
        /// Read and write; creates the file when missing.
        case readWriteCreate
        /// Read and write an existing file.
        case readWrite
        /// Read only.
        case readOnly
    }

    /// The `sqlite3*` handle, for this package's own extensions (incremental blob reads).
    public private(set) var handle: OpaquePointer?
    /// The file opened.
    public let path: String
    private var statements: [String: Statement] = [:]

    /// Opens `path`.
    ///
    /// - Throws: ``StorageError`` with code `.cannotOpen`.
    public init(path: String, mode: Mode) throws(StorageError) {
        Self.configureOnce
        self.path = path
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch mode {
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        handle = db
        guard rc == SQLITE_OK else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            handle = nil
            throw StorageError(.cannotOpen, "cannot open database \(path): \(message)", engineCode: "\(rc)")
        }
        _ = csqlite_enable_defensive(db)
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 5_000)
    }

    /// How long a statement waits for another connection's lock before failing with `.busy`.
    public func setBusyTimeout(_ timeout: Duration) {
        let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
    }

    /// Process-wide SQLite configuration, applied before the first connection opens.
    private static let configureOnce: Void = {
        _ = csqlite_disable_memstatus()
    }()

    deinit {
        assert(handle == nil, "Connection to \(path) was not closed")
        if handle != nil { sqlite3_close_v2(handle) }
    }

    /// Asks `shouldStop` every `instructions` steps of the virtual machine; when it returns true
    /// the running statement stops with an interrupt error. Nil removes the handler.
    public func setProgressHandler(every instructions: Int32, _ shouldStop: (@Sendable () -> Bool)?) {
        progressBox.map { Unmanaged.passUnretained($0).release() }
        progressBox = nil
        guard let shouldStop else {
            sqlite3_progress_handler(handle, 0, nil, nil)
            return
        }
        let box = ProgressBox(shouldStop)
        progressBox = box
        sqlite3_progress_handler(
            handle, instructions,
            { context in
                guard let context else { return 0 }
                return Unmanaged<ProgressBox>.fromOpaque(context).takeUnretainedValue().shouldStop() ? 1 : 0
            }, Unmanaged.passRetained(box).toOpaque())
    }

    private var progressBox: ProgressBox?

    /// Finalizes cached statements and closes the connection.
    public func close() {
        setProgressHandler(every: 0, nil)
        statements.removeAll()
        if let handle {
            sqlite3_close_v2(handle)
            self.handle = nil
        }
    }

    /// Runs one or more statements without parameters (DDL, pragmas).
    public func execute(_ sql: String) throws(StorageError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_free(errorMessage)
            throw error(rc, message, sql: sql)
        }
    }

    /// A prepared statement for `sql`, cached per connection and reset before it is returned.
    public func cached(_ sql: String) throws(StorageError) -> Statement {
        if let statement = statements[sql] {
            statement.reset()
            return statement
        }
        let statement = try prepare(sql)
        statements[sql] = statement
        return statement
    }

    /// Prepares `sql` (not cached).
    public func prepare(_ sql: String) throws(StorageError) -> Statement {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw error(rc, lastMessage, sql: sql)
        }
        return Statement(stmt, connection: self, sql: sql)
    }

    /// Forgets cached statements that mention `fragment` (for tables that were dropped).
    public func forgetStatements(containing fragment: String) {
        statements = statements.filter { !$0.key.contains(fragment) }
    }

    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    public func transaction<T>(immediate: Bool = true, _ body: () throws -> T) throws -> T {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Whether to report the time of each import step on standard error (`CATALOG_PROFILE=1`).
    static let profiling = ProcessInfo.processInfo.environment["CATALOG_PROFILE"] == "1"

    /// Runs `body`, reporting its duration under `label` when profiling.
    func timed<T>(_ label: @autoclosure () -> String, _ body: () throws -> T) rethrows -> T {
        guard Self.profiling else { return try body() }
        var clock = Stopwatch()
        clock.start()
        defer {
            clock.stop()
            report(label(), seconds: clock.total)
        }
        return try body()
    }

    func report(_ label: String, seconds: Double) {
        guard Self.profiling else { return }
        StandardStream.error.line("profile: \(label): \(Int(seconds * 1000)) ms")
    }

    /// Runs `body` in one read transaction, so every statement sees the same snapshot (and the
    /// file locks are taken once). Nested calls join the outer transaction.
    public func read<T>(_ body: () throws -> T) throws -> T {
        guard sqlite3_get_autocommit(handle) != 0 else { return try body() }
        try execute("BEGIN DEFERRED")
        defer { try? execute("COMMIT") }
        return try body()
    }

    /// True when no transaction is open.
    public var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// The rowid of the row the last INSERT made.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    public var lastMessage: String { handle.map { String(cString: sqlite3_errmsg($0)) } ?? "no connection" }

    /// The error for result code `rc`. A file that is not a database, is damaged or cannot be
    /// opened, and a full disk, name the file: those are the user's to fix, and they need to
    /// know which file. A write that failed with `ENOSPC` is a full disk whatever code SQLite
    /// chose for it (`SQLITE_FULL`, or an I/O error).
    public func error(_ rc: Int32, _ message: String, sql: String?) -> StorageError {
        var code: StorageError.Code
        switch rc & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED: code = .busy
        case SQLITE_CONSTRAINT: code = .constraint
        case SQLITE_CANTOPEN, SQLITE_NOTADB, SQLITE_CORRUPT: code = .cannotOpen
        case SQLITE_FULL: code = .full
        default: code = .engine
        }
        let systemError = handle.map { sqlite3_system_errno($0) } ?? 0
        if rc & 0xFF == SQLITE_IOERR, systemError == ENOSPC { code = .full }
        let text: String
        switch code {
        case .full: text = "the disk is full: cannot write \(path)"
        case .cannotOpen: text = "database error in \(path): \(message)"
        case _ where rc & 0xFF == SQLITE_IOERR:
            // Which operation failed (the extended code) and what the system said, for whoever
            // has to find out why.
            let system = systemError != 0 ? ", " + String(cString: strerror(systemError)) : ""
            text = "database error in \(path): \(message) (SQLite code \(rc)\(system))"
        default: text = "database error: \(message)"
        }
        return StorageError(code, text, engineCode: "SQLITE \(rc)", statement: sql)
    }
}

/// Accumulates elapsed monotonic time across start/stop pairs.
struct Stopwatch {
    private(set) var total: Double = 0
    private var started: UInt64 = 0

    mutating func start() { started = DispatchTime.now().uptimeNanoseconds }

    mutating func stop() { total += Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9 }
}

/// The closure a progress handler calls, kept alive while the handler is installed.
private final class ProgressBox {
    let shouldStop: @Sendable () -> Bool
    init(_ shouldStop: @escaping @Sendable () -> Bool) { self.shouldStop = shouldStop }
}
