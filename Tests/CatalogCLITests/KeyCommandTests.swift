import CatalogAuth
import CatalogEngines
import CatalogSQLite
import CatalogStorage
import Foundation
import Testing

/// `catalog key`: keys made, listed and revoked from the command line, as the server checks them.
@Suite struct KeyCommandTests {
    /// Output with every timestamp replaced, so it can be compared.
    func normalized(_ text: String) -> String {
        text.replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/, with: "T")
    }

    @Test func addPrintsTheKeyOnceListShowsItRevokeEndsIt() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo", "--quiet"]).status == 0)
        #expect(try cli.run(["user", "add", "ada"]).status == 0)
        let added = try cli.run([
            "key", "add", "shop-app", "--user", "ADA", "--catalog", "products", "--catalog", "cookbook",
            "--actions", "search,read", "--expires", "90d", "--filter", "country = de and price <= 50",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.wholeMatch(of: /cak_[A-Za-z0-9_-]{16}_[A-Za-z0-9_-]{43}\n/) != nil, "\(added.stdout)")
        #expect(added.stderr.contains("shown only this once"))
        let text = String(added.stdout.dropLast())
        #expect(!added.stderr.contains(text))

        let store = try SQLiteUserStore(path: cli.usersDatabase, readOnly: true)
        defer { store.close() }
        guard case .valid(let key, let user) = try Authenticator().key(bearerKey: text, in: store) else {
            Issue.record("the printed key is not valid")
            return
        }
        #expect(user.name == "ada")
        #expect(key.catalogs == ["cookbook", "products"] && key.actions == [.read, .search])
        #expect(key.filter == "country = DE and price = ..50")
        let expires = try #require(key.expires.flatMap(AuthClock.date(fromTimestamp:)))
        #expect(abs(expires.timeIntervalSinceNow - 90 * 86_400) < 3600)

        let list = try cli.run(["key", "list"])
        #expect(list.status == 0)
        #expect(
            normalized(list.stdout)
                == "shop-app  ada  cookbook,products  read,search  until T  made T  never used  "
                + "filter: country = DE and price = ..50\n")
        let json = try cli.run(["key", "list", "--user", "ada", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let keys = try #require(object?["keys"] as? [[String: Any]])
        #expect(keys.count == 1 && keys.first?["name"] as? String == "shop-app")
        #expect(!json.stdout.contains("hash") && !json.stdout.contains("selector"))

        let revoked = try cli.run(["key", "revoke", "SHOP-APP"])
        #expect(revoked.status == 0, "\(revoked.stderr)")
        #expect(try Authenticator().key(bearerKey: text, in: store) == .invalid)
        #expect(try cli.run(["key", "list"]).stdout.isEmpty)
        let again = try cli.run(["key", "revoke", "shop-app"])
        #expect(again.status == 1 && again.stderr.contains("no key named \"shop-app\""))
    }

    @Test func mistakesAreUsageErrorsAndStoreNothing() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo", "--quiet"]).status == 0)
        #expect(try cli.run(["user", "add", "ada"]).status == 0)
        let add = ["key", "add", "k", "--user", "ada", "--catalog", "products"]
        let cases: [([String], Int32, String)] = [
            (["key"], 64, "name a subcommand: add, list or revoke"),
            (["key", "make"], 64, "unknown subcommand 'make'"),
            (add, 64, "missing required option '--actions'"),
            (
                ["key", "add", "k", "--catalog", "products", "--actions", "read"], 64,
                "missing required option '--user'"
            ),
            (["key", "add", "k", "--user", "ada", "--actions", "read"], 64, "missing required option '--catalog'"),
            (add + ["--actions", "read,fly"], 64, "--actions takes a comma-separated list of read, search"),
            (add + ["--actions", "read", "--expires", "soon"], 64, "--expires takes a duration such as 12h"),
            (
                add + ["--actions", "read", "--filter", "country = Germany"], 64,
                "--filter: 'Germany' is not a two-letter ISO 3166 code (at character 11 of the filter)"
            ),
            (
                ["key", "add", "k", "--user", "ada", "--catalog", "*,products", "--actions", "read"], 64,
                "'*' (every catalog) cannot be combined"
            ),
            (
                ["key", "add", "k", "--user", "ada", "--catalog", "cook book", "--actions", "read"], 64,
                "invalid catalog id"
            ),
            (["key", "add", "k k"] + add.dropFirst(3) + ["--actions", "read"], 64, "invalid key name 'k k'"),
            (
                ["key", "add", "k", "--user", "nobody", "--catalog", "products", "--actions", "read"], 1,
                "no user named"
            ),
            (["key", "list", "--actions", "read"], 64, "'--actions' does not apply to 'key list'"),
            (["key", "revoke", "k", "--user", "ada"], 64, "'--user' does not apply to 'key revoke'"),
        ]
        for (arguments, status, message) in cases {
            let result = try cli.run(arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        #expect(try cli.run(["key", "list"]).stdout.isEmpty)
        #expect(try cli.run(add + ["--actions", "read"]).status == 0)
        let taken = try cli.run(["key", "add", "K", "--user", "ada", "--catalog", "*", "--actions", "admin"])
        #expect(taken.status != 0 && taken.stderr.contains("a key named \"k\" already exists"), "\(taken.stderr)")
    }

    @Test func keysGoWithTheirAccountIntoACopy() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo", "--quiet"]).status == 0)
        #expect(try cli.run(["user", "add", "ada"]).status == 0)
        let added = try cli.run(["key", "add", "app", "--user", "ada", "--catalog", "*", "--actions", "read"])
        let text = String(added.stdout.dropLast())
        let copy = cli.directory.appendingPathComponent("copy.sqlite").path
        #expect(try cli.run(["copy", "--to", copy, "--users", "--quiet"]).status == 0)
        let database = try CatalogEngines.open(copy)
        defer { database.close() }
        guard case .valid(let key, _) = try Authenticator().key(bearerKey: text, in: database.users()) else {
            Issue.record("the copied key does not work")
            return
        }
        #expect(key.name == "app" && key.catalogs == ["*"])
    }
}
