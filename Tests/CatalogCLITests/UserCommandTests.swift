import CatalogAuth
import CatalogSQLite
import CatalogStorage
import Foundation
import Testing

@Suite struct UserCommandTests {
    /// Output with every timestamp replaced, so it can be compared with a golden file.
    func normalized(_ text: String) -> String {
        text.replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/, with: "YYYY-MM-DDTHH:MM:SSZ")
    }

    @Test func addPrintsTheTokenOnceAndItSignsIn() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let added = try cli.run(["user", "add", "ada", "--admin"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.wholeMatch(of: /ctk_[A-Za-z0-9_-]{16}_[A-Za-z0-9_-]{43}\n/) != nil, "\(added.stdout)")
        #expect(added.stderr.contains("shown only this once"))
        let token = String(added.stdout.dropLast())
        #expect(!added.stderr.contains(token))

        let store = try SQLiteUserStore(path: cli.usersDatabase, readOnly: true)
        defer { store.close() }
        let ada = try #require(try Authenticator().user(bearerToken: token, in: store))
        #expect(ada.name == "ada")
        #expect(ada.isAdmin)
        #expect(try Authenticator().user(name: "ada", password: "", in: store) == nil, "no password given")

        // A new token replaces the old one.
        let replaced = try cli.run(["user", "token", "ada"])
        #expect(replaced.status == 0)
        let newToken = String(replaced.stdout.dropLast())
        #expect(newToken != token)
        #expect(try Authenticator().user(bearerToken: token, in: store) == nil)
        #expect(try Authenticator().user(bearerToken: newToken, in: store) == ada)
    }

    @Test func passwordsComeFromTheFirstLineOfStandardInput() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let added = try cli.run(["user", "add", "bob", "--password-stdin"], input: "open sesame\nignored\n")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(!added.stdout.contains("sesame") && !added.stderr.contains("sesame"))
        let store = try SQLiteUserStore(path: cli.usersDatabase, readOnly: true)
        defer { store.close() }
        let auth = Authenticator()
        #expect(try auth.user(name: "bob", password: "open sesame", in: store)?.name == "bob")
        #expect(try auth.user(name: "bob", password: "ignored", in: store) == nil)

        let changed = try cli.run(["user", "password", "bob"], input: "new secret\r\n")
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(try auth.user(name: "bob", password: "open sesame", in: store) == nil)
        #expect(try auth.user(name: "bob", password: "new secret", in: store)?.name == "bob")

        let empty = try cli.run(["user", "password", "bob"], input: "\n")
        #expect(empty.status == 1)
        #expect(empty.stderr == "catalog user: error: a password cannot be empty\n")
        let none = try cli.run(["user", "add", "carol", "--password-stdin"])
        #expect(none.status == 1)
        #expect(none.stderr.contains("no password on standard input"))
        #expect(try store.user(named: "carol") == nil)
    }

    @Test func listMatchesTheGoldenFiles() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        for arguments in [["bob"], ["ada", "--admin"], ["carol.x@example.org"]] {
            #expect(try cli.run(["user", "add"] + arguments).status == 0)
        }
        for (name, catalog, role) in [
            ("bob", "products", "owner"), ("bob", "cookbook", "editor"), ("ada", "x", "viewer"),
        ] {
            #expect(try cli.run(["user", "grant", name, "--catalog", catalog, "--role", role]).status == 0)
        }
        let text = try cli.run(["user", "list"])
        #expect(text.status == 0)
        #expect(normalized(text.stdout) == (try CLIRunner.golden("users-list.txt")))
        let json = try cli.run(["user", "list", "--json"])
        #expect(json.status == 0)
        #expect(normalized(json.stdout) == (try CLIRunner.golden("users-list.json")))
    }

    @Test func aDuplicateNameFailsAndChangesNothing() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let first = try cli.run(["user", "add", "ada"])
        #expect(first.status == 0)
        let before = try cli.run(["user", "list", "--json"]).stdout
        for name in ["ada", "ADA"] {
            let duplicate = try cli.run(["user", "add", name, "--admin"])
            #expect(duplicate.status == 1)
            #expect(duplicate.stdout.isEmpty, "no token for a failed add")
            #expect(duplicate.stderr == "catalog user: error: a user named \"ada\" already exists\n")
        }
        #expect(try cli.run(["user", "list", "--json"]).stdout == before)
        let store = try SQLiteUserStore(path: cli.usersDatabase, readOnly: true)
        defer { store.close() }
        let token = String(first.stdout.dropLast())
        #expect(try Authenticator().user(bearerToken: token, in: store)?.isAdmin == false)
    }

    @Test(arguments: [
        "ada lovelace", "ada/x", String(repeating: "a", count: 65), "ädä", "'; DROP TABLE users; --", "a\u{1B}[31m",
    ])
    func badNamesAreUsageErrors(_ name: String) throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.run(["user", "add", name])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("catalog user: error: invalid user name '"))
        #expect(result.stderr.contains("use 1 to 64 letters, digits, '.', '-', '_' or '@'"))
        #expect(!result.stderr.contains("\u{1B}"), "control characters are escaped")
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: cli.database), "a usage error creates no database")
    }

    @Test func usageErrorsAndMissingUsers() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let cases: [([String], Int32, String)] = [
            (["user"], 64, "name a subcommand"),
            (["user", "rename", "ada"], 64, "unknown subcommand 'rename'"),
            (["user", "add"], 64, "name exactly one user"),
            (["user", "add", "ada", "bob"], 64, "name exactly one user"),
            (["user", "add", ""], 64, "invalid user name ''"),
            (["user", "list", "--admin"], 64, "'--admin' does not apply to 'user list'"),
            (["user", "remove", "ada", "--json"], 64, "'--json' does not apply to 'user remove'"),
            (["user", "list"], 1, "no database at"),
            (["user", "list", "--catalog", "cookbook"], 64, "'--catalog' does not apply to 'user list'"),
            (["user", "add", "ada", "--role", "owner"], 64, "'--role' does not apply to 'user add'"),
            (
                ["user", "revoke", "ada", "--catalog", "cookbook", "--role", "owner"], 64,
                "'--role' does not apply to 'user revoke'"
            ),
            (["user", "grant", "ada", "--role", "owner"], 64, "missing required option '--catalog'"),
            (
                ["user", "grant", "ada", "--catalog", "cookbook"], 64,
                "missing required option '--role' (roles: viewer, editor, owner)"
            ),
            (["user", "grant", "--catalog", "cookbook", "--role", "owner"], 64, "name exactly one user"),
            (["user", "revoke", "ada"], 64, "missing required option '--catalog'"),
            (
                ["user", "grant", "ada", "--catalog", "cookbook", "--role", "boss"], 64,
                "unknown role 'boss'; roles: viewer, editor, owner"
            ),
            (["user", "grant", "ada", "--catalog", "cookbook", "--role", "Owner"], 64, "unknown role 'Owner'"),
            (
                ["user", "grant", "ada", "--catalog", "cook book", "--role", "owner"], 64,
                "invalid catalog id 'cook book': use 1 to 64 letters, digits, '-' or '_'"
            ),
            (["user", "revoke", "ada", "--catalog", ""], 64, "missing required option '--catalog'"),
        ]
        for (arguments, status, message) in cases {
            let result = try cli.run(arguments)
            #expect(result.status == status, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        #expect(try cli.run(["user", "add", "ada"]).status == 0)
        for action in ["remove", "token", "password", "grant", "revoke"] {
            let result = try cli.run(
                ["user", action, "nobody"] + (action == "grant" ? ["--catalog", "c", "--role", "owner"] : [])
                    + (action == "revoke" ? ["--catalog", "c"] : []), input: "pw\n")
            #expect(result.status == 1, "\(action)")
            #expect(result.stderr == "catalog user: error: no user named \"nobody\"\n", "\(action)")
        }
        let removed = try cli.run(["user", "remove", "ada"])
        #expect(removed.status == 0)
        #expect(try cli.run(["user", "list"]).stdout.isEmpty)
    }

    @Test func rolesAreGivenChangedAndTakenAway() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo", "--quiet"]).status == 0)
        #expect(try cli.run(["user", "add", "mari"]).status == 0)
        #expect(try cli.run(["user", "add", "ada", "--admin"]).status == 0)

        let given = try cli.run(["user", "grant", "MARI", "--catalog", "cookbook", "--role", "editor"])
        #expect(given.status == 0)
        #expect(given.stdout.isEmpty)
        #expect(given.stderr == "gave \"mari\" the role editor in catalog \"cookbook\"\n")
        let changed = try cli.run(["user", "grant", "mari", "--catalog=cookbook", "--role=owner"])
        #expect(changed.stderr == "gave \"mari\" the role owner in catalog \"cookbook\" (was editor)\n")
        let same = try cli.run(["user", "grant", "mari", "--catalog", "cookbook", "--role", "owner"])
        #expect(same.status == 0)
        #expect(same.stderr == "\"mari\" already had the role owner in catalog \"cookbook\"\n")
        // A catalog not imported yet: allowed, with a note.
        let ahead = try cli.run(["user", "grant", "mari", "--catalog", "pantry", "--role", "viewer"])
        #expect(ahead.status == 0)
        #expect(
            ahead.stderr.hasSuffix(
                "note: there is no catalog \"pantry\" yet; the role counts once one of that id is imported\n"))
        let admin = try cli.run(["user", "grant", "ada", "--catalog", "products", "--role", "editor"])
        #expect(admin.status == 0)
        #expect(admin.stderr.contains("note: \"ada\" is an administrator, who changes every catalog whatever the role"))
        #expect(
            normalized(try cli.run(["user", "list"]).stdout).contains(
                "mari  user   YYYY-MM-DDTHH:MM:SSZ  cookbook:owner,pantry:viewer\n"))

        let store = try SQLiteUserStore(path: cli.usersDatabase, readOnly: true)
        defer { store.close() }
        let mari = try #require(try store.user(named: "mari"))
        #expect(try store.roles(ofUser: mari.id) == ["cookbook": .owner, "pantry": .viewer])

        let revoked = try cli.run(["user", "revoke", "mari", "--catalog", "pantry"])
        #expect(revoked.status == 0)
        #expect(revoked.stderr == "took the role viewer in catalog \"pantry\" from \"mari\"\n")
        let again = try cli.run(["user", "revoke", "mari", "--catalog", "pantry"])
        #expect(again.status == 1)
        #expect(again.stderr == "catalog user: error: \"mari\" has no role in catalog \"pantry\"\n")
        #expect(try store.roles(ofUser: mari.id) == ["cookbook": .owner])

        // Removing the user takes their roles.
        let removed = try cli.run(["user", "remove", "mari"])
        #expect(removed.stderr == "removed user \"mari\" with their web sessions, favorites and roles\n")
        #expect(try store.members(ofCatalog: "cookbook").isEmpty)
    }
}
