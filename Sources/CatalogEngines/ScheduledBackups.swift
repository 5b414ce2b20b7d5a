import CatalogStorage
import Foundation
import Synchronization

/// Backups in the background (`catalog serve --backup-every 6h --backup-dir DIR --keep 7`):
/// every interval a ``DatabaseBackup`` of the database and its accounts into a folder, named
/// with the UTC time (`catalog-20261206T031500Z.sqlite`, `catalog-20261206T031500Z-users.sqlite`),
/// keeping the newest ones. Each backup is logged; a failure is logged and the next one is tried
/// at the next interval.
///
/// ```swift
/// let backups = ScheduledBackups(
///     database: "catalog.sqlite", accounts: "catalog-users.sqlite", directory: "backups", keep: 7,
///     interval: 6 * 3600, log: { print($0) })
/// backups.start()
/// ```
public final class ScheduledBackups: Sendable {
    private let database: String
    private let accounts: String?
    private let directory: String
    private let keep: Int
    private let interval: TimeInterval
    private let log: @Sendable (String) -> Void
    private let now: @Sendable () -> Date
    /// Wakes the thread: a ``trigger()`` or ``stop()``.
    private let condition = NSCondition()
    /// Backups asked for by ``trigger()`` and not taken yet, and whether ``stop()`` was called.
    private let state = Mutex((triggered: 0, stopped: false))
    /// Whether ``start()`` started the thread (``stop()`` waits for it only then).
    private let started = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Creates a schedule (not started).
    ///
    /// - Parameters:
    ///   - database: the SQLite catalog database.
    ///   - accounts: its accounts file, backed up beside each backup; nil: none.
    ///   - directory: where backups go (created when missing).
    ///   - keep: how many backups to keep, the newest.
    ///   - interval: seconds between backups; the first is one interval after ``start()``.
    ///   - log: where each backup and each failure is told.
    ///   - now: the clock the names come from.
    public init(
        database: String, accounts: String?, directory: String, keep: Int, interval: TimeInterval,
        log: @escaping @Sendable (String) -> Void, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.database = database
        self.accounts = accounts
        self.directory = directory
        self.keep = max(1, keep)
        self.interval = interval
        self.log = log
        self.now = now
    }

    /// The backup folder beside a database when none is given: `catalog.sqlite` → `catalog-backups`.
    public static func defaultDirectory(forDatabase path: String) -> String {
        let url = URL(fileURLWithPath: path)
        var stem = url.lastPathComponent
        for suffix in [".sqlite", ".sqlite3", ".db"] where stem.hasSuffix(suffix) && stem.count > suffix.count {
            stem = String(stem.dropLast(suffix.count))
            break
        }
        return url.deletingLastPathComponent().appendingPathComponent(stem + "-backups").path
    }

    /// The name of a backup of `database` taken at `date`: the database's name and the UTC time.
    public static func fileName(forDatabase database: String, at date: Date) -> String {
        var stem = URL(fileURLWithPath: database).lastPathComponent
        for suffix in [".sqlite", ".sqlite3", ".db"] where stem.hasSuffix(suffix) && stem.count > suffix.count {
            stem = String(stem.dropLast(suffix.count))
            break
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return "\(stem)-\(formatter.string(from: date)).sqlite"
    }

    /// Takes one backup now, then removes the oldest beyond ``keep``; returns the file written.
    ///
    /// - Throws: ``StorageError`` when the backup failed (nothing is left of it).
    @discardableResult
    public func backUpNow() throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let target = URL(fileURLWithPath: directory).appendingPathComponent(
            Self.fileName(forDatabase: database, at: now())
        ).path
        let written = try DatabaseBackup.backUp(
            database, to: target, withAccounts: accounts != nil, usersLocation: accounts
        ).catalogFile
        for old in try backups().dropLast(keep) {
            try? FileManager.default.removeItem(atPath: old)
            try? FileManager.default.removeItem(atPath: DatabaseBackup.accountsFile(ofBackup: old))
        }
        return written
    }

    /// The backups in the folder, oldest first.
    public func backups() throws -> [String] {
        let pattern = Self.fileName(forDatabase: database, at: Date(timeIntervalSince1970: 0))
        let prefix = String(pattern.dropLast("19700101T000000Z.sqlite".count))
        return try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { name in
                guard name.hasPrefix(prefix), name.hasSuffix("Z.sqlite") else { return false }
                let stamp = name.dropFirst(prefix.count).dropLast(".sqlite".count)
                return stamp.count == 16 && stamp.allSatisfy { $0.isNumber || $0 == "T" || $0 == "Z" }
            }
            .sorted()
            .map { URL(fileURLWithPath: directory).appendingPathComponent($0).path }
    }

    /// Starts the thread: a backup every interval (and at each ``trigger()``) until ``stop()``.
    public func start() {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [self] in
            while waitForNextBackup() {
                let started = Date()
                do {
                    let file = try backUpNow()
                    log(
                        "backed up \(database) to \(file)"
                            + String(format: " in %.2f s", Date().timeIntervalSince(started)))
                } catch {
                    log("backup of \(database) failed: \(error)")
                }
            }
            finished.signal()
        }
        thread.name = "catalog-backups"
        thread.start()
    }

    /// Waits for the interval to pass or for a ``trigger()``; false once stopped.
    private func waitForNextBackup() -> Bool {
        let deadline = Date(timeIntervalSinceNow: interval)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let (go, stop) = state.withLock { state -> (Bool, Bool) in
                if state.stopped { return (false, true) }
                if state.triggered > 0 {
                    state.triggered -= 1
                    return (true, false)
                }
                return (false, false)
            }
            if stop { return false }
            if go { return true }
            if !condition.wait(until: deadline) && Date() >= deadline { return true }
        }
    }

    /// Asks for a backup now, besides the schedule's (tests; the interval is then long).
    public func trigger() {
        condition.lock()
        state.withLock { $0.triggered += 1 }
        condition.broadcast()
        condition.unlock()
    }

    /// Stops the thread (after the backup it is taking, if any) and waits for it.
    public func stop() {
        condition.lock()
        state.withLock { $0.stopped = true }
        condition.broadcast()
        condition.unlock()
        if started.load(ordering: .acquiring) { finished.wait() }
    }
}
