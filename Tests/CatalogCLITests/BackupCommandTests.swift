import CatalogTestSupport
import Foundation
import Testing

/// `catalog backup` and `catalog restore FILE`: a backup of the demo database restores to the
/// same catalogs; existing files are kept without --replace; PostgreSQL is sent to pg_dump and
/// `catalog copy`; a server running on a database sees a restore at its next request.
@Suite(.serialized, .timeLimit(.minutes(5))) struct BackupCommandTests {
    let cli: CLIRunner

    init() throws {
        cli = try CLIRunner()
        let demo = try cli.run(["demo"])
        #expect(demo.status == 0, "\(demo.stderr)")
    }

    func path(_ name: String) -> String { cli.directory.appendingPathComponent(name).path }

    @Test func aBackupRestoresToTheSameCatalogs() throws {
        defer { cli.cleanUp() }
        #expect(try cli.run(["user", "add", "ada", "--admin"]).status == 0)
        let backup = try cli.run(["backup", "--to", path("b.sqlite"), "--users"])
        #expect(backup.status == 0, "\(backup.stderr)")
        #expect(backup.stderr.contains("backed up"))
        #expect(FileManager.default.fileExists(atPath: path("b-users.sqlite")))

        let again = try cli.run(["backup", "--to", path("b.sqlite")])
        #expect(again.status == 1)
        #expect(again.stderr.contains("exists; add --replace"))
        #expect(try cli.run(["backup", "--to", path("b.sqlite"), "--replace"]).status == 0)

        let fresh = ["--db", path("fresh.sqlite")]
        let restore = try cli.run(["restore", path("b.sqlite"), "--users"] + fresh, useDatabase: false)
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(
            try cli.run(["catalogs"] + fresh, useDatabase: false).stdout == CLIRunner.golden("catalogs.txt"))
        #expect(try cli.run(["user", "list"] + fresh, useDatabase: false).stdout.contains("ada"))

        let refused = try cli.run(["restore", path("b.sqlite")])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("exists; add --replace"))

        _ = try cli.write("junk.sqlite", "not a backup")
        let junk = try cli.run(["restore", path("junk.sqlite"), "--replace"])
        #expect(junk.status == 1)
        #expect(try cli.run(["catalogs"]).stdout == CLIRunner.golden("catalogs.txt"), "the database is untouched")
    }

    @Test func postgresIsSentToPgDumpAndCopy() throws {
        defer { cli.cleanUp() }
        let url = ["--db", "postgres://catalog@localhost/catalog"]
        for arguments in [["backup", "--to", path("pg.sqlite")], ["restore", path("pg.sqlite")]] {
            let result = try cli.run(arguments + url, useDatabase: false)
            #expect(result.status == 64)
            #expect(result.stderr.contains("pg_dump") && result.stderr.contains("catalog copy"), "\(result.stderr)")
        }
        let serve = try cli.run(["serve", "--backup-every", "6h"] + url, useDatabase: false)
        #expect(serve.status == 64)
        #expect(serve.stderr.contains("pg_dump"))
        #expect(try cli.run(["serve", "--backup-every", "0s"]).status == 64)
        let keep = try cli.run(["serve", "--keep", "3"])
        #expect(keep.status == 64)
        #expect(keep.stderr.contains("--backup-dir and --keep go with --backup-every"))
    }

    @Test func aRunningServerAnswersWithTheRestoredDatabase() throws {
        defer { cli.cleanUp() }
        #expect(try cli.run(["backup", "--to", path("b.sqlite")]).status == 0)
        let server = try ServeProcess(
            database: cli.database, arguments: ["--quiet"], log: cli.directory.appendingPathComponent("serve.log"))
        defer { server.stop() }
        func catalogs() throws -> String { try server.client.request("GET", "/api/v1/catalogs").text }
        func search() throws -> Int {
            try server.client.request("GET", "/api/v1/catalogs/cookbook/search?q=leves").status
        }
        #expect(try catalogs().contains("\"cookbook\""))
        #expect(try search() == 200)

        #expect(try cli.run(["delete", "cookbook", "--yes"]).status == 0)
        #expect(waitUntil(every: .milliseconds(20)) { (try? catalogs().contains("\"cookbook\"")) == false })

        let restore = try cli.run(["restore", path("b.sqlite"), "--replace"])
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(waitUntil(every: .milliseconds(20)) { (try? catalogs().contains("\"cookbook\"")) == true })
        #expect(try search() == 200)
        #expect(server.isRunning)
    }
}
