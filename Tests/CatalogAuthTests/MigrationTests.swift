import CatalogAuth
import CatalogCollation
import CatalogCore
import CatalogEngines
import CatalogModel
import CatalogSQLite
import SQLiteSupport
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

/// Accounts that an older version kept in the catalog file move into the accounts file.
@Suite struct MigrationTests {
    /// A catalog file as the previous version left it: a catalog, and accounts, a session and
    /// favorites in its own `users`, `sessions` and `favorites` tables.
    final class LegacyFile {
        let database: TemporaryDatabase
        var catalogPath: String { database.path }
        var usersPath: String { SQLiteUserStore.defaultPath(forCatalog: catalogPath) }
        let token = APIToken.issue()
        let passwordHash: String

        init() throws {
            database = try TemporaryDatabase(prefix: "catalog-migration")
            _ = try CatalogImporter.run(
                into: database.database, definition: CatalogDefinition(id: "shop", title: "Shop", locale: "en"),
                replace: true, collation: try ICUCollation(locale: "en"),
                records: { add in
                    try add(Record(id: "a1", title: "Anvil"))
                    return nil
                })
            passwordHash = try PasswordHasher().hash("correct horse")
            // Closed, as an older version would have left the file.
            database.database.close()
            // The account tables an older version kept in the catalog file.
            try Connection(path: catalogPath, mode: .readWrite).withClose { try $0.execute(Self.legacySchema) }
            try Self.insertAccounts(into: catalogPath, token: token, passwordHash: passwordHash)
        }

        static let legacySchema = """
            CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE,
                is_admin INTEGER NOT NULL DEFAULT 0, password_hash TEXT, token_selector TEXT UNIQUE,
                token_hash BLOB, created_at TEXT NOT NULL);
            CREATE TABLE sessions (selector TEXT PRIMARY KEY, user_id INTEGER NOT NULL, hash BLOB NOT NULL,
                expires TEXT NOT NULL) WITHOUT ROWID;
            CREATE TABLE favorites (user_id INTEGER NOT NULL, catalog_id TEXT NOT NULL, item_id TEXT NOT NULL,
                added_at TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (user_id, catalog_id, item_id)) WITHOUT ROWID;
            """

        static func insertAccounts(into path: String, token: APIToken, passwordHash: String) throws {
            let connection = try Connection(path: path, mode: .readWrite)
            defer { connection.close() }
            try connection.prepare(
                "INSERT INTO users (id, name, is_admin, password_hash, token_selector, token_hash, created_at) "
                    + "VALUES (7, 'ada', 1, ?, ?, ?, '2024-05-01T12:00:00Z')"
            ).bind(passwordHash, token.selector, token.hash).run()
            try connection.execute(
                "INSERT INTO sessions VALUES ('sel0123456789abc', 7, x'00112233', '2999-01-01T00:00:00Z');"
                    + "INSERT INTO favorites VALUES (7, 'shop', 'a1', '2024-05-02T12:00:00Z', 1)")
        }

        func legacyTables() throws -> [String] {
            let connection = try Connection(path: catalogPath, mode: .readOnly)
            defer { connection.close() }
            var names: [String] = []
            try connection.prepare(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name IN ('users', 'sessions', 'favorites') "
                    + "ORDER BY name"
            ).forEachRow { names.append($0.text(0)) }
            return names
        }
    }

    @Test func accountsMoveIntoTheirOwnFileAndLeaveNoTraceInTheCatalogFile() throws {
        let legacy = try LegacyFile()
        #expect(try legacy.legacyTables() == ["favorites", "sessions", "users"])
        let users = try SQLiteUserStore(path: legacy.usersPath, migratingFrom: legacy.catalogPath)
        defer { users.close() }
        let ada = try #require(try users.user(named: "ada"))
        #expect(ada.id == 7 && ada.isAdmin && ada.createdAt == "2024-05-01T12:00:00Z")
        #expect(try Authenticator().user(bearerToken: legacy.token.text, in: users) == ada)
        #expect(try Authenticator().user(name: "ada", password: "correct horse", in: users) == ada)
        #expect(try users.sessionCredential(selector: "sel0123456789abc")?.user == ada)
        #expect(
            try users.favorites(ofUser: 7) == [Favorite(catalog: "shop", item: "a1", added: "2024-05-02T12:00:00Z")])

        #expect(try legacy.legacyTables() == [])
        let catalog = try CatalogEngines.open(legacy.catalogPath)
        defer { catalog.close() }
        try catalog.read { catalogs in
            #expect(try catalogs.item(of: catalogs.requireCatalog("shop"), id: "a1")?.record().title == "Anvil")
            // Not even in the file's free pages or its WAL.
            var bytes = try Data(contentsOf: URL(fileURLWithPath: legacy.catalogPath))
            bytes += (try? Data(contentsOf: URL(fileURLWithPath: legacy.catalogPath + "-wal"))) ?? Data()
            #expect(bytes.range(of: Data(legacy.passwordHash.utf8)) == nil, "the password hash is still in the file")
            #expect(bytes.range(of: Data(legacy.token.hash)) == nil, "the token hash is still in the file")
            #expect(bytes.range(of: Data(legacy.token.selector.utf8)) == nil)

            // Opening again changes nothing.
            let again = try SQLiteUserStore(path: legacy.usersPath, migratingFrom: legacy.catalogPath)
            defer { again.close() }
            #expect(try again.users() == [ada])
            let reader = try SQLiteUserStore(path: legacy.usersPath, readOnly: true)
            defer { reader.close() }
            #expect(try reader.favorites(ofUser: 7).count == 1)
        }
    }

    @Test func aMigrationInterruptedAfterTheCopyFinishesWithoutDuplicates() throws {
        let legacy = try LegacyFile()
        let users = try SQLiteUserStore(path: legacy.usersPath, migratingFrom: legacy.catalogPath)
        users.close()
        // As if the process died after the copy committed, before the tables were dropped.
        try Connection(path: legacy.catalogPath, mode: .readWrite).withClose { try $0.execute(LegacyFile.legacySchema) }
        try LegacyFile.insertAccounts(into: legacy.catalogPath, token: legacy.token, passwordHash: legacy.passwordHash)
        let reopened = try SQLiteUserStore(path: legacy.usersPath, migratingFrom: legacy.catalogPath)
        defer { reopened.close() }
        #expect(try reopened.users().map(\.name) == ["ada"])
        #expect(try reopened.favorites(ofUser: 7).count == 1)
        #expect(try legacy.legacyTables() == [])
    }

    @Test func clashingAccountsStopTheMigrationBeforeAnythingChanges() throws {
        let legacy = try LegacyFile()
        let users = try SQLiteUserStore(path: legacy.usersPath)
        // Another account already has id 7 here.
        try Connection(path: legacy.usersPath, mode: .readWrite).withClose {
            try $0.execute("INSERT INTO users (id, name, created_at) VALUES (7, 'bob', '2024-01-01T00:00:00Z')")
        }
        users.close()
        #expect {
            try SQLiteUserStore(path: legacy.usersPath, migratingFrom: legacy.catalogPath)
        } throws: { error in
            let error = error as? StorageError
            return error?.code == .constraint && error?.message.contains("\"ada\"") == true
        }
        #expect(try legacy.legacyTables() == ["favorites", "sessions", "users"])
        let reader = try SQLiteUserStore(path: legacy.usersPath, readOnly: true)
        defer { reader.close() }
        #expect(try reader.users().map(\.name) == ["bob"])
    }

    @Test func aNewCatalogFileHasNoAccountTables() throws {
        let database = try TemporaryDatabase(prefix: "catalog-migration")
        let users = try SQLiteUserStore(
            path: SQLiteUserStore.defaultPath(forCatalog: database.path), migratingFrom: database.path)
        defer { users.close() }
        #expect(try users.users().isEmpty)
        let connection = try Connection(path: database.path, mode: .readOnly)
        defer { connection.close() }
        #expect(
            try connection.prepare(
                "SELECT count(*) FROM sqlite_schema WHERE name IN ('users', 'sessions', 'favorites')"
            )
            .scalarInt() == 0)
    }

    /// An accounts file of version 1 (before roles in catalogs), as that version made it.
    static let accountsVersion1 = """
        PRAGMA application_id = 1129598037;
        CREATE TABLE users (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            is_admin INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1)),
            password_hash TEXT,
            token_selector TEXT UNIQUE,
            token_hash BLOB,
            created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
        );
        CREATE TABLE sessions (
            selector TEXT PRIMARY KEY,
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            hash BLOB NOT NULL,
            expires TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX sessions_user ON sessions (user_id);
        CREATE INDEX sessions_expires ON sessions (expires);
        CREATE TABLE favorites (
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            catalog_id TEXT NOT NULL,
            item_id TEXT NOT NULL,
            added_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
            seq INTEGER NOT NULL,
            PRIMARY KEY (user_id, catalog_id, item_id)
        ) WITHOUT ROWID;
        PRAGMA user_version = 1;
        INSERT INTO users (id, name, is_admin, token_selector, token_hash, created_at)
            VALUES (3, 'mari', 0, 'sel3', x'0102', '2024-05-01T12:00:00Z');
        INSERT INTO favorites VALUES (3, 'shop', 'a1', '2024-05-02T12:00:00Z', 1);
        """

    @Test func anAccountsFileOfVersion1GainsRolesAndKeysAndKeepsItsAccounts() throws {
        let database = try TemporaryDatabase(prefix: "catalog-migration")
        let path = database.directory.appendingPathComponent("old-users.sqlite").path
        try Connection(path: path, mode: .readWriteCreate).withClose { try $0.execute(Self.accountsVersion1) }
        // A reader of this version refuses it until it is brought up to date.
        #expect {
            try SQLiteUserStore(path: path, readOnly: true)
        } throws: { error in
            (error as? StorageError)?.message.contains("has schema version 1, this program needs 4") == true
        }

        let users = try SQLiteUserStore(path: path)
        defer { users.close() }
        let mari = try #require(try users.user(named: "MARI"))
        #expect(mari.id == 3 && mari.createdAt == "2024-05-01T12:00:00Z")
        #expect(try users.tokenCredential(selector: "sel3")?.hash == [1, 2])
        #expect(try users.favorites(ofUser: 3).map(\.item) == ["a1"])
        #expect(try users.roles(ofUser: 3).isEmpty)
        #expect(try users.grant(user: "mari", catalog: "shop", role: .editor) == nil)
        #expect(try users.members(ofCatalog: "shop") == [CatalogMember(user: "mari", role: .editor)])
        // And the audit log (version 4).
        #expect(try users.auditEvents(AuditQuery()).isEmpty)
        let connection = try Connection(path: path, mode: .readOnly)
        let version = try connection.prepare("PRAGMA user_version").scalarInt()
        connection.close()
        #expect(version == 4)
        #expect(try users.keys(ofUser: nil).isEmpty, "version 3: API keys")
        // Up to date now: a reader opens it, and opening it again changes nothing.
        let reader = try SQLiteUserStore(path: path, readOnly: true)
        defer { reader.close() }
        #expect(try reader.roles(ofUser: 3) == ["shop": .editor])
        let again = try SQLiteUserStore(path: path)
        defer { again.close() }
        #expect(try again.members(ofCatalog: "shop").map(\.user) == ["mari"])
    }

    @Test func theAccountsFileSitsBesideTheCatalogFile() {
        #expect(SQLiteUserStore.defaultPath(forCatalog: "catalog.sqlite") == "catalog-users.sqlite")
        #expect(SQLiteUserStore.defaultPath(forCatalog: "/srv/data/shop.db") == "/srv/data/shop-users.sqlite")
        #expect(SQLiteUserStore.defaultPath(forCatalog: "data/catalog") == "data/catalog-users.sqlite")
    }

    @Test func aMissingOrForeignAccountsFileIsAClearError() throws {
        let database = try TemporaryDatabase(prefix: "catalog-migration")
        #expect {
            try SQLiteUserStore(path: database.directory.appendingPathComponent("none.sqlite").path, readOnly: true)
        } throws: { ($0 as? StorageError)?.code == .cannotOpen }
        #expect {
            try SQLiteUserStore(path: database.path)
        } throws: { error in
            let error = error as? StorageError
            return error?.code == .cannotOpen && error?.message.contains("not an accounts database") == true
        }
    }
}

extension Connection {
    /// Runs `body`, then closes the connection.
    func withClose(_ body: (Connection) throws -> Void) throws {
        defer { close() }
        try body(self)
    }
}
