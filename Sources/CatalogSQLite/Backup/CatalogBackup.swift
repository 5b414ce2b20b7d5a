import CatalogStorage
import Foundation
import SQLiteSupport

/// Backups of a SQLite catalog database (and its accounts file) while servers read and write
/// it, and restores of them into it (`catalog backup`, `catalog restore`, `catalog serve
/// --backup-every`).
///
/// A backup copies the file's pages with SQLite's online backup API into a temporary file beside
/// the target, checks the copy with `PRAGMA integrity_check`, turns its write-ahead log off (the
/// backup is one self-contained file) and renames it over the target: an interrupted backup
/// leaves no half-written file. A restore copies a checked backup's pages into the live file in
/// one write transaction: readers see the old content or the new one, and running servers notice
/// it at their next read (`PRAGMA data_version`), as they notice any other process's write.
///
/// ```swift
/// let written = try CatalogBackup.backUp(database: "catalog.sqlite", to: "nightly.sqlite")
/// try CatalogBackup.restore(from: written.catalogFile, into: "catalog.sqlite", replace: true)
/// ```
public enum CatalogBackup {
    /// The files a backup wrote.
    public struct Written: Sendable, Equatable {
        /// The catalog database's copy.
        public var catalogFile: String
        /// The accounts file's copy, when accounts were backed up.
        public var accountsFile: String?
    }

    /// Where the backup at `path` keeps its accounts: beside it, as a database keeps them
    /// (`nightly.sqlite` → `nightly-users.sqlite`), so a restore finds them the same way.
    public static func accountsFile(ofBackup path: String) -> String {
        SQLiteUserStore.defaultPath(forCatalog: path)
    }

    /// Writes a consistent copy of the catalog database at `database` to `target`, and with
    /// `accounts` the accounts file at that path to ``accountsFile(ofBackup:)``.
    ///
    /// - Parameters:
    ///   - database: the live catalog database (SQLite file).
    ///   - target: the backup file to write.
    ///   - accounts: the live accounts file to copy too, or nil.
    ///   - replace: whether an existing target may be replaced.
    ///   - pace: how many pages each step of the copy takes.
    /// - Returns: the files written.
    /// - Throws: ``StorageError``: `.invalidArgument` for a target that exists (without
    ///   `replace`), `.cannotOpen` for a source that is not a catalog database or a copy that
    ///   failed its check, `.busy` or `.engine` when the copy failed. Nothing is left behind.
    public static func backUp(
        database: String, to target: String, accounts: String? = nil, replace: Bool = false,
        pace: Connection.BackupPace = .stepwise
    ) throws -> Written {
        var jobs = [Job(source: database, target: target, applicationID: SQLiteDatabase.applicationID)]
        if let accounts {
            jobs.append(
                Job(source: accounts, target: accountsFile(ofBackup: target), applicationID: UserSchema.applicationID))
        }
        for job in jobs where !replace && FileManager.default.fileExists(atPath: job.target) {
            throw StorageError(.invalidArgument, "\(job.target) exists; add --replace to overwrite it")
        }
        var written: [String] = []
        defer { for file in written { removeDatabaseFiles(file) } }
        for job in jobs {
            try CatalogEnginesFile.requireExisting(job.source)
            let temporary = temporaryPath(beside: job.target)
            written.append(temporary)
            try copy(job, into: temporary, pace: pace)
        }
        for (job, temporary) in zip(jobs, written) {
            // A write-ahead log left by an older file of that name would be applied to the new one.
            removeDatabaseFiles(job.target, keepingMain: true)
            guard rename(temporary, job.target) == 0 else {
                throw StorageError(
                    .engine, "cannot rename \(temporary) to \(job.target): \(String(cString: strerror(errno)))")
            }
        }
        written.removeAll()
        return Written(catalogFile: target, accountsFile: accounts.map { _ in accountsFile(ofBackup: target) })
    }

    /// Checks that `path` is a sound catalog database of this program's schema version: what a
    /// restore asks first.
    ///
    /// - Throws: ``StorageError`` `.cannotOpen` naming what is wrong.
    public static func check(backup path: String) throws {
        try check(
            path, applicationID: SQLiteDatabase.applicationID, kind: "catalog database",
            version: Schema.currentVersion)
    }

    /// Checks that `path` is a sound accounts file of this program's schema version.
    ///
    /// - Throws: ``StorageError`` `.cannotOpen` naming what is wrong.
    public static func check(accountsBackup path: String) throws {
        try check(
            path, applicationID: UserSchema.applicationID, kind: "accounts database",
            version: UserSchema.currentVersion)
    }

    /// Puts the backup at `backup` back at `database`, and with `accounts` the accounts backup
    /// beside it (``accountsFile(ofBackup:)``) at that path. Both are checked first. A database
    /// that exists gets the backup's pages in one write transaction (a server on it keeps
    /// running and sees the restored catalogs at its next read); a missing one is written to a
    /// temporary file and renamed into place.
    ///
    /// - Parameters:
    ///   - backup: the backup file (``backUp(database:to:accounts:replace:pace:)``).
    ///   - database: the catalog database to restore.
    ///   - accounts: the accounts file to restore from the backup's, or nil.
    ///   - replace: whether an existing database (or accounts file) may be overwritten.
    /// - Throws: ``StorageError``: `.cannotOpen` for a backup that fails its checks,
    ///   `.invalidArgument` for an existing database without `replace`.
    public static func restore(from backup: String, into database: String, accounts: String? = nil, replace: Bool)
        throws
    {
        try check(backup: backup)
        var jobs = [Job(source: backup, target: database, applicationID: SQLiteDatabase.applicationID)]
        if let accounts {
            let accountsBackup = accountsFile(ofBackup: backup)
            guard FileManager.default.fileExists(atPath: accountsBackup) else {
                throw StorageError(.cannotOpen, "no accounts backup at \(accountsBackup)")
            }
            try check(accountsBackup: accountsBackup)
            jobs.append(Job(source: accountsBackup, target: accounts, applicationID: UserSchema.applicationID))
        }
        for job in jobs where !replace && FileManager.default.fileExists(atPath: job.target) {
            throw StorageError(.invalidArgument, "\(job.target) exists; add --replace to overwrite it")
        }
        for job in jobs {
            if FileManager.default.fileExists(atPath: job.target) {
                try copyIntoLive(job)
            } else {
                let temporary = temporaryPath(beside: job.target)
                defer { removeDatabaseFiles(temporary) }
                try copy(job, into: temporary, pace: .oneStep, journal: "WAL")
                guard rename(temporary, job.target) == 0 else {
                    throw StorageError(
                        .engine, "cannot rename \(temporary) to \(job.target): \(String(cString: strerror(errno)))")
                }
            }
        }
    }

    // MARK: - Copying

    /// One file to copy: a catalog database or an accounts file.
    struct Job {
        var source: String
        var target: String
        var applicationID: Int
    }

    /// Copies `job.source` into a new file at `temporary`, checks it and leaves it with the
    /// `journal` mode.
    private static func copy(
        _ job: Job, into temporary: String, pace: Connection.BackupPace, journal: String = "DELETE"
    )
        throws
    {
        let source = try Connection(path: job.source, mode: .readOnly)
        defer { source.close() }
        try requireApplicationID(source, job.applicationID)
        let copy = try Connection(path: temporary, mode: .readWriteCreate)
        defer { copy.close() }
        try copy.copyPages(from: source, pace: pace)
        try copy.execute("PRAGMA journal_mode = \(journal)")
        let problems = try copy.integrityProblems()
        guard problems.isEmpty else {
            throw StorageError(
                .cannotOpen, "the copy of \(job.source) failed its integrity check: \(problems.joined(separator: "; "))"
            )
        }
    }

    /// Copies `job.source`'s pages over the live file `job.target`, in one write transaction.
    private static func copyIntoLive(_ job: Job) throws {
        let source = try Connection(path: job.source, mode: .readOnly)
        defer { source.close() }
        let live = try Connection(path: job.target, mode: .readWrite)
        defer { live.close() }
        live.setBusyTimeout(.seconds(300))
        try requireApplicationID(live, job.applicationID)
        try live.copyPages(from: source, pace: .oneStep)
    }

    private static func check(_ path: String, applicationID: Int, kind: String, version: Int) throws {
        try CatalogEnginesFile.requireExisting(path)
        let connection = try Connection(path: path, mode: .readOnly)
        defer { connection.close() }
        guard try connection.prepare("PRAGMA application_id").scalarInt() == applicationID else {
            throw StorageError(.cannotOpen, "\(path) is not a \(kind) backup")
        }
        let found = try connection.prepare("PRAGMA user_version").scalarInt() ?? 0
        guard found == version else {
            throw StorageError(
                .cannotOpen, "\(path) has schema version \(found), this program restores version \(version)")
        }
        let problems = try connection.integrityProblems()
        guard problems.isEmpty else {
            throw StorageError(
                .cannotOpen, "\(path) failed its integrity check: \(problems.joined(separator: "; "))")
        }
    }

    /// Refuses a file that holds tables but is not the kind expected (an empty file is new).
    private static func requireApplicationID(_ connection: Connection, _ applicationID: Int) throws {
        let found = try connection.prepare("PRAGMA application_id").scalarInt() ?? 0
        let tables = try connection.prepare("SELECT count(*) FROM sqlite_schema").scalarInt() ?? 0
        guard found == applicationID || (found == 0 && tables == 0) else {
            throw StorageError(.cannotOpen, "\(connection.path) is not a database of the kind expected here")
        }
    }

    /// A new name in `target`'s folder: `.NAME.partial-UUID`.
    static func temporaryPath(beside target: String) -> String {
        let url = URL(fileURLWithPath: target)
        return url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).partial-\(UUID().uuidString.prefix(8))"
        ).path
    }

    /// Removes a database file's write-ahead log and shared memory, and the file unless
    /// `keepingMain`.
    static func removeDatabaseFiles(_ path: String, keepingMain: Bool = false) {
        for suffix in keepingMain ? ["-wal", "-shm", "-journal"] : ["", "-wal", "-shm", "-journal"] {
            unlink(path + suffix)
        }
    }
}

/// The file checks the engines make before opening a file, for backups.
enum CatalogEnginesFile {
    /// Refuses a path that is not an existing regular file.
    static func requireExisting(_ path: String) throws {
        var status = stat()
        guard stat(path, &status) == 0 else { throw StorageError(.cannotOpen, "no database at \(path)") }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw StorageError(.cannotOpen, "\(path) is not a database file")
        }
    }
}
