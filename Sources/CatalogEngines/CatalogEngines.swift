import CatalogCollation
import CatalogPostgres
import CatalogSQLite
import CatalogStorage

/// Opens a catalog database from a location: a file path (SQLite) or a `postgres://` or
/// `postgresql://` URL (PostgreSQL). The one place that knows the engines by name; the server,
/// the command line and the benchmarks only see ``CatalogDatabase``.
///
/// ```swift
/// let database = try CatalogEngines.open("catalog.sqlite")
/// ```
public enum CatalogEngines {
    /// How a database is used.
    public struct Options: Sendable {
        /// A server's settings (smaller caches per reader, mapped files).
        public var server = false
        /// How long a write waits for another writer before it fails.
        public var lockTimeout: Duration = .seconds(300)
        /// Called once when a write has to wait for another writer.
        public var waitingForLock: (@Sendable () -> Void)?
        /// SQLite: the accounts file (default: beside the catalog file, `catalog.sqlite` →
        /// `catalog-users.sqlite`). PostgreSQL keeps accounts in the same database.
        public var usersLocation: String?

        /// The command line's settings.
        public init() {}
    }

    /// Whether `location` names a PostgreSQL database.
    public static func isPostgres(_ location: String) -> Bool {
        PostgresLocation.isPostgres(location)
    }

    /// Opens (creating and migrating when needed) the database at `location`, and rebuilds
    /// catalogs whose stored form is older than this program or whose sort keys came from
    /// another collator version.
    ///
    /// - Throws: ``StorageError`` `.cannotOpen` with a one-line reason.
    public static func open(_ location: String, options: Options = Options()) throws -> any CatalogDatabase {
        if isPostgres(location) {
            var postgres = options.server ? PostgresDatabase.Options.server : PostgresDatabase.Options()
            postgres.lockTimeout = options.lockTimeout
            postgres.waitingForLock = options.waitingForLock
            let database = try PostgresDatabase(url: location, options: postgres)
            return try prepared(database, endSnapshot: database.endSnapshot) {}
        }
        var sqlite = options.server ? SQLiteDatabase.Options.server : SQLiteDatabase.Options()
        sqlite.lockTimeout = options.lockTimeout
        sqlite.waitingForLock = options.waitingForLock
        sqlite.usersPath = options.usersLocation
        let database = try SQLiteDatabase(path: location, options: sqlite)
        return try prepared(database, endSnapshot: database.endSnapshot) {
            try database.convertLegacyCatalogs { try ICUCollation.forImport(locale: $0) }
        }
    }

    /// Writes one catalog of any engine as an offline snapshot: a self-contained SQLite file
    /// (that is the format, whatever engine the catalog is read from), so the server needs no
    /// engine of its own to offer one.
    ///
    /// - Returns: the catalog as it was copied (``StoredCatalog/versionKey`` is the source's).
    /// - Throws: ``StorageError`` `.catalogNotFound`, `.cancelled`, or the engine's failure.
    public static func writeSnapshot(
        catalog id: String, from reader: any CatalogReader, to path: String,
        isCancelled: @escaping @Sendable () -> Bool = { false },
        metadata: (StoredCatalog) -> [String: String]
    ) throws -> StoredCatalog {
        try SQLiteSnapshotWriter.write(
            catalog: id, from: reader, to: path, isCancelled: isCancelled, metadata: metadata)
    }

    /// Brings an opened database up to this program (`conversions`, then catalogs of another
    /// collator version rebuilt), or closes it and throws.
    private static func prepared(
        _ database: any CatalogDatabase, endSnapshot: () -> Void, conversions: () throws -> Void
    ) throws -> any CatalogDatabase {
        do {
            try conversions()
            try CatalogMaintenance.reindexStaleCatalogs(in: database)
            // The checks read in a snapshot; the caller's first read must not see an old one.
            endSnapshot()
        } catch {
            database.close()
            throw error
        }
        return database
    }
}
