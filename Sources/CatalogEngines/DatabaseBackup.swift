import CatalogSQLite
import CatalogStorage
import Foundation

/// Backups and restores of a catalog database by location: SQLite files through
/// ``CatalogBackup``; a PostgreSQL database is refused with what to use instead.
///
/// ```swift
/// try DatabaseBackup.backUp("catalog.sqlite", to: "nightly.sqlite", withAccounts: true)
/// ```
public enum DatabaseBackup {
    /// The files a backup wrote.
    public struct Files: Sendable, Equatable {
        /// The catalog database's copy.
        public var catalogFile: String
        /// The accounts file's copy, when accounts were backed up.
        public var accountsFile: String?
    }

    /// What to use for a PostgreSQL database, for the refusal.
    public static let postgresAdvice =
        "back up a PostgreSQL database with pg_dump (and pg_restore), or copy it to a SQLite file with "
        + "'catalog copy --to FILE --users'"

    /// The accounts file of the SQLite database at `location`: `usersLocation`, else beside it.
    public static func accountsFile(of location: String, usersLocation: String? = nil) -> String {
        usersLocation ?? SQLiteUserStore.defaultPath(forCatalog: location)
    }

    /// Where a backup at `path` keeps its accounts (`nightly.sqlite` → `nightly-users.sqlite`).
    public static func accountsFile(ofBackup path: String) -> String {
        CatalogBackup.accountsFile(ofBackup: path)
    }

    /// Writes a checked copy of the database at `location` to `target` (see ``CatalogBackup``).
    ///
    /// - Parameters:
    ///   - location: the catalog database, a SQLite file.
    ///   - target: the backup file.
    ///   - withAccounts: whether to copy the accounts file too, to ``accountsFile(ofBackup:)``.
    ///   - usersLocation: the accounts file, when not the default one beside the database.
    ///   - replace: whether an existing backup file may be replaced.
    /// - Returns: the files written.
    /// - Throws: ``StorageError``; `.invalidArgument` with ``postgresAdvice`` for PostgreSQL.
    @discardableResult
    public static func backUp(
        _ location: String, to target: String, withAccounts: Bool, usersLocation: String? = nil,
        replace: Bool = false
    ) throws -> Files {
        guard !CatalogEngines.isPostgres(location) else { throw StorageError(.invalidArgument, postgresAdvice) }
        let written = try CatalogBackup.backUp(
            database: location, to: target,
            accounts: withAccounts ? accountsFile(of: location, usersLocation: usersLocation) : nil,
            replace: replace)
        return Files(catalogFile: written.catalogFile, accountsFile: written.accountsFile)
    }

    /// Puts the backup at `backup` back at `location` (see ``CatalogBackup/restore(from:into:accounts:replace:)``).
    ///
    /// - Throws: ``StorageError``; `.invalidArgument` with ``postgresAdvice`` for PostgreSQL.
    public static func restore(
        _ backup: String, into location: String, withAccounts: Bool, usersLocation: String? = nil, replace: Bool
    ) throws {
        guard !CatalogEngines.isPostgres(location) else { throw StorageError(.invalidArgument, postgresAdvice) }
        try CatalogBackup.restore(
            from: backup, into: location,
            accounts: withAccounts ? accountsFile(of: location, usersLocation: usersLocation) : nil, replace: replace)
    }
}
