import CatalogEngines
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Two `catalog serve` processes on one PostgreSQL database, on loopback ports: what one does,
/// the other shows within a second; a session from one works on the other; a server killed in
/// the middle of an import leaves the catalog as it was; nginx in front reaches both.
@Suite(.serialized, .enabled(if: PostgresTestServer.url != nil, "needs CATALOG_TEST_POSTGRES"))
final class TwoServersTests {
    let database: TemporaryPostgresDatabase
    let cli: CLIRunner
    let token: String
    var servers: [Server] = []

    /// A running `catalog serve`, its access log in a file.
    final class Server {
        let process = Process()
        let port: Int
        let log: URL

        init(database: String, directory: URL, name: String) throws {
            log = directory.appendingPathComponent("\(name).log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            process.executableURL = CLIRunner.binary
            // One snapshot folder for both, as servers of one database on one machine share by default.
            process.arguments = [
                "serve", "--port", "0", "--db", database, "--snapshots",
                directory.appendingPathComponent("snapshots").path, "--trusted-proxy", "127.0.0.1/32",
            ]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = try FileHandle(forWritingTo: log)
            try process.run()
            var line = ""
            while !line.hasSuffix("\n") {
                let byte = out.fileHandleForReading.readData(ofLength: 1)
                if byte.isEmpty { break }
                line += String(decoding: byte, as: UTF8.self)
            }
            port = Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
        }

        var client: RawClient { RawClient(port: port) }

        /// The requests it logged so far.
        var requests: [String] {
            (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        }

        func stop() {
            guard process.isRunning else { return }
            process.terminate()
            process.waitUntilExit()
        }
    }

    init() throws {
        database = try TemporaryPostgresDatabase()
        cli = try CLIRunner()
        #expect(try cli.run(["demo", "--db", database.url], useDatabase: false).status == 0)
        token = try cli.run(["user", "add", "ada", "--admin", "--db", database.url], useDatabase: false).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        for name in ["a", "b"] {
            servers.append(try Server(database: database.url, directory: cli.directory, name: name))
        }
    }

    deinit {
        for server in servers { server.stop() }
        cli.cleanUp()
    }

    var admin: [(String, String)] { [("Authorization", "Bearer \(token)")] }

    /// Waits until `condition` holds, up to `limit`; returns how long it took, nil if it never did.
    func wait(upTo limit: Duration = .seconds(1), _ condition: () throws -> Bool) rethrows -> Duration? {
        let start = ContinuousClock.now
        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
        return try waitUntil(timeout: seconds, condition) ? ContinuousClock.now - start : nil
    }

    func importRecords(_ json: String, through server: Server, catalog: String = "cookbook") throws
        -> RawClient.Reply
    {
        try server.client.request(
            "POST", "/api/v1/catalogs/\(catalog)/import?format=json&replace=true", headers: admin,
            body: Array(json.utf8))
    }

    @Test func aWriteThroughEitherIsVisibleThroughTheOtherWithinASecond() throws {
        let (a, b) = (servers[0], servers[1])
        let search = "/api/v1/catalogs/cookbook/search?q=nokedli"
        // B answers from its response cache from now on.
        let before = try b.client.request("GET", search)
        #expect(before.status == 200)
        #expect(try b.client.request("GET", search).text == before.text)

        let imported = try importRecords(#"[{"id":"n1","title":"Nokedli új módon"}]"#, through: a)
        #expect(imported.status == 200, "\(imported.text)")
        let seen = wait { (try? b.client.request("GET", search).text.contains("Nokedli új módon")) == true }
        #expect(seen != nil, "an import through A shows on B within a second")

        // A favorite, through B, on A.
        #expect(try b.client.request("PUT", "/api/v1/favorites/cookbook/n1", headers: admin).status == 204)
        #expect(
            wait { (try? a.client.request("GET", "/api/v1/favorites", headers: admin).text.contains("n1")) == true }
                != nil)

        // An account made by a third process (the command line) signs in on both.
        let bob = try cli.run(["user", "add", "bob", "--db", database.url], useDatabase: false).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        for server in [a, b] {
            #expect(
                wait {
                    (try? server.client.request(
                        "GET", "/api/v1/favorites", headers: [("Authorization", "Bearer \(bob)")]
                    )
                    .status) == 200
                } != nil)
        }
    }

    @Test func eitherServerGivesTheSnapshotOfTheSameVersion() throws {
        let (a, b) = (servers[0], servers[1])
        let path = "/api/v1/catalogs/cookbook/snapshot"
        let fromA = try a.client.request("GET", path)
        #expect(fromA.status == 200, "\(fromA.text)")
        #expect(fromA.body.starts(with: Array("SQLite format 3\u{0}".utf8)))
        let etag = try #require(fromA.headers["etag"])
        // B names the same catalog version by the same ETag, without building anything.
        #expect(try b.client.request("GET", path, headers: [("If-None-Match", etag)]).status == 304)

        // The file holds what PostgreSQL holds: the catalog's description, every record in order.
        let file = cli.directory.appendingPathComponent("cookbook-snapshot.sqlite")
        try Data(fromA.body).write(to: file)
        let snapshot = try CatalogEngines.open(file.path)
        let source = try CatalogEngines.open(database.url)
        defer {
            snapshot.close()
            source.close()
        }
        let copied = try #require(try snapshot.read { try $0.catalog("cookbook") })
        let original = try #require(try source.read { try $0.catalog("cookbook") })
        #expect(copied.summary == original.summary && copied.definition == original.definition)
        #expect(copied.sectionLabels == original.sectionLabels && copied.categories == original.categories)
        func records(_ database: any CatalogDatabase, _ catalog: StoredCatalog) throws -> [String] {
            var records: [String] = []
            try database.read { reader in
                try reader.forEachItem(of: catalog) { records.append("\($0.id) \($0.categories) \($0.json)") }
            }
            return records
        }
        #expect(try records(snapshot, copied) == records(source, original))

        // A write through B: A's snapshot is a new version within a second.
        #expect(try importRecords(#"[{"id":"s1","title":"Somlói galuska"}]"#, through: b).status == 200)
        let changed = wait {
            (try? a.client.request("GET", path, headers: [("If-None-Match", etag)]).status) == 200
        }
        #expect(changed != nil, "a write through B gives a new snapshot on A within a second")
    }

    /// Signs in as ada with the web form (fetched, then posted) through `client`; returns the
    /// session cookie (`catalog_session=…`), nil when the sign-in failed.
    func signIn(_ client: RawClient, password: String) throws -> String? {
        let form = try client.request("GET", "/signin")
        guard let pair = form.headers["set-cookie"]?.split(separator: ";").first,
            let token = pair.split(separator: "=", maxSplits: 1).last
        else { return nil }
        let reply = try client.request(
            "POST", "/signin",
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", String(pair))],
            body: Array("csrf=\(token)&name=ada&password=\(password)&next=%2F".utf8))
        guard reply.status == 303 else { return nil }
        let head = String(decoding: reply.raw, as: UTF8.self).components(separatedBy: "\r\n\r\n")[0]
        let session = head.components(separatedBy: "\r\n").first {
            $0.lowercased().hasPrefix("set-cookie: catalog_session=")
        }
        return session.flatMap { $0.dropFirst("set-cookie: ".count).split(separator: ";").first.map(String.init) }
    }

    @Test func aSessionStartedOnOneWorksOnTheOtherAndAPasswordChangeEndsIt() throws {
        let (a, b) = (servers[0], servers[1])
        #expect(
            try cli.run(["user", "password", "ada", "--db", database.url], useDatabase: false, input: "first one\n")
                .status == 0)
        let cookie = try #require(try signIn(a.client, password: "first%20one"))
        #expect(cookie.hasPrefix("catalog_session="))
        let page = try b.client.request("GET", "/c/cookbook/favorites", headers: [("Cookie", cookie)])
        // Signed out, the favorites page lists the browser's own (`data-favorites="local"`).
        #expect(page.status == 200, "signed in on B with A's session")
        #expect(!page.text.contains("data-favorites=\"local\""))
        #expect(try b.client.request("GET", "/c/cookbook/favorites").text.contains("data-favorites=\"local\""))

        // A new password, set through the command line, signs the session out everywhere.
        #expect(
            try cli.run(["user", "password", "ada", "--db", database.url], useDatabase: false, input: "second\n").status
                == 0)
        #expect(
            wait {
                (try? a.client.request("GET", "/c/cookbook/favorites", headers: [("Cookie", cookie)]).text)?
                    .contains("data-favorites=\"local\"") == true
            } != nil)
        #expect(try signIn(b.client, password: "first%20one") == nil)
        #expect(try signIn(b.client, password: "second") != nil)
    }

    @Test func killingAServerInTheMiddleOfAnImportLeavesTheCatalogAsItWas() throws {
        let (a, b) = (servers[0], servers[1])
        let before = try b.client.request("GET", "/api/v1/catalogs/cookbook/items?limit=500").text
        var records: [String] = []
        for index in 0..<150_000 {
            records.append(#"{"id":"killed-\#(index)","title":"Killed import \#(index % 997) \#(index)"}"#)
        }
        let upload = "[" + records.joined(separator: ",") + "]"
        let port = a.port
        let message =
            Array(
                ("POST /api/v1/catalogs/cookbook/import?format=json&replace=true HTTP/1.1\r\nHost: localhost\r\n"
                    + "Connection: close\r\nAuthorization: Bearer \(token)\r\nContent-Length: \(upload.utf8.count)\r\n\r\n"
                    + upload).utf8)
        let request = Thread { _ = try? RawClient(port: port).exchange(message, timeout: 300) }
        request.start()
        // The moment A's write transaction holds the writers' lock, kill it.
        let lockHeld =
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid = \(0x4354_4C47)"
        let writing = try wait(upTo: .seconds(240)) { try database.psql(lockHeld) == "1" }
        #expect(writing != nil, "the import reached its write transaction")
        kill(a.process.processIdentifier, SIGKILL)
        a.process.waitUntilExit()
        #expect(a.process.terminationReason == .uncaughtSignal)

        // PostgreSQL rolls the transaction back when it sees the connection gone (within a second
        // of the statement it was running: client_connection_check_interval); nothing of it stays.
        // The wait is for that event: its bound only ends a test that would hang, and is wide,
        // since on a machine busy with other builds the statement and the rollback run slowly.
        #expect(try wait(upTo: .seconds(180)) { try database.psql(lockHeld) == "0" } != nil)
        #expect(try b.client.request("GET", "/api/v1/catalogs/cookbook/items?limit=500").text == before)
        #expect(try database.psql("SELECT count(*) FROM items WHERE id LIKE 'killed-%'") == "0")
        #expect(
            try database.psql("SELECT count(DISTINCT version) FROM items")
                == database.psql("SELECT count(*) FROM catalogs"))
        // The lock is free: another server imports at once.
        let imported = try importRecords(#"[{"id":"after","title":"After the crash"}]"#, through: b)
        #expect(imported.status == 200, "\(imported.text)")
    }

    @Test(.enabled(if: NginxProcess.isInstalled, "needs nginx (nginx-light)"))
    func nginxInFrontReachesBothServersWithTheDocumentedConfiguration() throws {
        let nginx = try NginxProcess(first: servers[0].port, second: servers[1].port, directory: cli.directory)
        defer { nginx.stop() }
        let port = nginx.port
        let proxy = RawClient(port: port)
        #expect(wait(upTo: .seconds(5)) { (try? proxy.request("GET", "/api/v1/catalogs").status) == 200 } != nil)
        let counts = servers.map { $0.requests.count }
        for index in 0..<20 {
            #expect(try proxy.request("GET", "/api/v1/catalogs/cookbook/items?limit=\(index + 1)").status == 200)
        }
        for (server, count) in zip(servers, counts) {
            let served = server.requests.dropFirst(count).filter { $0.contains("GET /api/v1/catalogs/cookbook/items") }
            #expect(served.count >= 5, "port \(server.port) served \(served.count) of 20")
        }
        // The sign-in form goes to one server (its token is that server's), the session to both.
        #expect(
            try cli.run(["user", "password", "ada", "--db", database.url], useDatabase: false, input: "proxied\n")
                .status == 0)
        for _ in 0..<4 {
            let cookie = try #require(try signIn(proxy, password: "proxied"), "signed in through nginx")
            for _ in 0..<4 {
                #expect(try proxy.request("GET", "/c/cookbook/favorites", headers: [("Cookie", cookie)]).status == 200)
            }
        }
        let signIns = servers.map { $0.requests.filter { $0.contains("POST /signin") }.count }
        #expect(signIns == [4, 0], "every sign-in on the first server")
    }
}

/// The PostgreSQL page (docs/postgresql.md) shows the nginx configuration the two-server test runs, word for word.
@Suite struct NginxExampleTests {
    @Test func thePostgreSQLPageShowsTheTestedConfiguration() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("docs/postgresql.md"), encoding: .utf8)
        let example = try String(contentsOf: root.appendingPathComponent("docs/nginx/catalog.conf"), encoding: .utf8)
        #expect(page.contains("```nginx\n" + example + "```\n"))
    }
}
