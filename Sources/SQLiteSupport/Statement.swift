import CSQLite
import CatalogStorage

/// A prepared statement; finalized when the object goes away.
public final class Statement {
    private let stmt: OpaquePointer
    private unowned let connection: Connection
    /// The statement's SQL, for error messages in logs.
    public let sql: String

    init(_ stmt: OpaquePointer, connection: Connection, sql: String) {
        self.stmt = stmt
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(stmt) }

    /// Resets the statement and clears its bindings.
    public func reset() {
        sqlite3_reset(stmt)
        sqlite3_clear_bindings(stmt)
    }

    /// Binds `values` to parameters 1…n.
    @discardableResult
    public func bind(_ values: any SQLValue...) throws(StorageError) -> Statement {
        try bind(values)
    }

    /// Binds `values` to parameters 1…n.
    @discardableResult
    public func bind(_ values: [any SQLValue]) throws(StorageError) -> Statement {
        for (index, value) in values.enumerated() {
            try bind(value, at: Int32(index + 1))
        }
        return self
    }

    /// Binds one value at a 1-based index.
    public func bind(_ value: (any SQLValue)?, at index: Int32) throws(StorageError) {
        try bind(binding: value?.sqlBinding ?? .null, at: index)
    }

    /// Binds UTF-8 bytes as text at a 1-based index, without making a `String` of them first.
    public func bind(utf8 bytes: [UInt8], at index: Int32) throws(StorageError) {
        guard !bytes.isEmpty else { return try bind(binding: .text(""), at: index) }
        let rc = bytes.withUnsafeBytes { buffer in
            sqlite3_bind_text(
                stmt, index, buffer.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(buffer.count),
                csqlite_transient())
        }
        if rc != SQLITE_OK { throw connection.error(rc, connection.lastMessage, sql: sql) }
    }

    /// Binds a value in SQLite's own terms at a 1-based index.
    public func bind(binding: SQLBinding, at index: Int32) throws(StorageError) {
        let rc: Int32
        switch binding {
        case .null: rc = sqlite3_bind_null(stmt, index)
        case .integer(let v): rc = sqlite3_bind_int64(stmt, index, v)
        case .real(let v): rc = sqlite3_bind_double(stmt, index, v)
        case .text(let text): return try bind(text, at: index)
        case .blob(let bytes): return try bind(bytes, at: index)
        }
        if rc != SQLITE_OK { throw connection.error(rc, connection.lastMessage, sql: sql) }
    }

    // The typed binds below cost no existential and no array of values: a bulk write binds
    // millions of values with them.

    /// Binds an integer at a 1-based index.
    public func bind(_ value: Int64, at index: Int32) throws(StorageError) {
        let rc = sqlite3_bind_int64(stmt, index, value)
        if rc != SQLITE_OK { throw connection.error(rc, connection.lastMessage, sql: sql) }
    }

    /// Binds an integer at a 1-based index.
    public func bind(_ value: Int, at index: Int32) throws(StorageError) {
        try bind(Int64(value), at: index)
    }

    /// Binds text at a 1-based index: its UTF-8 bytes as they are, with their length (no C
    /// string is made, and none is measured).
    public func bind(_ value: String, at index: Int32) throws(StorageError) {
        var text = value
        let rc = text.withUTF8 { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_text(stmt, index, "", 0, csqlite_transient())
            }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text(stmt, index, $0, Int32(bytes.count), csqlite_transient())
            }
        }
        if rc != SQLITE_OK { throw connection.error(rc, connection.lastMessage, sql: sql) }
    }

    /// Binds bytes as a blob at a 1-based index.
    public func bind(_ value: [UInt8], at index: Int32) throws(StorageError) {
        let rc = value.withUnsafeBytes {
            sqlite3_bind_blob(stmt, index, $0.baseAddress, Int32($0.count), csqlite_transient())
        }
        if rc != SQLITE_OK { throw connection.error(rc, connection.lastMessage, sql: sql) }
    }

    /// Advances to the next row; false when done.
    public func step() throws(StorageError) -> Bool {
        let rc = sqlite3_step(stmt)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(rc, connection.lastMessage, sql: sql)
        }
    }

    /// Runs the statement to completion.
    public func run() throws(StorageError) {
        while try step() {}
    }

    /// Calls `body` for each row.
    public func forEachRow(_ body: (Statement) throws -> Void) throws {
        while try step() { try body(self) }
    }

    /// The first column of the first row as an integer, or nil.
    public func scalarInt() throws(StorageError) -> Int? {
        defer { finish() }
        guard try step() else { return nil }
        return isNull(0) ? nil : int(0)
    }

    /// Ends the current run without clearing bindings, releasing the read snapshot an unfinished
    /// statement would otherwise hold (in WAL mode it would keep seeing old data).
    public func finish() {
        sqlite3_reset(stmt)
    }

    /// Whether column `i` is NULL.
    public func isNull(_ i: Int32) -> Bool { sqlite3_column_type(stmt, i) == SQLITE_NULL }
    /// Column `i` as an integer.
    public func int(_ i: Int32) -> Int { Int(sqlite3_column_int64(stmt, i)) }
    /// Column `i` as a 64-bit integer.
    public func int64(_ i: Int32) -> Int64 { sqlite3_column_int64(stmt, i) }
    /// Column `i` as text ("" for NULL).
    public func text(_ i: Int32) -> String {
        guard let pointer = sqlite3_column_text(stmt, i) else { return "" }
        let count = Int(sqlite3_column_bytes(stmt, i))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }
    /// Column `i` as optional text.
    public func optionalText(_ i: Int32) -> String? { isNull(i) ? nil : text(i) }
    /// Column `i` as optional integer.
    public func optionalInt(_ i: Int32) -> Int? { isNull(i) ? nil : int(i) }
    /// Column `i` as bytes.
    public func blob(_ i: Int32) -> [UInt8] {
        guard let pointer = sqlite3_column_blob(stmt, i) else { return [] }
        let count = Int(sqlite3_column_bytes(stmt, i))
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
    /// Column `i` as a value to bind elsewhere, keeping its storage class.
    public func value(_ i: Int32) -> SQLBinding {
        let type = sqlite3_column_type(stmt, i)
        if type == SQLITE_INTEGER { return SQLBinding.integer(int64(i)) }
        if type == SQLITE_FLOAT { return SQLBinding.real(sqlite3_column_double(stmt, i)) }
        if type == SQLITE_TEXT { return SQLBinding.text(self.text(i)) }
        if type == SQLITE_BLOB { return SQLBinding.blob(self.blob(i)) }
        return SQLBinding.null
    }

    /// Number of result columns.
    public var columnCount: Int32 { sqlite3_column_count(stmt) }
    /// The name of result column `i`.
    public func columnName(_ i: Int32) -> String { String(cString: sqlite3_column_name(stmt, i)) }
    /// The storage class of column `i` in the current row.
    public func columnType(_ i: Int32) -> Int32 { sqlite3_column_type(stmt, i) }
    /// The declared type of result column `i` (`TEXT`, `JSON`, …) when it is a table column.
    public func columnDeclaredType(_ i: Int32) -> String? {
        sqlite3_column_decltype(stmt, i).map { String(cString: $0) }
    }
}

/// A value that can be bound to a statement parameter.
public protocol SQLValue {
    /// The value as SQLite stores it.
    var sqlBinding: SQLBinding { get }
}

/// SQLite's storage classes.
public enum SQLBinding {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

extension Int: SQLValue { public var sqlBinding: SQLBinding { .integer(Int64(self)) } }
extension Int64: SQLValue { public var sqlBinding: SQLBinding { .integer(self) } }
extension Double: SQLValue { public var sqlBinding: SQLBinding { .real(self) } }
extension String: SQLValue { public var sqlBinding: SQLBinding { .text(self) } }
extension Array: SQLValue where Element == UInt8 { public var sqlBinding: SQLBinding { .blob(self) } }
extension Optional: SQLValue where Wrapped: SQLValue {
    public var sqlBinding: SQLBinding { self?.sqlBinding ?? .null }
}
