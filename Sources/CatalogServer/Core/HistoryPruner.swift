import CatalogModel
import CatalogStorage
import Foundation
import Synchronization

/// Keeps the change log for a while (`catalog serve --keep-history`, 90 days by default) and
/// removes what is older: once when it starts, then every hour. A client whose `since` is older
/// than what is kept is told to reload (``ChangePage``).
public final class HistoryPruner: Sendable {
    /// The default time the log keeps a change.
    public static let defaultRetention: TimeInterval = 90 * 86_400

    private let database: any CatalogDatabase
    private let retention: TimeInterval
    private let log: @Sendable (String) -> Void
    private let condition = NSCondition()
    private let stopped = Mutex(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Creates a pruner of `database`'s change log keeping `retention` seconds.
    public init(database: any CatalogDatabase, retention: TimeInterval, log: @escaping @Sendable (String) -> Void) {
        self.database = database
        self.retention = retention
        self.log = log
    }

    /// Removes the changes older than the retention now; returns how many went.
    @discardableResult
    public func prune(now: Date = Date()) throws -> Int {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let cutoff = formatter.string(from: now.addingTimeInterval(-retention))
        return try database.write { try $0.pruneChanges(before: cutoff) }
    }

    /// Starts the hourly thread.
    public func start() {
        let thread = Thread { [self] in
            while !stopped.withLock({ $0 }) {
                do {
                    let removed = try prune()
                    if removed > 0 { log("removed \(removed) changes older than the history keeps") }
                } catch {
                    log("cannot prune the change log: \(error)")
                }
                condition.lock()
                if !stopped.withLock({ $0 }) { _ = condition.wait(until: Date(timeIntervalSinceNow: 3600)) }
                condition.unlock()
            }
            finished.signal()
        }
        thread.name = "catalog-history"
        thread.start()
    }

    /// Stops the thread and waits for it.
    public func stop() {
        condition.lock()
        stopped.withLock { $0 = true }
        condition.signal()
        condition.unlock()
        finished.wait()
    }
}
