import CatalogHTTP
import CatalogSQLite
import CatalogStorage
import Foundation

/// The server's connections to the accounts file (``SQLiteUserStore``): a read-only connection
/// per thread for checking tokens and sessions and listing favorites, and one read-write
/// connection, used under a lock, for sessions and favorites.
///
/// The accounts file is not the catalog file, so these writes never wait for a catalog import,
/// and reads see every committed write at once (no snapshots are kept open).
public final class UserStoreProvider: Sendable {
    /// The accounts file.
    public let path: String
    private let readers: WorkerLocal<SQLiteUserStore>
    private let writer: Writer

    /// Opens nothing yet: connections open on first use. The file must exist and be migrated
    /// (``SQLiteUserStore/init(path:readOnly:migratingFrom:)`` opened for writing does both).
    public init(path: String) {
        self.path = path
        readers = WorkerLocal { try SQLiteUserStore(path: path, readOnly: true) }
        writer = Writer(path: path)
    }

    /// This thread's read-only store.
    public func reader() throws -> any UserStore {
        try readers.value()
    }

    /// Runs `body` with the read-write store, one caller at a time.
    public func write<T>(_ body: (any UserStore) throws -> T) throws -> T {
        try writer.with(body)
    }

    /// Closes every connection. Call after the server stopped.
    public func close() {
        for reader in readers.drain() { reader.close() }
        writer.close()
    }

    final class Writer: @unchecked Sendable {
        // @unchecked: `store` is only touched while `lock` is held.
        private let lock = NSLock()
        private let path: String
        private var store: SQLiteUserStore?

        init(path: String) {
            self.path = path
        }

        func with<T>(_ body: (any UserStore) throws -> T) throws -> T {
            try lock.withLock {
                if store == nil { store = try SQLiteUserStore(path: path) }
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
