import CatalogTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Database files that are not what they should be: an empty or foreign catalog file, a
/// damaged accounts file, a full disk. Each is refused or answered with a reason that names
/// the file (the command line) or says what happened (the HTTP API), never served as an empty
/// database or answered with a bare 500.
@Suite struct DatabaseFileTests {
    @Test func anEmptyOrForeignCatalogFileIsRefusedByReadersNamingIt() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let empty = try cli.write("empty.sqlite", "")
        let foreign = try cli.write("notes.sqlite", "shopping: flour, paprika, onions\n")
        for (path, reason) in [
            (empty, "is empty (0 bytes), not a catalog database"), (foreign, "is not a SQLite database"),
        ] {
            for arguments in [["serve", "--port", "0"], ["catalogs"], ["search", "leves", "--catalog", "cookbook"]] {
                let result = try cli.run(arguments + ["--db", path], useDatabase: false)
                #expect(result.status != 0, "\(arguments)")
                #expect(result.stderr.contains("\(path) \(reason)"), "\(arguments): \(result.stderr)")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: empty)).isEmpty, "a reader leaves the file as it was")
        // A writer makes a database in an empty file (it holds nothing to lose), then readers read it.
        let records = try cli.write("n.json", #"[{"id":"n1","title":"Nokedli"}]"#)
        #expect(
            try cli.run(["import", records, "--catalog", "noodles", "--db", empty], useDatabase: false).status == 0)
        #expect(try cli.run(["catalogs", "--db", empty], useDatabase: false).stdout.hasPrefix("noodles"))
        // A writer still refuses a foreign file, naming it.
        let refused = try cli.run(["import", records, "--catalog", "noodles", "--db", foreign], useDatabase: false)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains(foreign), "\(refused.stderr)")
    }

    @Test func everyErrorOpeningTheAccountsFileNamesIt() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)
        let foreign = try cli.write("foreign-users.sqlite", String(repeating: "not a database ", count: 100))
        // A SQLite file whose pages were cut short.
        #expect(try cli.run(["user", "add", "ada"]).status == 0)
        let damaged = cli.directory.appendingPathComponent("damaged-users.sqlite").path
        var bytes = try Data(contentsOf: URL(fileURLWithPath: cli.usersDatabase))
        bytes.replaceSubrange(100..<bytes.count, with: Data(repeating: 0xA5, count: bytes.count - 100))
        try bytes.write(to: URL(fileURLWithPath: damaged))
        for path in [foreign, damaged] {
            for arguments in [["user", "list"], ["user", "add", "bob"], ["serve", "--port", "0"]] {
                let result = try cli.run(arguments + ["--users-db", path])
                #expect(result.status != 0, "\(arguments)")
                #expect(result.stderr.contains(path), "\(arguments): \(result.stderr)")
            }
        }
    }

    /// Whether this process may mount a tmpfs (root, outside a container that forbids it).
    static let canMount: Bool = {
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-mount-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard Self.mountTmpfs(at: probe, size: "64k") else { return false }
        umount(probe)
        return true
    }()

    static func mountTmpfs(at path: String, size: String) -> Bool {
        "size=\(size)".withCString { mount("tmpfs", path, "tmpfs", 0, $0) } == 0
    }

    @Test(.enabled(if: canMount, "mounting a tmpfs is not permitted here (run as root to test a full disk)"))
    func aFullDiskAnswers507AndReadsGoOn() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let disk = cli.directory.appendingPathComponent("disk").path
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        try #require(Self.mountTmpfs(at: disk, size: "8m"))
        defer { umount2(disk, Int32(MNT_DETACH)) }
        let database = disk + "/catalog.sqlite"
        #expect(try cli.run(["demo", "--db", database], useDatabase: false).status == 0)
        let token = try cli.run(["user", "add", "ada", "--admin", "--db", database], useDatabase: false).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try TwoServersTests.Server(database: database, directory: cli.directory, name: "full")
        defer { server.stop() }
        let admin = [("Authorization", "Bearer \(token)")]
        #expect(try server.client.request("PUT", "/api/v1/favorites/cookbook/r01", headers: admin).status == 204)

        // Fill the disk.
        let filler = try #require(
            FileHandle(forWritingAtPath: disk + "/filler")
                ?? {
                    _ = FileManager.default.createFile(atPath: disk + "/filler", contents: nil)
                    return FileHandle(forWritingAtPath: disk + "/filler")
                }())
        let chunk = Data(repeating: 0, count: 64 * 1024)
        while (try? filler.write(contentsOf: chunk)) != nil {}
        try? filler.close()

        let records = #"[{"id":"n1","title":"Nokedli"}]"#
        let writes = [
            try server.client.request("PUT", "/api/v1/favorites/cookbook/r02", headers: admin),
            try server.client.request(
                "POST", "/api/v1/catalogs/cookbook/import?format=json&replace=true", headers: admin,
                body: Array(records.utf8)),
        ]
        for reply in writes {
            #expect(reply.status == 507, "\(reply.text)")
            #expect(reply.headers["content-type"]?.hasPrefix("application/json") == true)
            #expect(reply.text.contains("\"disk_full\""), "\(reply.text)")
            #expect(reply.text.contains("the disk holding the database is full"))
            #expect(!reply.text.contains(disk), "the server's paths stay on the server")
        }
        #expect(try server.client.request("GET", "/api/v1/catalogs/cookbook/items/r02").status == 200)
        #expect(try server.client.request("GET", "/api/v1/catalogs/cookbook/search?q=leves").status == 200)
        #expect(try server.client.request("GET", "/api/v1/favorites", headers: admin).text.contains("r01"))

        // The command line says which file could not be written.
        let file = try cli.write("n.json", records)
        let imported = try cli.run(["import", file, "--catalog", "cookbook", "--db", database], useDatabase: false)
        #expect(imported.status != 0)
        #expect(imported.stderr.contains("the disk is full: cannot write \(database)"), "\(imported.stderr)")

        // Room again: writes work again.
        try FileManager.default.removeItem(atPath: disk + "/filler")
        #expect(try server.client.request("PUT", "/api/v1/favorites/cookbook/r02", headers: admin).status == 204)
    }
}
