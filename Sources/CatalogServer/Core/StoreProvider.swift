import CatalogHTTP
import CatalogSQLite
import Foundation
import Synchronization

/// The server's database connections: a read-only connection per worker thread for every
/// read, and one read-write connection, used under a lock, for the few requests that write
/// (favorites, imports). SQLite's WAL lets the readers go on while the writer writes.
///
/// A worker's reads run in a snapshot it keeps for up to 100 ms and renews after any write made
/// here, so clients read their own writes; writes from other processes show within 100 ms.
public final class StoreProvider: Sendable {
    /// The database file.
    public let path: String
    private let readers: WorkerLocal<Reader>
    private let writer: Writer
    /// Bumped after every write through ``write(_:)``: readers holding an older snapshot
    /// restart it, so a client reads its own writes at once.
    private let generation = Atomic<Int>(0)

    /// How long a reader keeps one snapshot: the delay before writes made by other processes
    /// (`catalog import` while the server runs) become visible.
    static let snapshotLifetime: Duration = .milliseconds(100)

    /// Opens nothing yet: connections open on first use.
    public init(path: String) {
        self.path = path
        readers = WorkerLocal { Reader(store: try SQLiteCatalogStore(path: path, readOnly: true, memory: .server)) }
        writer = Writer(path: path)
    }

    /// This thread's read-only store, inside a snapshot at most ``snapshotLifetime`` old that
    /// includes every write made through this provider.
    ///
    /// Requests on one worker share a read transaction instead of each statement taking its own
    /// file locks; see ``SQLiteCatalogStore/beginSnapshot()``.
    public func reader() throws -> SQLiteCatalogStore {
        try freshReader().store
    }

    /// This thread's data epoch: it changes whenever this thread's reads may see different data
    /// (a write here, or a change by another process seen at a snapshot renewal). Responses made
    /// in one epoch can be reused within it.
    public func readEpoch() throws -> Int {
        try freshReader().epoch
    }

    /// This thread's reader, its snapshot renewed when it is too old or older than a write.
    private func freshReader() throws -> Reader {
        let reader = try readers.value()
        let now = ContinuousClock.now
        let current = generation.load(ordering: .acquiring)
        if reader.store.inSnapshot, now - reader.started > Self.snapshotLifetime || reader.generation != current {
            reader.store.endSnapshot()
        }
        if !reader.store.inSnapshot {
            try reader.store.beginSnapshot()
            reader.started = now
            let version = try reader.store.dataVersion()
            if version != reader.dataVersion || reader.generation != current { reader.epoch += 1 }
            reader.dataVersion = version
            reader.generation = current
        }
        return reader
    }

    /// Runs `body` with the read-write store, one caller at a time.
    public func write<T>(_ body: (SQLiteCatalogStore) throws -> T) throws -> T {
        defer { generation.add(1, ordering: .releasing) }
        return try writer.with(body)
    }

    /// Closes every connection. Call after the server stopped.
    public func close() {
        for reader in readers.drain() {
            reader.store.endSnapshot()
            reader.store.close()
        }
        writer.close()
    }

    /// A worker's store and the age of its snapshot. Used by its own thread only.
    final class Reader {
        let store: SQLiteCatalogStore
        var started = ContinuousClock.now
        var generation = 0
        var dataVersion = -1
        var epoch = 0

        init(store: SQLiteCatalogStore) {
            self.store = store
        }
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
