import CatalogStorage
import Foundation
import SQLiteSupport

/// A catalog file opened read-only, for reading only: an offline snapshot
/// (``SQLiteSnapshotWriter``) or any catalog database. Nothing is created or migrated, no
/// accounts file is opened, and no collator is needed: sort keys, sections and the search index
/// are read as stored.
///
/// Not Sendable: the connection belongs to one thread at a time (the client library's
/// `OfflineCatalog` keeps it on a thread of its own).
///
/// ```swift
/// let file = try SQLiteCatalogFile(path: "cookbook.sqlite")
/// defer { file.close() }
/// let catalogs = try file.reader.catalogs()
/// ```
public final class SQLiteCatalogFile {
    /// The file.
    public let path: String
    /// Reads of the file.
    public let reader: SQLiteCatalogReader
    /// The snapshot's name/value pairs (its ETag, …); empty for a file that is not a snapshot.
    public let metadata: [String: String]

    /// Opens `path` read-only.
    ///
    /// - Throws: ``StorageError`` `.cannotOpen` for a missing file, one that is not a catalog
    ///   database, or one of another schema version.
    public init(path: String) throws {
        self.path = path
        let connection = try Connection(path: path, mode: .readOnly)
        do {
            try connection.execute("PRAGMA query_only = 1; PRAGMA cache_size = -16384; PRAGMA mmap_size = 268435456")
            let applicationID = try connection.cached("PRAGMA application_id").scalarInt() ?? 0
            guard applicationID == SQLiteDatabase.applicationID else {
                throw StorageError(.cannotOpen, "\(path) is not a catalog file")
            }
            let version = try connection.cached("PRAGMA user_version").scalarInt() ?? 0
            // Version 5 differs only by the stored images table, which snapshots leave empty.
            guard (5...Schema.currentVersion).contains(version) else {
                throw StorageError(
                    .cannotOpen, "\(path) has schema version \(version), this program reads \(Schema.currentVersion)")
            }
            var metadata: [String: String] = [:]
            let table = try connection.cached(
                "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = '\(SQLiteSnapshotWriter.metadataTable)'"
            ).scalarInt()
            if table == 1 {
                try connection.prepare("SELECT name, value FROM \(SQLiteSnapshotWriter.metadataTable)").forEachRow {
                    metadata[$0.text(0)] = $0.text(1)
                }
            }
            self.metadata = metadata
        } catch {
            connection.close()
            throw error
        }
        // A snapshot is replaced in place by a newer download: each open is a catalog version of
        // its own, with a search index cache of its own.
        reader = SQLiteCatalogReader(
            connection: connection, path: path, indexCache: SearchIndexCache(indexes: 1, categoryLists: 16),
            identity: "\(path)@\(UUID().uuidString)")
    }

    /// Runs `body` in one read transaction: every statement sees the same data, and the file is
    /// locked once rather than per statement.
    public func read<T>(_ body: (SQLiteCatalogReader) throws -> T) throws -> T {
        try reader.connection.read { try body(reader) }
    }

    /// The names of the file's tables, in order (to check what a snapshot holds).
    public func tableNames() throws -> [String] {
        var names: [String] = []
        try reader.connection.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").forEachRow {
            names.append($0.text(0))
        }
        return names
    }

    /// Closes the file. Nothing may read it afterwards.
    public func close() {
        reader.connection.close()
    }
}
