import CSQLite
import CatalogStorage

extension Connection {
    /// How a copy with SQLite's online backup API goes: pages at a time, or all at once.
    public struct BackupPace: Sendable {
        /// Pages copied per step; between steps the source is not locked.
        public var pagesPerStep: Int32
        /// How many times the copy may start again (another connection wrote to the source
        /// between two steps) before the rest is copied in one step, in one read transaction.
        public var restartsBeforeOneStep: Int
        /// Called after each step that leaves pages to copy, with the source unlocked (tests use it
        /// to let a writer in between two steps).
        public var afterStep: (@Sendable () -> Void)?

        /// Creates a pace.
        public init(pagesPerStep: Int32, restartsBeforeOneStep: Int, afterStep: (@Sendable () -> Void)? = nil) {
            self.pagesPerStep = pagesPerStep
            self.restartsBeforeOneStep = restartsBeforeOneStep
            self.afterStep = afterStep
        }

        /// 1,024 pages (4 MiB) a step, then one step after three restarts. In WAL mode the one
        /// step is a reader and does not hold writers up either.
        public static let stepwise = BackupPace(pagesPerStep: 1024, restartsBeforeOneStep: 3)

        /// Every page in one step: the destination changes in one transaction.
        public static let oneStep = BackupPace(pagesPerStep: -1, restartsBeforeOneStep: 0)
    }

    /// Copies every page of `source`'s main database over this connection's main database with
    /// SQLite's online backup API: a consistent snapshot of the source, written in one write
    /// transaction of this connection, so its readers see the old content or the new, never a
    /// mix. Other connections may read and write the source meanwhile.
    ///
    /// - Parameters:
    ///   - source: the connection to copy from.
    ///   - pace: how many pages a step copies.
    /// - Throws: ``StorageError`` (`.busy` when a lock was held too long).
    public func copyPages(from source: Connection, pace: BackupPace = .stepwise) throws(StorageError) {
        guard let backup = sqlite3_backup_init(handle, "main", source.handle, "main") else {
            throw error(sqlite3_errcode(handle), lastMessage, sql: nil)
        }
        var pages = pace.pagesPerStep
        var restarts = 0
        var lastRemaining = Int32.max
        var rc: Int32 = SQLITE_OK
        // A lock another connection holds: wait 20 ms and try again, for up to 5 minutes.
        var waits = 0
        while (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED) && waits < 15_000 {
            rc = sqlite3_backup_step(backup, pages)
            let remaining = sqlite3_backup_remaining(backup)
            if rc == SQLITE_OK, remaining > lastRemaining {
                restarts += 1
                if restarts > pace.restartsBeforeOneStep { pages = -1 }
            }
            lastRemaining = remaining
            if rc == SQLITE_OK { pace.afterStep?() }
            if rc == SQLITE_BUSY || rc == SQLITE_LOCKED {
                waits += 1
                sqlite3_sleep(20)
            }
        }
        let finish = sqlite3_backup_finish(backup)
        guard rc == SQLITE_DONE, finish == SQLITE_OK else {
            let code = rc == SQLITE_DONE ? finish : rc
            throw error(code, lastMessage, sql: nil)
        }
    }

    /// The result of `PRAGMA integrity_check`: empty when the file is sound, else its complaints
    /// (at most 10).
    public func integrityProblems() throws(StorageError) -> [String] {
        let statement = try prepare("PRAGMA integrity_check(10)")
        var lines: [String] = []
        while try statement.step() { lines.append(statement.text(0)) }
        return lines == ["ok"] ? [] : lines
    }
}
