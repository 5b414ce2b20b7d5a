import CatalogCollation
import CatalogPostgres
import CatalogSQLite
import CatalogStorage
import Foundation

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
        /// SQLite: the file must already be a database: a missing, empty (0-byte) or foreign
        /// file is refused, naming it, instead of becoming a new empty catalog database.
        /// Commands that only read (and `serve`) set it; those that write (`import`, `demo`,
        /// `generate`) create a database where none is, and make one in an empty file too,
        /// which holds nothing to lose.
        public var mustExist = false
        /// PostgreSQL: hot standbys of the database that reads go to (`serve --db-read`), each a
        /// `postgres://` URL. SQLite has none: its readers already read beside the writer.
        public var readReplicas: [String] = []

        /// Where loaded search indexes keep their lexicons and columns (``IndexFiles``):
        /// `.automatic` maps files for a server (beside a SQLite file; for PostgreSQL in
        /// systemd's `CACHE_DIRECTORY`, else `/var/tmp`) and keeps them on the heap for the
        /// command line's one-off reads.
        public var indexFiles: IndexPlacement = .automatic
        /// Whether a write loads the search indexes it makes, so the first search after it
        /// finds them loaded (``SearchIndexCache/loadsWrittenIndexes``); nil: a server's do, the
        /// command line's one-off writes do not.
        public var loadsWrittenIndexes: Bool?

        /// The command line's settings.
        public init() {}
    }

    /// Where loaded search indexes keep their lexicons and columns.
    public enum IndexPlacement: Sendable, Equatable {
        /// Mapped files for a server, the heap otherwise (``Options/indexFiles``).
        case automatic
        /// On the heap.
        case memory
        /// In mapped files in this directory.
        case directory(String)
    }

    /// The directory of mapped index files for a database at `location` (nil: the heap).
    public static func indexFiles(for location: String, options: Options) -> IndexFiles? {
        switch options.indexFiles {
        case .memory: return nil
        case .directory(let directory): return IndexFiles(directory: directory)
        case .automatic:
            guard options.server else { return nil }
            if isPostgres(location) {
                let cache = ProcessInfo.processInfo.environment["CACHE_DIRECTORY"]
                    .flatMap { $0.split(separator: ":").first.map(String.init) }
                return IndexFiles(directory: cache ?? "/var/tmp")
            }
            guard location != ":memory:", !location.hasPrefix("file:") else { return nil }
            let folder = URL(fileURLWithPath: location).deletingLastPathComponent().path
            return IndexFiles(directory: folder)
        }
    }

    /// Why a SQLite database takes no read replicas.
    public static let sqliteReplicasAdvice =
        "read replicas (--db-read) are PostgreSQL standbys; a SQLite database has none: its readers already "
        + "read in parallel with the writer, on one machine"

    /// Whether `location` names a PostgreSQL database.
    public static func isPostgres(_ location: String) -> Bool {
        PostgresLocation.isPostgres(location)
    }

    /// Opens (creating and migrating when needed) the database at `location`, and rebuilds
    /// catalogs whose stored form is older than this program or whose sort keys came from
    /// another collator version.
    ///
    /// - Throws: ``StorageError`` `.cannotOpen` with a one-line reason; `.invalidArgument` for
    ///   read replicas of a SQLite file, or a replica that is not a `postgres://` URL.
    public static func open(_ location: String, options: Options = Options()) throws -> any CatalogDatabase {
        if let replica = options.readReplicas.first(where: { !isPostgres($0) }) {
            throw StorageError(
                .invalidArgument, "a read replica must be a postgres:// or postgresql:// URL, not \(replica)")
        }
        if isPostgres(location) {
            var postgres = options.server ? PostgresDatabase.Options.server : PostgresDatabase.Options()
            postgres.lockTimeout = options.lockTimeout
            postgres.waitingForLock = options.waitingForLock
            postgres.indexFiles = indexFiles(for: location, options: options)
            postgres.loadsWrittenIndexes = options.loadsWrittenIndexes ?? options.server
            let database = try PostgresDatabase(url: location, readReplicas: options.readReplicas, options: postgres)
            return try prepared(database) {}
        }
        guard options.readReplicas.isEmpty else {
            throw StorageError(.invalidArgument, Self.sqliteReplicasAdvice)
        }
        if options.mustExist { try checkExistingFile(location) }
        var sqlite = options.server ? SQLiteDatabase.Options.server : SQLiteDatabase.Options()
        sqlite.lockTimeout = options.lockTimeout
        sqlite.waitingForLock = options.waitingForLock
        sqlite.usersPath = options.usersLocation
        sqlite.indexFiles = indexFiles(for: location, options: options)
        sqlite.loadsWrittenIndexes = options.loadsWrittenIndexes ?? options.server
        let database = try SQLiteDatabase(path: location, options: sqlite)
        return try prepared(database) {
            try database.convertLegacyCatalogs { try ICUCollation.forImport(locale: $0) }
        }
    }

    /// Refuses `path` unless it is a SQLite file: one that is missing, a directory, empty (SQLite
    /// would take a 0-byte file for a new database) or starts with anything but SQLite's header.
    /// A 0-byte file beside a write-ahead log that holds data is a database whose first pages
    /// are still in the log, and is accepted.
    ///
    /// - Throws: ``StorageError`` `.cannotOpen`, naming the file.
    public static func checkExistingFile(_ path: String) throws(StorageError) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw StorageError(.cannotOpen, "no database at \(path)")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw StorageError(.cannotOpen, "\(path) is not a database file")
        }
        if status.st_size == 0 {
            var log = stat()
            guard stat(path + "-wal", &log) == 0, log.st_size > 0 else {
                throw StorageError(
                    .cannotOpen,
                    "\(path) is empty (0 bytes), not a catalog database; remove it, or import into it to make one")
            }
            return
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StorageError(.cannotOpen, "cannot read \(path)")
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        guard header == Data("SQLite format 3\u{0}".utf8) else {
            throw StorageError(.cannotOpen, "\(path) is not a SQLite database (not a catalog database)")
        }
    }

    /// Writes one catalog of any engine as an offline snapshot: a self-contained SQLite file
    /// (that is the format, whatever engine the catalog is read from), so the server needs no
    /// engine of its own to offer one.
    ///
    /// - Returns: the catalog as it was copied (``StoredCatalog/versionKey`` is the source's).
    /// - Throws: ``StorageError`` `.catalogNotFound`, `.cancelled`, or the engine's failure.
    public static func writeSnapshot(
        catalog id: String, from reader: any CatalogReader, to path: String, change: Int? = nil,
        isCancelled: @escaping @Sendable () -> Bool = { false },
        metadata: (StoredCatalog) -> [String: String]
    ) throws -> StoredCatalog {
        try SQLiteSnapshotWriter.write(
            catalog: id, from: reader, to: path, change: change, isCancelled: isCancelled, metadata: metadata)
    }

    /// Brings an opened database up to this program (`conversions`, then catalogs of another
    /// collator version rebuilt), or closes it and throws.
    private static func prepared(
        _ database: any CatalogDatabase, conversions: () throws -> Void
    ) throws -> any CatalogDatabase {
        do {
            try conversions()
            try CatalogMaintenance.reindexStaleCatalogs(in: database)
        } catch {
            database.close()
            throw error
        }
        return database
    }
}
