import CatalogHTTP
import CatalogSQLite
import Foundation

/// The server's database connections: a read-only connection per worker thread for every
/// read, and one read-write connection, used under a lock, for the few requests that write
/// (favorites, imports). SQLite's WAL lets the readers go on while the writer writes.
public final class StoreProvider: Sendable {
    /// The database file.
    public let path: String
    private let readers: WorkerLocal<SQLiteCatalogStore>
    private let writer: Writer

    /// Opens nothing yet: connections open on first use.
    public init(path: String) {
        self.path = path
        readers = WorkerLocal { try SQLiteCatalogStore(path: path, readOnly: true) }
        writer = Writer(path: path)
    }

    /// This thread's read-only store.
    public func reader() throws -> SQLiteCatalogStore {
        try readers.value()
    }

    /// Runs `body` with the read-write store, one caller at a time.
    public func write<T>(_ body: (SQLiteCatalogStore) throws -> T) throws -> T {
        try writer.with(body)
    }

    /// Closes every connection. Call after the server stopped.
    public func close() {
        for store in readers.drain() { store.close() }
        writer.close()
    }

    final class Writer: @unchecked Sendable {
        // @unchecked: `store` is only touched while `lock` is held.
        private let lock = NSLock()
        private let path: String
        private var store: SQLiteCatalogStore?

        init(path: String) {
            self.path = path
        }

        func with<T>(_ body: (SQLiteCatalogStore) throws -> T) throws -> T {
            try lock.withLock {
                if store == nil { store = try SQLiteCatalogStore(path: path) }
                return try body(store!)
            }
        }

        func close() {
            lock.withLock {
                store?.close()
                store = nil
            }
        }
    }
}
