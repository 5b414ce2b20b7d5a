import CatalogAuth
import CatalogSQLite
import SQLiteSupport
import CatalogTestSupport
import Foundation
import Synchronization

/// An accounts file (beside a catalog database) in a fresh temporary directory, removed when the
/// fixture goes away.
final class AuthFixture {
    let database: TemporaryDatabase
    var directory: URL { database.directory }
    /// The catalog database next to the accounts file.
    var catalogPath: String { database.path }
    /// The accounts file.
    let path: String
    let store: SQLiteUserStore

    init() throws {
        database = try TemporaryDatabase(prefix: "catalog-auth")
        path = SQLiteUserStore.defaultPath(forCatalog: database.path)
        store = try SQLiteUserStore(path: path)
    }

    deinit {
        store.close()
    }

    /// Rows in `table` of the accounts file, counted on a connection of its own.
    func count(_ table: String) throws -> Int {
        let connection = try Connection(path: path, mode: .readOnly)
        defer { connection.close() }
        return try connection.prepare("SELECT count(*) FROM \(table)").scalarInt() ?? -1
    }
}

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let time: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) { time = Mutex(start) }

    var now: Date { time.withLock { $0 } }

    func advance(seconds: TimeInterval) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }

    var authClock: AuthClock { AuthClock { self.now } }
}

/// Random bytes that count up from 0: the first 12-byte request gets 0…11, the next 12…43, …
final class CountingRandom: Sendable {
    private let next: Mutex<UInt8> = Mutex(0)

    var source: RandomBytes {
        RandomBytes { count in
            self.next.withLock { next in
                (0..<count).map { _ in
                    defer { next &+= 1 }
                    return next
                }
            }
        }
    }
}
