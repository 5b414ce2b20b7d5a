import CatalogCollation
import CatalogCore
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Synchronization
import Testing

@testable import CatalogPostgres

/// What only the PostgreSQL engine has: connection errors, migrations, the COPY path, the
/// writers' lock, data versions and lost connections.
@Suite struct PostgresConnectionErrorTests {
    @Test func aRefusedConnectionIsOneLineWithoutThePassword() {
        let url = "postgres://ada:never-shown-42@127.0.0.1:1/catalog"
        #expect {
            try PostgresDatabase(url: url)
        } throws: { error in
            guard let error = error as? StorageError else { return false }
            return error.code == .cannotOpen && error.engineCode == "08001"
                && error.message.hasPrefix("cannot connect to postgres://ada:***@127.0.0.1:1/catalog: ")
                && error.message.contains("refused") && !error.message.contains("never-shown-42")
                && !error.message.contains("\n") && !error.debugDescription.contains("never-shown-42")
        }
    }

    @Test(arguments: [
        ("53100", StorageError.Code.full), ("08006", .engine), ("57P01", .engine), ("40001", .busy),
        ("23505", .constraint), ("3D000", .cannotOpen),
    ])
    func sqlStatesBecomeStorageCodes(state: String, code: StorageError.Code) {
        #expect(StorageError.code(sqlState: state) == code)
    }

    @Test func libpqReadsTheURLsParametersSuchAsSSLMode() {
        #expect {
            try PostgresDatabase(url: "postgres://ada@127.0.0.1:1/catalog?sslmode=sometimes")
        } throws: { error in
            (error as? StorageError)?.message.contains("sslmode") == true
        }
    }
}

@Suite(.enabled(if: PostgresTestServer.url != nil, "needs CATALOG_TEST_POSTGRES"))
struct PostgresDatabaseTests {
    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["CATALOG_TEST_POSTGRES_PASSWORDS"] == "1",
            "needs a pg_hba.conf line checking catalog_password_test's password (scripts/test-postgres.sh)"))
    func badCredentialsSayWhoWithoutThePassword() throws {
        let temporary = try TemporaryPostgresDatabase()
        let role = "catalog_password_test"
        try temporary.psql(
            """
            DO $$ BEGIN
                IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '\(role)') THEN CREATE ROLE \(role) LOGIN; END IF;
            END $$;
            ALTER ROLE \(role) PASSWORD 'right-horse-battery';
            """)
        try temporary.psql("ALTER DATABASE \(URLComponents(string: temporary.url)!.path.dropFirst()) OWNER TO \(role)")
        func url(password: String) -> String {
            var components = URLComponents(string: temporary.url)!
            components.user = role
            components.password = password
            return components.string!
        }
        #expect {
            try PostgresDatabase(url: url(password: "wrong-staple-77"))
        } throws: { error in
            guard let error = error as? StorageError else { return false }
            return error.code == .cannotOpen && error.engineCode == "28P01"
                && error.message.contains("password authentication failed for user \"\(role)\"")
                && !error.message.contains("wrong-staple-77") && !error.message.contains("\n")
        }
        let database = try PostgresDatabase(url: url(password: "right-horse-battery"))
        #expect(try database.read { try $0.catalogs().isEmpty })
        database.close()
    }

    @Test func anOlderSchemaIsMigratedAndANewerOneRefused() throws {
        let temporary = try TemporaryPostgresDatabase()
        let connection = try PostgresConnection(PostgresLocation(temporary.url))
        try PostgresSchema.migrate(connection, to: 1, lockTimeout: .seconds(10))
        connection.close()
        #expect(try temporary.psql("SELECT max(version) FROM catalog_schema") == "1")
        #expect(try temporary.psql("SELECT to_regclass('users') IS NULL") == "t")

        let database = try PostgresDatabase(url: temporary.url)
        #expect(
            try temporary.psql("SELECT string_agg(version::text, ',' ORDER BY version) FROM catalog_schema")
                == "1,2,3,4,5,6,7")
        let user = try database.users().addUser(
            name: "ada", isAdmin: true, passwordHash: nil, tokenSelector: "s", tokenHash: [1])
        #expect(try database.users().user(named: "ADA") == user)
        database.close()

        try temporary.psql("INSERT INTO catalog_schema (version) VALUES (99)")
        #expect {
            try PostgresDatabase(url: temporary.url)
        } throws: { error in
            (error as? StorageError)?.code == .cannotOpen
                && (error as? StorageError)?.message.contains("schema version 99, newer than this program's") == true
        }
    }

    /// A database of schema version 2 (accounts, no roles in catalogs) keeps its accounts and
    /// favorites and gains roles.
    @Test func aDatabaseOfVersion2GainsRolesAndKeepsItsAccounts() throws {
        let temporary = try TemporaryPostgresDatabase()
        let connection = try PostgresConnection(PostgresLocation(temporary.url))
        try PostgresSchema.migrate(connection, to: 2, lockTimeout: .seconds(10))
        connection.close()
        try temporary.psql(
            """
            INSERT INTO users (id, name, token_selector, token_hash, created_at)
                VALUES (3, 'Mari', 'sel3', '\\x0102', '2024-05-01T12:00:00Z');
            INSERT INTO favorites VALUES (3, 'shop', 'a1', '2024-05-02T12:00:00Z', 1);
            """)
        #expect(try temporary.psql("SELECT to_regclass('grants') IS NULL") == "t")

        let database = try PostgresDatabase(url: temporary.url)
        defer { database.close() }
        #expect(try temporary.psql("SELECT max(version) FROM catalog_schema") == "7")
        let users = try database.users()
        let mari = try #require(try users.user(named: "mari"))
        #expect(mari.id == 3 && mari.name == "Mari" && mari.createdAt == "2024-05-01T12:00:00Z")
        #expect(try users.tokenCredential(selector: "sel3")?.hash == [1, 2])
        #expect(try users.favorites(ofUser: 3).map(\.item) == ["a1"])
        #expect(try users.roles(ofUser: 3).isEmpty)
        #expect(try users.grant(user: "mari", catalog: "shop", role: .owner) == nil)
        #expect(try users.members(ofCatalog: "shop") == [CatalogMember(user: "Mari", role: .owner)])
        // The role goes with the account.
        #expect(try users.removeUser(named: "MARI"))
        #expect(try temporary.psql("SELECT count(*) FROM grants") == "0")
    }

    @Test func aDatabaseOfSomethingElseIsLeftAlone() throws {
        let temporary = try TemporaryPostgresDatabase()
        try temporary.psql("CREATE TABLE items (name text)")
        #expect {
            try PostgresDatabase(url: temporary.url)
        } throws: { error in
            (error as? StorageError)?.message.hasSuffix("is not a catalog database (it has a table named items)")
                == true
        }
        #expect(try temporary.psql("SELECT to_regclass('catalog_schema') IS NULL") == "t")
    }

    /// Records with every awkward value, through COPY and back, byte for byte what SQLite stores.
    @Test func theCopyPathKeepsEveryByte() throws {
        var records: [Record] = []
        for index in 0..<9_000 {
            var record = Record(id: "r\(index)", title: "Title \(index % 97) \u{1F600} \"quoted\" \\ back\\N")
            record.subtitle = index % 3 == 0 ? nil : (index % 3 == 1 ? "" : "tab\there\nnew line ünïcødé")
            record.description = String(repeating: "Leírás \(index) ", count: index % 50)
            record.categories = index % 4 == 0 ? [] : ["Cat \(index % 5)", "Két, szó"]
            record.price = index % 2 == 0 ? Decimal(string: "\(index).05") : nil
            record.featured = index % 1000 == 0 ? index / 1000 : nil
            record.fields = ["long": .text(String(repeating: "x", count: index == 7 ? 100_000 : 1))]
            records.append(record)
        }
        let definition = CatalogDefinition(id: "awkward", title: "Awkward", locale: "hu")
        func stored(on engine: TemporaryDatabase.Engine) throws -> (TemporaryDatabase, [StoredHit]) {
            let temporary = try TemporaryDatabase(engine: engine)
            try load(records, as: definition, into: temporary.database)
            return try temporary.database.read { reader in
                var hits: [StoredHit] = []
                try reader.forEachItem(of: try reader.requireCatalog("awkward")) { hits.append($0) }
                return (temporary, hits)
            }
        }
        let (_, sqlite) = try stored(on: .sqlite)
        let (postgres, hits) = try stored(on: .postgres)
        #expect(hits.count == records.count)
        #expect(hits == sqlite)
        let server = postgres.location
        #expect(try PostgresTestServer.run("SELECT count(*) FROM items", on: server) == "9000")
        #expect(try PostgresTestServer.run("SELECT count(*) FROM item_categories", on: server) == "\(9000 / 4 * 3 * 2)")
        #expect(try Int(PostgresTestServer.run("SELECT count(*) FROM search_postings", on: server))! > 0)
        try postgres.database.read { reader in
            let catalog = try reader.requireCatalog("awkward")
            #expect(
                try reader.search(SearchRequest(query: "title 42").checked(), in: catalog).hits.first?.stored.title
                    .hasPrefix(
                        "Title 42") == true)
        }
    }

    @Test func aNULThatPostgreSQLCannotStoreFailsTheImportAndChangesNothing() throws {
        let temporary = try TemporaryDatabase(engine: .postgres)
        let definition = CatalogDefinition(id: "n", title: "N", locale: "en")
        try load([Record(id: "a", title: "Apple")], as: definition, into: temporary.database)
        #expect {
            try load(
                [Record(id: "a", title: "Apple"), Record(id: "b", title: "Ba\u{0}d")], as: definition,
                into: temporary.database)
        } throws: { error in
            (error as? StorageError)?.message
                == "record \"b\" has a NUL character in its title, which PostgreSQL cannot store"
        }
        try temporary.database.read { reader in
            let catalog = try reader.requireCatalog("n")
            #expect(catalog.summary.count == 1)
            #expect(try reader.item(of: catalog, id: "a\u{0}b") == nil)
            #expect(try reader.item(of: catalog, id: "a")?.title == "Apple")
        }
    }

    @Test func writersQueueOnTheLockWhileReadersGoOn() throws {
        let temporary = try TemporaryPostgresDatabase()
        let first = try PostgresDatabase(url: temporary.url)
        defer { first.close() }
        let waited = Atomic<Int>(0)
        var options = PostgresDatabase.Options()
        options.lockTimeout = .milliseconds(500)
        options.waitingForLock = { waited.add(1, ordering: .relaxed) }
        let second = try PostgresDatabase(url: temporary.url, options: options)
        defer { second.close() }
        try load([Record(id: "1", title: "One")], as: CatalogDefinition(id: "c", title: "C", locale: "en"), into: first)
        try first.write { writer throws in
            let deleted = try writer.deleteCatalog("c")
            #expect(deleted)
            let started = ContinuousClock.now
            #expect {
                try second.write { _ in }
            } throws: { error in
                (error as? StorageError)?.code == .busy
                    && (error as? StorageError)?.message.contains("locked for writing for more than") == true
            }
            #expect(ContinuousClock.now - started >= .milliseconds(450))
            #expect(waited.load(ordering: .relaxed) == 1, "said once that it waits")
            // A reader does not wait for the writer, and sees the catalog as it was.
            let seen = try second.read { try $0.catalogs().map(\.id) }
            #expect(seen == ["c"])
        }
        #expect(try second.read { try $0.catalogs().isEmpty })
        try second.write { _ in }
    }

    @Test func anotherProcesssWriteStartsANewEpoch() throws {
        let temporary = try TemporaryPostgresDatabase()
        let writer = try PostgresDatabase(url: temporary.url)
        defer { writer.close() }
        let reader = try PostgresDatabase(url: temporary.url)
        defer { reader.close() }
        let epoch = try reader.readEpoch()
        #expect(try reader.readEpoch() == epoch, "nothing changed")
        _ = try writer.users().addUser(
            name: "ada", isAdmin: false, passwordHash: nil, tokenSelector: "t", tokenHash: [2])
        #expect(try reader.readEpoch() != epoch)
        #expect(try reader.users().tokenCredential(selector: "t")?.hash == [2])
    }

    @Test func anIdleSnapshotIsEndedByTheServerAndAWalkGoesOn() throws {
        let temporary = try TemporaryPostgresDatabase()
        var options = PostgresDatabase.Options()
        options.idleSnapshotTimeout = .milliseconds(500)
        let database = try PostgresDatabase(url: temporary.url, options: options)
        defer { database.close() }
        try load(
            (0..<2_500).map { Record(id: "w\($0)", title: "Walk \($0)") },
            as: CatalogDefinition(id: "walk", title: "Walk", locale: "en"), into: database)
        try database.read { reader in
            let catalog = try reader.requireCatalog("walk")
            // A slow consumer: the session idles past the timeout between two batches. The pause is
            // what this test is about (PostgreSQL's idle-in-transaction timeout, 500 ms here, fires
            // only on a session that waits), so it is time, not an event to wait for.
            var seen = 0
            try reader.forEachItem(of: catalog) { _ in
                seen += 1
                if seen == PostgresCatalogReader.batchSize { usleep(1_000_000) }
            }
            #expect(seen == 2_500)
        }
        // A read's snapshot ends with it: no idle snapshot holds a lock, a DDL statement goes through.
        _ = try database.read { try $0.catalogs() }
        #expect(try temporary.psql("SET lock_timeout = '2s'; ALTER TABLE sections ADD COLUMN probe integer").isEmpty)
        #expect(try database.read { try $0.catalogs().map(\.id) } == ["walk"])
    }

    @Test func aLostConnectionIsMadeAgain() throws {
        let temporary = try TemporaryPostgresDatabase()
        let database = try PostgresDatabase(url: temporary.url)
        defer { database.close() }
        #expect(try database.read { try $0.catalogs().isEmpty })
        _ = try database.users().addUser(
            name: "ada", isAdmin: false, passwordHash: nil, tokenSelector: "t", tokenHash: [])
        try temporary.psql(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
                + "AND pid <> pg_backend_pid()")
        #expect(try database.read { try $0.catalogs().isEmpty })
        try database.write { _ in }
        #expect(try database.users().removeUser(named: "ada"))
    }

    @Test func aConnectionLostInTheMiddleOfASnapshotReadsOnInANewOne() throws {
        let temporary = try TemporaryPostgresDatabase()
        let database = try PostgresDatabase(url: temporary.url)
        defer { database.close() }
        try load(
            [Record(id: "a", title: "Almás pite")],
            as: CatalogDefinition(id: "cakes", title: "Cakes", locale: "hu"), into: database)
        try database.read { reader in
            let catalog = try #require(try reader.catalog("cakes"))
            for round in 0..<3 {
                // The session is ended while its snapshot is open (as a restart ends every session).
                try temporary.psql(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
                        + "AND pid <> pg_backend_pid()")
                #expect(try reader.item(of: catalog, id: "a")?.id == "a", "round \(round)")
                #expect(try database.read { try $0.catalogs().map(\.id) } == ["cakes"], "a nested read")
            }
        }
    }
}

/// Imports `records` as catalog `definition` (replacing it) with the definition's collation.
func load(_ records: [Record], as definition: CatalogDefinition, into database: any CatalogDatabase) throws {
    _ = try CatalogImporter.run(
        into: database, definition: definition, replace: true,
        collation: try ICUCollation.forImport(locale: definition.locale),
        records: { add in
            for record in records { try add(record) }
            return nil
        })
}
