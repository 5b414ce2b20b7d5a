import CSQLite
import CatalogStorage

/// An open BLOB for incremental reads (`sqlite3_blob_open`), closed when the object goes away.
public final class Blob {
    private let handle: OpaquePointer
    private let connection: Connection
    /// The blob's size in bytes.
    public let count: Int

    /// Opens `table.column` of row `rowid` read-only; nil when the row does not exist.
    public init?(connection: Connection, table: String, column: String, rowid: Int64) {
        self.connection = connection
        var blob: OpaquePointer?
        guard sqlite3_blob_open(connection.handle, "main", table, column, rowid, 0, &blob) == SQLITE_OK, let blob else {
            sqlite3_blob_close(blob)
            return nil
        }
        handle = blob
        count = Int(sqlite3_blob_bytes(blob))
    }

    deinit { sqlite3_blob_close(handle) }

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

    /// The little-endian 64-bit value at byte `offset`, or 0 past the end.
    public func uint64(at offset: Int) -> UInt64 {
        guard offset >= 0, offset + 8 <= count else { return 0 }
        var value: UInt64 = 0
        let rc = withUnsafeMutableBytes(of: &value) { sqlite3_blob_read(handle, $0.baseAddress, 8, Int32(offset)) }
        return rc == SQLITE_OK ? UInt64(littleEndian: value) : 0
    }
}
