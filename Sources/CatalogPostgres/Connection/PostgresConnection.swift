import CLibPQ
import CatalogStorage

#if canImport(Glibc)
    import Glibc
#endif

/// One libpq connection. Not Sendable: it belongs to one thread at a time (a reading thread, or
/// whoever holds the database's write slot).
///
/// Every statement with values goes through ``query(_:_:)``: prepared once per connection, its
/// parameters bound in binary, its rows returned in binary. ``execute(_:)`` is for statements
/// without values (transaction control, DDL), which may be several at once.
///
/// Owns the `PGconn*`; ``close()`` must be called before the connection goes away (the
/// deinitializer asserts it did, and closes anyway in release builds).
final class PostgresConnection {
    private var handle: OpaquePointer?
    /// Where it is connected, without the password.
    let location: PostgresLocation
    /// Prepared statements by SQL text.
    private var statements: [String: String] = [:]
    /// The COPY in progress, if any.
    private(set) var copying = false
    /// Whether a statement sent by ``send(_:)`` may still have results to read.
    private var pending = false

    /// Session settings made after every connect (`set_config` names and values).
    private let settings: [(String, String)]

    /// Connects, then makes `settings` (session parameters such as
    /// `idle_in_transaction_session_timeout`).
    ///
    /// - Throws: ``StorageError`` `.cannotOpen` with libpq's reason on one line (refused,
    ///   unknown host, bad credentials, TLS required…), never the password.
    init(_ location: PostgresLocation, settings: [(String, String)] = []) throws(StorageError) {
        self.location = location
        self.settings = settings
        if let problem = location.problem {
            handle = nil
            throw StorageError(.cannotOpen, "cannot connect to \(location): \(problem)", engineCode: "08001")
        }
        // The URL is expanded by libpq (expand_dbname), so everything it says wins over these
        // defaults: a name in pg_stat_activity, a connect timeout, UTF-8 text.
        let keywords = ["fallback_application_name", "connect_timeout", "client_encoding", "dbname"]
        let values = ["catalog", "10", "UTF8", location.url]
        let connection = Self.withCStrings(keywords) { keywords in
            Self.withCStrings(values) { values in PQconnectdbParams(keywords, values, 1) }
        }
        handle = connection
        guard let connection, PQstatus(connection) == CONNECTION_OK else {
            let reason = connection.map { String(cString: PQerrorMessage($0)) } ?? "out of memory"
            let needsPassword = connection.map { PQconnectionNeedsPassword($0) != 0 } ?? false
            PQfinish(connection)
            handle = nil
            throw Self.connectError(reason, location: location, needsPassword: needsPassword)
        }
        clibpq_silence_notices(connection)
        do {
            try applySettings()
        } catch {
            close()
            throw error
        }
    }

    private func applySettings() throws(StorageError) {
        for (name, value) in settings {
            try query("SELECT set_config($1, $2, false)", [.text(name), .text(value)])
        }
        // A process killed in the middle of a long statement (an import's COPY or its deletes)
        // would otherwise hold its transaction, and the writers' lock, until the statement ends:
        // PostgreSQL 14 and later look for the vanished client every second.
        if let handle, PQserverVersion(handle) >= 140_000 {
            try query("SELECT set_config('client_connection_check_interval', '1000', false)")
        }
    }

    deinit {
        assert(handle == nil, "PostgreSQL connection to \(location) was not closed")
        if handle != nil { PQfinish(handle) }
    }

    /// Closes the connection. Nothing may use it afterwards.
    func close() {
        statements.removeAll()
        pending = false
        if let handle {
            PQfinish(handle)
            self.handle = nil
        }
    }

    /// Whether the connection was lost (the server restarted or killed the session).
    var isBroken: Bool {
        handle.map { PQstatus($0) != CONNECTION_OK } ?? true
    }

    /// Whether `error` says the connection is gone: libpq saw it closed, the server said so
    /// (SQLSTATE class 08, or 57P01–57P03: shut down, crashed, cannot connect now), or libpq
    /// failed on its own side without a SQLSTATE (a server that closed the connection while a
    /// statement was sent sometimes leaves `PQstatus` still OK).
    ///
    /// Nothing was committed by a statement that failed this way before its transaction's
    /// COMMIT was sent, since the server rolls back a session it loses.
    func isLost(after error: any Error) -> Bool {
        if isBroken { return true }
        guard let error = error as? StorageError else { return false }
        guard let state = error.engineCode else { return error.code == .engine }
        return state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
    }

    /// Whether the connection still looks alive, asked without waiting: whatever the server
    /// sent meanwhile is read (a shutdown's error, the end of the connection), so a server that
    /// restarted since the last statement shows here as a broken connection rather than as the
    /// next statement's failure.
    var isAlive: Bool {
        guard let handle else { return false }
        return PQconsumeInput(handle) == 1 && PQstatus(handle) == CONNECTION_OK
    }

    /// Whether no transaction is open.
    var isIdle: Bool {
        finishPending()
        return handle.map { PQtransactionStatus($0) == PQTRANS_IDLE } ?? false
    }

    /// Whether the open transaction failed (every statement fails until it is rolled back).
    var isFailedTransaction: Bool {
        finishPending()
        return handle.map { PQtransactionStatus($0) == PQTRANS_INERROR } ?? false
    }

    /// Whether a transaction is open, failed or not.
    var inTransaction: Bool {
        finishPending()
        guard let handle else { return false }
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    /// Connects again after the connection was lost; prepared statements are gone with it.
    func reconnect() throws(StorageError) {
        guard let handle else { throw StorageError(.engine, "the connection to \(location) is closed") }
        statements.removeAll()
        copying = false
        pending = false
        PQreset(handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            throw Self.connectError(
                String(cString: PQerrorMessage(handle)), location: location,
                needsPassword: PQconnectionNeedsPassword(handle) != 0)
        }
        clibpq_silence_notices(handle)
        try applySettings()
    }

    // MARK: - Statements

    /// Runs statements without values (several may be given, separated by semicolons); returns
    /// the last one's rows, in text format.
    /// Sends statements without values and does not wait for their results: the server runs
    /// them while the caller goes on, and the next use of the connection reads (and drops) what
    /// they answered. For statements whose failure changes nothing (ending a read snapshot);
    /// one that cannot be sent is left for the next statement to find the connection broken.
    func send(_ sql: String) {
        guard let handle, !pending else { return }
        pending = PQsendQuery(handle, sql) == 1
    }

    /// Reads and drops the results of a statement ``send(_:)`` sent, waiting for them if the
    /// server has not answered yet.
    private func finishPending() {
        guard pending, let handle else { return }
        pending = false
        while let result = PQgetResult(handle) { PQclear(result) }
    }

    @discardableResult
    func execute(_ sql: String) throws(StorageError) -> PostgresResult {
        let handle = try open()
        return try check(PQexec(handle, sql), sql: sql, accepting: [PGRES_COMMAND_OK, PGRES_TUPLES_OK])
    }

    /// Runs one statement with `values` bound to `$1`, `$2`, …: prepared on first use on this
    /// connection with the values' types, rows in binary.
    @discardableResult
    func query(_ sql: String, _ values: [PostgresValue] = []) throws(StorageError) -> PostgresResult {
        let handle = try open()
        let name = try prepared(sql, types: values.map(\.type), handle: handle)
        var buffer: [UInt8] = []
        var starts: [Int] = []
        var lengths: [Int32] = []
        var present: [Bool] = []
        for value in values {
            let start = buffer.count
            let isPresent = value.encode(into: &buffer)
            starts.append(start)
            lengths.append(Int32(buffer.count - start))
            present.append(isPresent)
        }
        // A value of length 0 still needs a non-null pointer (null means SQL NULL).
        buffer.append(0)
        let formats = [Int32](repeating: 1, count: values.count)
        let result = buffer.withUnsafeBufferPointer { bytes in
            let base = UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self)
            let pointers: [UnsafePointer<CChar>?] = values.indices.map { present[$0] ? base + starts[$0] : nil }
            return PQexecPrepared(handle, name, Int32(values.count), pointers, lengths, formats, 1)
        }
        return try check(result, sql: sql, accepting: [PGRES_COMMAND_OK, PGRES_TUPLES_OK])
    }

    private func prepared(_ sql: String, types: [PostgresType], handle: OpaquePointer) throws(StorageError) -> String {
        if let name = statements[sql] { return name }
        let name = "catalog_\(statements.count + 1)"
        let oids = types.map { Oid($0.rawValue) }
        _ = try check(PQprepare(handle, name, sql, Int32(oids.count), oids), sql: sql, accepting: [PGRES_COMMAND_OK])
        statements[sql] = name
        return name
    }

    // MARK: - COPY

    /// Starts `COPY … FROM STDIN`; rows follow with ``copyData(_:)`` until ``endCopy()``.
    func beginCopy(_ sql: String) throws(StorageError) {
        let handle = try open()
        _ = try check(PQexec(handle, sql), sql: sql, accepting: [PGRES_COPY_IN])
        copying = true
    }

    /// Sends bytes of the COPY stream.
    func copyData(_ bytes: [UInt8]) throws(StorageError) {
        let failure = bytes.withUnsafeBytes { buffer -> StorageError? in
            do throws(StorageError) {
                try copyData(buffer)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Sends bytes of the COPY stream, in pieces of at most 1 MiB.
    func copyData(_ bytes: UnsafeRawBufferPointer) throws(StorageError) {
        let handle = try open()
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let length = min(1 << 20, bytes.count - offset)
            let sent = PQputCopyData(
                handle, base.advanced(by: offset).assumingMemoryBound(to: CChar.self), Int32(length))
            guard sent == 1 else { throw connectionError("sending rows failed") }
            offset += length
        }
    }

    /// Ends the COPY; the server's verdict on the rows (a constraint, a bad value) comes here.
    ///
    /// - Returns: how many rows were copied.
    @discardableResult
    func endCopy() throws(StorageError) -> Int {
        let handle = try open()
        copying = false
        guard PQputCopyEnd(handle, nil) == 1 else { throw connectionError("ending COPY failed") }
        var failure: StorageError?
        var rows = 0
        while let result = PQgetResult(handle) {
            let wrapped = PostgresResult(result)
            if failure == nil {
                if PQresultStatus(result) == PGRES_COMMAND_OK {
                    rows = wrapped.affectedRows
                } else {
                    failure = StorageError.postgres(result: result, location: location, statement: "COPY")
                }
            }
        }
        if let failure { throw failure }
        return rows
    }

    /// Abandons a COPY in progress (its rows are discarded and the transaction fails), so the
    /// connection can roll back.
    func abortCopy() {
        guard copying, let handle else { return }
        copying = false
        _ = PQputCopyEnd(handle, "abandoned")
        while let result = PQgetResult(handle) { PQclear(result) }
    }

    // MARK: - Errors

    private func open() throws(StorageError) -> OpaquePointer {
        guard let handle else { throw StorageError(.engine, "the connection to \(location) is closed") }
        finishPending()
        return handle
    }

    private func check(_ result: OpaquePointer?, sql: String, accepting: [ExecStatusType]) throws(StorageError)
        -> PostgresResult
    {
        guard let result else { throw connectionError("no answer") }
        let wrapped = PostgresResult(result)
        guard accepting.contains(PQresultStatus(result)) else {
            if PQresultStatus(result) == PGRES_COPY_IN {
                // An unexpected COPY would leave the connection waiting for data.
                _ = PQputCopyEnd(handle, "unexpected COPY")
                while let extra = PQgetResult(handle) { PQclear(extra) }
            }
            throw StorageError.postgres(result: result, location: location, statement: sql)
        }
        return wrapped
    }

    private func connectionError(_ what: String) -> StorageError {
        let reason = handle.map { String(cString: PQerrorMessage($0)) } ?? ""
        let line = location.scrubbed(Self.oneLine(reason))
        return StorageError(
            .engine, "PostgreSQL at \(location): \(what)\(line.isEmpty ? "" : ": " + line)", engineCode: "08006")
    }

    /// The error for a failed connection attempt: libpq's reason, on one line, without the
    /// password; SQLSTATE 28P01 for bad credentials, 08001 otherwise.
    static func connectError(_ reason: String, location: PostgresLocation, needsPassword: Bool) -> StorageError {
        let line = location.scrubbed(oneLine(reason))
        let credentials =
            needsPassword || line.contains("password authentication failed")
            || line.contains("authentication failed for user")
        return StorageError(
            .cannotOpen, "cannot connect to \(location): \(line.isEmpty ? "unknown error" : line)",
            engineCode: credentials ? "28P01" : "08001")
    }

    /// libpq's multi-line messages ("connection to server … failed: FATAL:  …\n\tIs the server
    /// running…") as one line, its lines as sentences.
    static func oneLine(_ message: String) -> String {
        var lines: [String] = []
        for line in message.split(whereSeparator: \.isNewline) {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).filter {
                $0 != "FATAL:" && $0 != "ERROR:"
            }
            if !words.isEmpty { lines.append(words.joined(separator: " ")) }
        }
        for index in lines.indices.dropLast() where !(lines[index].last.map { ".?!:".contains($0) } ?? true) {
            lines[index] += "."
        }
        return lines.joined(separator: " ")
    }

    /// Runs `body` with a NULL-terminated array of C strings.
    private static func withCStrings<T>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        return body(copies.map { UnsafePointer($0) } + [nil])
    }
}
