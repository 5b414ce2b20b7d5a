import CatalogAuth
import CatalogStorage
import SQLiteSupport
import CatalogTestSupport
import Foundation
import Synchronization

/// A user store in a fresh temporary database, removed when the fixture goes away.
final class AuthFixture {
    let database: TemporaryDatabase
    var directory: URL { database.directory }
    var path: String { database.path }
    let store: any UserStore

    init() throws {
        database = try TemporaryDatabase(prefix: "catalog-auth")
        store = try database.database.users()
    }

    /// Rows in `table`, counted on a connection of its own.
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
