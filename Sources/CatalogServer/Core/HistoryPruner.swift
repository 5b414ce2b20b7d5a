import CatalogModel
import CatalogStorage
import Foundation

/// Keeps the change log for a while (`catalog serve --keep-history`, 90 days by default) and
/// removes what is older: once when it starts, then every hour. A client whose `since` is older
/// than what is kept is told to reload (``ChangePage``).
public final class HistoryPruner: Sendable {
    /// The default time the log keeps a change.
    public static let defaultRetention: TimeInterval = 90 * 86_400

    private let database: any CatalogDatabase
    private let retention: TimeInterval
    private let task: PeriodicTask

    /// Creates a pruner of `database`'s change log keeping `retention` seconds.
    public init(database: any CatalogDatabase, retention: TimeInterval, log: @escaping @Sendable (String) -> Void) {
        self.database = database
        self.retention = retention
        task = PeriodicTask(name: "catalog-history", interval: 3600) { [database, retention, log] in
            do {
                let removed = try Self.prune(database, retention: retention, now: Date())
                if removed > 0 { log("removed \(removed) changes older than the history keeps") }
            } catch {
                log("cannot prune the change log: \(error)")
            }
        }
    }

    /// Removes the changes older than the retention now; returns how many went.
    @discardableResult
    public func prune(now: Date = Date()) throws -> Int {
        try Self.prune(database, retention: retention, now: now)
    }

    private static func prune(_ database: any CatalogDatabase, retention: TimeInterval, now: Date) throws -> Int {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let cutoff = formatter.string(from: now.addingTimeInterval(-retention))
        return try database.write { try $0.pruneChanges(before: cutoff) }
    }

    /// Starts the hourly thread.
    public func start() {
        task.start()
    }

    /// Stops the thread and waits for it.
    public func stop() {
        task.stop()
    }
}
