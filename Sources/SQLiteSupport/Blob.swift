import CSQLite
import CatalogStorage

/// An open BLOB for incremental reads and writes (`sqlite3_blob_open`), closed when the object
/// goes away: a blob of any size moves through a buffer of a megabyte, never whole in memory.
public final class Blob {
    private let handle: OpaquePointer
    private let connection: Connection
    /// The blob's size in bytes.
    public let count: Int

    /// Opens `table.column` of row `rowid` in `database` (`main`, or the name of an attached
    /// file), read-only unless `writable`; nil when the row does not exist.
    public init?(
        connection: Connection, database: String = "main", table: String, column: String, rowid: Int64,
        writable: Bool = false
    ) {
        self.connection = connection
        var blob: OpaquePointer?
        let flags: Int32 = writable ? 1 : 0
        guard sqlite3_blob_open(connection.handle, database, table, column, rowid, flags, &blob) == SQLITE_OK,
            let blob
        else {
            sqlite3_blob_close(blob)
            return nil
        }
        handle = blob
        count = Int(sqlite3_blob_bytes(blob))
    }

    deinit { sqlite3_blob_close(handle) }

    /// Runs `insert` (bound, its blob a `zeroblob(n)` of the size to come) and opens the new row's
    /// `table.column` for writing: bytes written into a row's pages, never first copied into a
    /// record as a bound blob is.
    ///
    /// - Throws: ``StorageError`` when the insert fails or the new row cannot be opened.
    public static func inserted(by insert: Statement, into table: String, column: String, on connection: Connection)
        throws -> Blob
    {
        try insert.run()
        guard
            let blob = Blob(
                connection: connection, table: table, column: column, rowid: connection.lastInsertRowID, writable: true)
        else {
            throw StorageError(.engine, "cannot write the new row of \(table): \(connection.lastMessage)")
        }
        return blob
    }

    /// Hands the blob to `body` in pieces of up to `pieceSize` bytes, in order, through one buffer.
    ///
    /// - Throws: ``StorageError`` when SQLite cannot read it (the row changed, an I/O error), or
    ///   what `body` throws.
    public func read(pieceSize: Int = 1 << 20, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, min(pieceSize, count)), alignment: 8)
        defer { buffer.deallocate() }
        var offset = 0
        while offset < count {
            let length = min(buffer.count, count - offset)
            let rc = sqlite3_blob_read(handle, buffer.baseAddress, Int32(length), Int32(offset))
            guard rc == SQLITE_OK else {
                throw connection.error(rc, connection.lastMessage, sql: nil)
            }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<length]))
            offset += length
        }
    }

    /// Writes `bytes` at byte `offset` of a blob opened writable; a blob never grows, so the row
    /// was made with room for them (`zeroblob(n)`).
    ///
    /// - Throws: ``StorageError`` when the bytes do not fit or SQLite cannot write them.
    public func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        guard offset >= 0, offset + bytes.count <= count else {
            throw StorageError(.engine, "\(bytes.count) bytes at \(offset) do not fit a blob of \(count)")
        }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let rc = sqlite3_blob_write(handle, base, Int32(bytes.count), Int32(offset))
        guard rc == SQLITE_OK else { throw connection.error(rc, connection.lastMessage, sql: nil) }
    }

    /// Copies this blob into `target`, a writable blob of the same size, a piece at a time.
    public func copy(into target: Blob) throws {
        guard target.count == count else {
            throw StorageError(.engine, "a blob of \(count) bytes cannot fill one of \(target.count)")
        }
        var offset = 0
        try read { piece in
            try target.write(piece, at: offset)
            offset += piece.count
        }
    }

    /// The little-endian 64-bit value at byte `offset`, or 0 past the end.
    public func uint64(at offset: Int) -> UInt64 {
        guard offset >= 0, offset + 8 <= count else { return 0 }
        var value: UInt64 = 0
        let rc = withUnsafeMutableBytes(of: &value) { sqlite3_blob_read(handle, $0.baseAddress, 8, Int32(offset)) }
        return rc == SQLITE_OK ? UInt64(littleEndian: value) : 0
    }
}
