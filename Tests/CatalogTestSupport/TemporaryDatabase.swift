import CatalogEngines
import CatalogStorage
import Foundation

/// A catalog database for one test, closed and removed when it goes away: a file in a fresh
/// temporary directory (SQLite), or a fresh database on the PostgreSQL server named by
/// `CATALOG_TEST_POSTGRES` when the engine is PostgreSQL.
public final class TemporaryDatabase {
    /// The engines the behaviour suites run against: SQLite always, PostgreSQL when
    /// `CATALOG_TEST_POSTGRES` names a server (`postgres://user@/postgres?host=/socket/dir&port=5433`).
    public enum Engine: String, CaseIterable, Sendable, CustomStringConvertible {
        case sqlite, postgres

        /// The engines available to this test run.
        public static var available: [Engine] {
            PostgresTestServer.url != nil ? [.sqlite, .postgres] : [.sqlite]
        }

        public var description: String { rawValue }
    }

    /// The directory holding the database file (tests may put other files there).
    public let directory: URL
    /// Where the database is: a file path or a URL.
    public let location: String
    /// The SQLite file, for tests of that engine.
    public var path: String { location }
    /// The database.
    public let database: any CatalogDatabase
    private let cleanup: () -> Void

    /// Creates the directory and the database.
    public init(engine: Engine = .sqlite, prefix: String = "catalog-tests") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        switch engine {
        case .sqlite:
            location = directory.appendingPathComponent("test.sqlite").path
            cleanup = {}
        case .postgres:
            let server = ProcessInfo.processInfo.environment["CATALOG_TEST_POSTGRES"] ?? ""
            let name = "catalog_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            try PostgresTestServer.run("CREATE DATABASE \(name)", on: server)
            location = PostgresTestServer.location(of: name, on: server)
            cleanup = { _ = try? PostgresTestServer.run("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", on: server) }
        }
        database = try CatalogEngines.open(location, options: Self.options(directory))
    }

    /// How the tests open a database: its loaded indexes in mapped files in the test's own
    /// directory, as a server's are, so every behaviour suite reads them there.
    static func options(_ directory: URL) -> CatalogEngines.Options {
        var options = CatalogEngines.Options()
        options.indexFiles = .directory(directory.path)
        return options
    }

    /// Another handle on the same database, as a second process would have.
    public static func reopen(_ temporary: TemporaryDatabase) throws -> any CatalogDatabase {
        try CatalogEngines.open(temporary.location, options: options(temporary.directory))
    }

    deinit {
        database.close()
        cleanup()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Creating and dropping test databases with `psql`.
public enum PostgresTestServer {
    /// The server the PostgreSQL tests use (`CATALOG_TEST_POSTGRES`), nil when none is given.
    public static var url: String? {
        ProcessInfo.processInfo.environment["CATALOG_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Runs SQL with `psql` on the database `server` names; returns what it printed (unaligned,
    /// tuples only).
    @discardableResult
    public static func run(_ sql: String, on server: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = [server, "-v", "ON_ERROR_STOP=1", "-q", "-A", "-t", "-c", sql]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(domain: "psql", code: Int(process.terminationStatus))
        }
        return String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The server's URL with another database name.
    public static func location(of database: String, on server: String) -> String {
        guard var components = URLComponents(string: server) else { return server }
        components.path = "/" + database
        return components.string ?? server
    }
}

/// A fresh, empty database on the PostgreSQL test server, dropped when this goes away; unlike
/// ``TemporaryDatabase`` nothing opens it, so tests can prepare it first.
public final class TemporaryPostgresDatabase {
    /// Its URL.
    public let url: String
    private let server: String
    private let name: String

    /// Creates the database on `CATALOG_TEST_POSTGRES`'s server.
    public init() throws {
        guard let server = PostgresTestServer.url else { throw NSError(domain: "CATALOG_TEST_POSTGRES unset", code: 1) }
        self.server = server
        name = "catalog_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try PostgresTestServer.run("CREATE DATABASE \(name)", on: server)
        url = PostgresTestServer.location(of: name, on: server)
    }

    /// Runs SQL on the database with `psql`; returns what it printed.
    @discardableResult
    public func psql(_ sql: String) throws -> String {
        try PostgresTestServer.run(sql, on: url)
    }

    deinit {
        _ = try? PostgresTestServer.run("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", on: server)
    }
}
