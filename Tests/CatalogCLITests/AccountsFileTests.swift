import CatalogSQLite
import SQLiteSupport
import CatalogTestSupport
import Foundation
import Testing

/// The accounts file from the command line: `--users-db` for `user` and `serve`, and accounts
/// an older version kept in the catalog file moving out of it on first use.
@Suite(.serialized) struct AccountsFileTests {
    @Test func usersDbPicksTheAccountsFile() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)
        let custom = cli.directory.appendingPathComponent("elsewhere.sqlite").path
        let token = try cli.run(["user", "add", "ada", "--users-db", custom]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.hasPrefix("ctk_"))
        #expect(FileManager.default.fileExists(atPath: custom))
        #expect(try cli.run(["user", "list", "--users-db", custom]).stdout.hasPrefix("ada"))
        #expect(try cli.run(["user", "list"]).stdout.isEmpty, "the default file has nobody")

        let (process, port, _) = try ServeCommandTests.start(cli, ["--users-db", custom])
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let client = RawClient(port: port)
        let added = try client.request(
            "PUT", "/api/v1/favorites/cookbook/r01", headers: [("Authorization", "Bearer \(token)")])
        #expect(added.status == 204)
        let users = try SQLiteUserStore(path: custom, readOnly: true)
        defer { users.close() }
        #expect(try users.favorites(ofUser: 1).map(\.item) == ["r01"])
    }

    /// The demo catalogs, and what `sql` puts into the account tables an older version kept in
    /// the catalog file.
    static func catalogWithOldAccounts(_ cli: CLIRunner, _ sql: String) throws {
        #expect(try cli.run(["demo"]).status == 0)
        try? FileManager.default.removeItem(atPath: cli.usersDatabase)
        let connection = try Connection(path: cli.database, mode: .readWrite)
        defer { connection.close() }
        try connection.execute(
            """
            CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE,
                is_admin INTEGER NOT NULL DEFAULT 0, password_hash TEXT, token_selector TEXT UNIQUE,
                token_hash BLOB, created_at TEXT NOT NULL);
            CREATE TABLE sessions (selector TEXT PRIMARY KEY, user_id INTEGER NOT NULL, hash BLOB NOT NULL,
                expires TEXT NOT NULL) WITHOUT ROWID;
            CREATE TABLE favorites (user_id INTEGER NOT NULL, catalog_id TEXT NOT NULL, item_id TEXT NOT NULL,
                added_at TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (user_id, catalog_id, item_id)) WITHOUT ROWID;
            """)
        try connection.execute(sql)
    }

    @Test func accountsInAnOldCatalogFileMoveOnFirstUse() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try Self.catalogWithOldAccounts(
            cli,
            "INSERT INTO users (id, name, is_admin, created_at) VALUES (3, 'old.timer', 1, '2024-01-01T00:00:00Z');"
                + "INSERT INTO favorites VALUES (3, 'cookbook', 'r02', '2024-01-02T00:00:00Z', 1)")
        let listed = try cli.run(["user", "list"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.hasPrefix("old.timer  admin  2024-01-01T00:00:00Z"))
        let connection = try Connection(path: cli.database, mode: .readOnly)
        defer { connection.close() }
        #expect(
            try connection.prepare(
                "SELECT count(*) FROM sqlite_schema WHERE name IN ('users', 'sessions', 'favorites')"
            )
            .scalarInt() == 0)
        let users = try SQLiteUserStore(path: cli.usersDatabase, readOnly: true)
        defer { users.close() }
        #expect(try users.favorites(ofUser: 3).map(\.item) == ["r02"])
    }

    @Test func serveMovesOldAccountsBeforeItStarts() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try Self.catalogWithOldAccounts(
            cli, "INSERT INTO users (id, name, is_admin, created_at) VALUES (1, 'ada', 0, '2024-01-01T00:00:00Z')")
        #expect(!FileManager.default.fileExists(atPath: cli.usersDatabase))
        let (process, port, _) = try ServeCommandTests.start(cli)
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        #expect(try RawClient(port: port).request("GET", "/api/v1/catalogs").status == 200)
        let users = try SQLiteUserStore(path: cli.usersDatabase, readOnly: true)
        defer { users.close() }
        #expect(try users.users().map(\.name) == ["ada"])
    }
}
