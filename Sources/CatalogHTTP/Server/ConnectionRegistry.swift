import CMicroHTTPD
import Foundation
import Synchronization

/// The server's ``ConnectionTable`` behind a lock, fed by libmicrohttpd's connection callbacks,
/// with a thread that closes connections whose request head is late.
///
/// Closing means `shutdown(2)` on the socket: libmicrohttpd sees the end of the stream on its
/// next turn and closes the connection itself, so its own bookkeeping stays right. The socket is
/// shut down under the lock that the close notification also takes, and libmicrohttpd closes the
/// descriptor only after that notification, so a descriptor number reused by a newer connection
/// is never touched.
final class ConnectionRegistry: Sendable {
    private let table: Mutex<ConnectionTable>
    private let stopped = Atomic<Bool>(false)
    private let sweepInterval: Duration
    /// Counts connections closed for a late head or to make room, for tests and logs.
    let closedLate = Atomic<Int>(0)
    let closedForRoom = Atomic<Int>(0)
    /// Counts connections closed because their request body missed its deadline (408).
    let closedBodyLate = Atomic<Int>(0)

    init(connectionLimit: Int, workers: Int, headerTimeout: Duration) {
        table = Mutex(ConnectionTable(connectionLimit: connectionLimit, workers: workers, headerTimeout: headerTimeout))
        // Check often enough that a late head is closed within a tenth of the deadline.
        sweepInterval = min(.milliseconds(500), max(.milliseconds(20), headerTimeout / 10))
    }

    /// A connection opened on `worker`; returns the id to keep with it.
    func opened(socket: Int32, worker: Int) -> Int {
        table.withLock { table in
            let (id, close) = table.opened(socket: socket, worker: worker, at: .now)
            for socket in close { _ = cmhd_shutdown(socket) }
            closedForRoom.add(close.count, ordering: .relaxed)
            return id
        }
    }

    /// Connections open and not being closed (what a test waits for after it connected).
    var openCount: Int { table.withLock { $0.openCount } }
    /// Connections opened so far, closed ones included.
    var openedCount: Int { table.withLock { $0.openedCount } }
    /// Connections with a request being answered.
    var busyCount: Int { table.withLock { $0.busyCount } }

    func requestStarted(_ id: Int) {
        table.withLock { $0.requestStarted(id) }
    }

    func requestFinished(_ id: Int) {
        table.withLock { $0.requestFinished(id, at: .now) }
    }

    func closed(_ id: Int) {
        table.withLock { $0.closed(id) }
    }

    /// Whether any open connection has bytes the server has not read yet (a request that
    /// arrived but is not parsed).
    func hasUnreadBytes() -> Bool {
        table.withLock { table in
            table.entries.values.contains { entry in
                guard !entry.closing else { return false }
                var count: Int32 = 0
                return ioctl(entry.socket, UInt(FIONREAD), &count) == 0 && count > 0
            }
        }
    }

    /// Starts the thread that closes connections whose request head is late.
    func startSweeping() {
        let thread = Thread { [self] in
            while !stopped.load(ordering: .relaxed) {
                let nanoseconds =
                    sweepInterval.components.attoseconds / 1_000_000_000
                    + sweepInterval.components.seconds * 1_000_000_000
                usleep(UInt32(max(1_000, nanoseconds / 1_000)))
                sweep()
            }
        }
        thread.name = "catalog-http-deadlines"
        thread.start()
    }

    /// Closes every connection whose request head is late now.
    func sweep() {
        table.withLock { table in
            let late = table.expired(at: .now)
            for socket in late { _ = cmhd_shutdown(socket) }
            closedLate.add(late.count, ordering: .relaxed)
        }
    }

    /// Stops the sweeping thread (within one interval).
    func stopSweeping() {
        stopped.store(true, ordering: .relaxed)
    }
}
