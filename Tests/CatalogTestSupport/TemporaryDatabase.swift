import CatalogSQLite
import Foundation

/// A catalog database in a fresh temporary directory, closed and removed when it goes away.
public final class TemporaryDatabase {
    /// The directory holding the database (tests may put other files there).
    public let directory: URL
    /// The database file.
    public let path: String
    /// A read-write store on it.
    public let store: SQLiteCatalogStore

    /// Creates the directory and the database.
    public init(prefix: String = "catalog-tests") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("test.sqlite").path
        store = try SQLiteCatalogStore(path: path)
    }

    deinit {
        store.close()
        try? FileManager.default.removeItem(at: directory)
    }
}
