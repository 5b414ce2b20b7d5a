import CatalogAuth
import CatalogCollation
import CatalogCore
import CatalogEngines
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

@Suite struct CopyCommandTests {
    /// What must survive a copy: every catalog's records, sections and searches, every account.
    func snapshot(_ cli: CLIRunner, _ location: String) throws -> [String] {
        var outputs: [String] = []
        for arguments in [
            ["catalogs"], ["sections", "--catalog", "cookbook"], ["search", "leves", "--catalog", "cookbook"],
            ["search", "o", "--catalog", "sequencers", "--scope", "Windows", "--json"],
            ["list", "--catalog", "products"], ["export", "--catalog", "products", "--format", "json"],
            ["export", "--catalog", "sequencers", "--format", "xml"], ["user", "list", "--json"],
        ] {
            let result = try cli.run(arguments + ["--db", location], useDatabase: false)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            outputs.append(result.stdout)
        }
        return outputs
    }

    /// Accounts as stored, without the engine's own ids.
    func accounts(_ location: String) throws -> [StoredAccount] {
        let database = try CatalogEngines.open(location)
        defer { database.close() }
        return try database.users().accounts().map { account in
            var account = account
            account.user.id = 0
            return account
        }
    }

    /// A database with the demo catalogs, an account with favorites, a session and roles.
    func source(_ cli: CLIRunner) throws -> String {
        #expect(try cli.run(["demo"]).status == 0)
        let token = try cli.run(["user", "add", "ada", "--admin"]).stdout.trimmingCharacters(in: .newlines)
        let database = try CatalogEngines.open(cli.database)
        defer { database.close() }
        let users = try database.users()
        let ada = try #require(try users.user(named: "ada"))
        #expect(try users.addFavorite(userID: ada.id, catalog: "cookbook", item: "r19"))
        #expect(try users.addFavorite(userID: ada.id, catalog: "products", item: "p001"))
        try users.createSession(userID: ada.id, selector: "sel", hash: [9, 9], expires: "2999-01-01T00:00:00Z")
        try users.grant(user: "ada", catalog: "cookbook", role: .editor)
        try users.grant(user: "ada", catalog: "not-yet", role: .owner)
        return token
    }

    @Test func aCopyBrowsesSearchesAndSignsInAsTheOriginal() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let token = try source(cli)
        let copy = cli.directory.appendingPathComponent("copy.sqlite").path
        let copied = try cli.run(["copy", "--to", copy, "--users"])
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stderr.contains("cookbook: copied 32 records to \(copy)"))
        #expect(copied.stderr.contains("copied 1 account to"))
        #expect(try snapshot(cli, copy) == snapshot(cli, cli.database))
        #expect(try accounts(copy) == accounts(cli.database))
        #expect(try accounts(copy).first?.roles == ["cookbook": .editor, "not-yet": .owner])
        let database = try CatalogEngines.open(copy)
        defer { database.close() }
        #expect(try Authenticator().user(bearerToken: token, in: database.users())?.name == "ada")
        // Again, one catalog only: it is replaced, the others stay.
        #expect(try cli.run(["copy", "--to", copy, "--catalog", "cookbook", "--quiet"]).stderr.isEmpty)
        #expect(try snapshot(cli, copy) == snapshot(cli, cli.database))
    }

    /// Changes the demo cookbook's records in place, one batch per record, so its index is in
    /// several segments with deletions.
    func edit(_ location: String, rename prefix: String) throws {
        let database = try CatalogEngines.open(location)
        defer { database.close() }
        let (ids, locale) = try database.read { reader in
            let catalog = try reader.requireCatalog("cookbook")
            return (try reader.items(of: catalog, limit: 500).items.map(\.id), catalog.definition.locale)
        }
        let collation = try ICUCollation.forImport(locale: locale)
        for (index, id) in ids.prefix(9).enumerated() {
            let edit =
                index % 3 == 0
                ? RecordEdit(.delete(id: id))
                : RecordEdit(.upsert(Record(id: id, title: "\(prefix) \(index)", categories: ["Levesek"])))
            _ = try CatalogEditor.apply([edit], to: "cookbook", in: database, collation: collation)
        }
        _ = try CatalogEditor.apply(
            [RecordEdit(.upsert(Record(id: "new-\(prefix)", title: "\(prefix) leves", categories: ["Új"])))],
            to: "cookbook", in: database, collation: collation)
    }

    @Test(.enabled(if: PostgresTestServer.url != nil, "needs CATALOG_TEST_POSTGRES"))
    func aCatalogChangedInPlaceCopiesAsItReadsBothWays() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        _ = try source(cli)
        try edit(cli.database, rename: "Átírt")
        let postgres = try TemporaryPostgresDatabase()
        let there = try cli.run(["copy", "--to", postgres.url, "--users"])
        #expect(there.status == 0, "\(there.stderr)")
        #expect(try snapshot(cli, postgres.url) == snapshot(cli, cli.database))
        // Changed again on PostgreSQL, and back.
        try edit(postgres.url, rename: "Megint")
        let back = cli.directory.appendingPathComponent("back.sqlite").path
        let result = try cli.run(["copy", "--to", back, "--users", "--db", postgres.url], useDatabase: false)
        #expect(result.status == 0, "\(result.stderr)")
        let copied = try snapshot(cli, back)
        #expect(copied == (try snapshot(cli, postgres.url)))
        #expect(copied[2].contains("Megint leves"), "the search finds the changed records")
    }

    @Test func mistakesAreUsageErrors() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)
        let same = try cli.run(["copy", "--to", "./catalog.sqlite"])
        #expect(same.status == 64)
        #expect(same.stderr.hasPrefix("catalog copy: error: --to names the database being copied"))
        let unknown = try cli.run(["copy", "--to", "x.sqlite", "--catalog", "nope"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no catalog named \"nope\""))
        #expect(try cli.run(["copy"]).status == 64)
    }

    @Test(.enabled(if: PostgresTestServer.url != nil, "needs CATALOG_TEST_POSTGRES"))
    func toPostgreSQLAndBackChangesNothing() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        _ = try source(cli)
        let postgres = try TemporaryPostgresDatabase()
        let there = try cli.run(["copy", "--to", postgres.url, "--users"])
        #expect(there.status == 0, "\(there.stderr)")
        #expect(try snapshot(cli, postgres.url) == snapshot(cli, cli.database))
        #expect(try accounts(postgres.url) == accounts(cli.database))
        let back = cli.directory.appendingPathComponent("back.sqlite").path
        let result = try cli.run(["copy", "--to", back, "--users", "--db", postgres.url], useDatabase: false)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try snapshot(cli, back) == snapshot(cli, cli.database))
        #expect(try accounts(back) == accounts(cli.database))
    }
}
