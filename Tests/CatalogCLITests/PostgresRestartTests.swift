import CatalogTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A `catalog serve` on PostgreSQL keeps answering when the database server restarts under it:
/// the first request on each connection the restart broke is read on a new connection, never
/// answered with a bare 500. The test restarts a cluster of its own (the shared one serves
/// other tests meanwhile).
@Suite(.serialized, .enabled(if: ThrowawayPostgresCluster.binaries != nil, "needs PostgreSQL's initdb"))
final class PostgresRestartTests {
    let cluster: ThrowawayPostgresCluster
    let cli: CLIRunner

    init() throws {
        cluster = try ThrowawayPostgresCluster()
        cli = try CLIRunner()
    }

    deinit {
        cluster.stop()
        cli.cleanUp()
    }

    @Test(arguments: ["fast", "immediate"])
    func theNextRequestsAfterARestartAreAnswered(mode: String) throws {
        #expect(try cli.run(["demo", "--db", cluster.url], useDatabase: false).status == 0)
        let token = try cli.run(["user", "add", "ada", "--db", cluster.url], useDatabase: false).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try TwoServersTests.Server(database: cluster.url, directory: cli.directory, name: "restart")
        defer { server.stop() }
        let admin = [("Authorization", "Bearer \(token)")]
        // Reads of catalogs, reads of accounts and favorites, and writes; several of each, so
        // that every worker thread's connections were used before the restart.
        var round = 0
        func everyKind() throws -> [String] {
            round += 1
            var answers: [String] = []
            for index in 0..<6 {
                let search = try server.client.request("GET", "/api/v1/catalogs/cookbook/search?q=k\(round)x\(index)")
                let favorites = try server.client.request("GET", "/api/v1/favorites", headers: admin)
                let favorite = try server.client.request(
                    "PUT", "/api/v1/favorites/cookbook/r0\(index + 1)", headers: admin)
                let page = try server.client.request("GET", "/c/cookbook/i/r0\(index + 1)")
                answers.append("\(search.status) \(favorites.status) \(favorite.status) \(page.status)")
            }
            return answers
        }
        let expected = [String](repeating: "200 200 204 200", count: 6)
        #expect(try everyKind() == expected)
        try cluster.restart(mode)
        #expect(try everyKind() == expected, "the first requests after the restart")
        try cluster.restart(mode)
        #expect(try everyKind() == expected, "and after another")
        #expect(!server.requests.contains { $0.contains(" 500 ") }, "\(server.requests.suffix(10))")
    }
}

/// A throwaway cluster on a private socket directory, no TCP.
final class ThrowawayPostgresCluster {
    /// Where initdb and pg_ctl are, nil when PostgreSQL is not installed.
    static let binaries: URL? = {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return versions.compactMap(Int.init).sorted().last.map { root.appendingPathComponent("\($0)/bin") }
            .flatMap {
                FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("initdb").path) ? $0 : nil
            }
    }()

    let directory: URL
    var url: String { "postgres://postgres@/postgres?host=\(directory.path)&port=5491" }

    init() throws {
        directory = URL(fileURLWithPath: "/tmp/catalog-restart-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if getuid() == 0 { _ = try Self.run(["/usr/bin/chown", "postgres:postgres", directory.path]) }
        let initdb = try pg(
            "initdb", ["-D", directory.path + "/data", "-U", "postgres", "--auth=trust", "-E", "UTF8"])
        #expect(initdb == 0, "initdb")
        let options = "-k \(directory.path) -c listen_addresses='' -p 5491 -c fsync=off"
        let started = try pg(
            "pg_ctl", ["-D", directory.path + "/data", "-l", directory.path + "/log", "-o", options, "-w", "start"])
        #expect(started == 0, "pg_ctl start")
    }

    /// Restarts the server: `fast` ends every session with 57P01, `immediate` drops them.
    func restart(_ mode: String) throws {
        #expect(try pg("pg_ctl", ["-D", directory.path + "/data", "-m", mode, "-w", "restart"]) == 0)
    }

    func stop() {
        _ = try? pg("pg_ctl", ["-D", directory.path + "/data", "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs one of PostgreSQL's programs (as the postgres user when we are root: initdb refuses root).
    private func pg(_ program: String, _ arguments: [String]) throws -> Int32 {
        let path = Self.binaries!.appendingPathComponent(program).path
        return try getuid() == 0
            ? Self.run(["/usr/sbin/runuser", "-u", "postgres", "--", path] + arguments) : Self.run([path] + arguments)
    }

    /// Runs `command` and waits for it, through posix_spawn and waitpid: Foundation's `Process`
    /// waits for a descriptor its child inherits to close, which the postmaster that `pg_ctl
    /// start` leaves behind keeps open for good.
    static func run(_ command: [String]) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [1, 2] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
        }
        let arguments = command.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, arguments, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status >> 8) & 0xFF
    }
}
