import CatalogTestSupport
import Foundation
import Testing

/// `catalog serve --db-read` on a real streaming replica of the test cluster
/// (`scripts/test-postgres.sh` starts one with `pg_basebackup -R`): reads go to the replica, a
/// client reads its own write at once even while the replica's replay is paused, and a replica
/// stopped and started under load costs no request. Serialized: its tests pause and stop the one
/// replica. Skipped without `CATALOG_TEST_POSTGRES_REPLICA`.
@Suite(
    .serialized, .timeLimit(.minutes(5)),
    .enabled(
        if: PostgresTestServer.url != nil && ReplicaTestServer.url != nil,
        "needs CATALOG_TEST_POSTGRES and CATALOG_TEST_POSTGRES_REPLICA (scripts/test-postgres.sh)"))
struct ReadReplicaServersTests {
    /// A database with the demo catalogs and an administrator on the primary, the same database
    /// on the replica once it has replayed it, servers reading from the replica (`--db-read`),
    /// and, when asked for, a server on the primary alone that writes.
    final class Setup {
        let database: TemporaryDatabase
        let replica: String
        /// The servers reading from the replica.
        let servers: [ServeProcess]
        /// A server on the primary without `--db-read`.
        let writer: ServeProcess?
        let token: String

        init(readServers: Int = 1, writer writing: Bool = false) throws {
            database = try TemporaryDatabase(engine: .postgres, prefix: "read-replica")
            let location = database.location
            token = try ServeProcess.demoWithAdministrator(at: location)
            let name = URLComponents(string: location)?.path.dropFirst() ?? ""
            let replica = PostgresTestServer.location(of: String(name), on: ReplicaTestServer.url ?? "")
            self.replica = replica
            try Setup.waitForReplay(primary: location, replica: replica)
            let directory = database.directory
            servers = try (1...readServers).map { index in
                try ServeProcess(
                    database: location,
                    arguments: ["--db-read", replica, "--threads", "2", "--client-cpu-budget", "0"],
                    log: directory.appendingPathComponent(index == 1 ? "serve.log" : "serve-\(index).log"))
            }
            writer =
                writing
                ? try ServeProcess(
                    database: location, arguments: ["--threads", "2", "--client-cpu-budget", "0"],
                    log: directory.appendingPathComponent("writer.log")) : nil
        }

        deinit {
            for server in servers { server.stop() }
            writer?.stop()
        }

        /// The first server reading from the replica.
        var server: ServeProcess { servers[0] }

        var admin: [(String, String)] { [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")] }

        /// Waits until the replica has replayed every write the primary committed so far.
        static func waitForReplay(primary: String, replica: String) throws {
            let version = try PostgresTestServer.run("SELECT data_version FROM catalog_state", on: primary)
            let replayed = waitUntil(timeout: 60, every: .milliseconds(10)) {
                (try? PostgresTestServer.run("SELECT data_version FROM catalog_state", on: replica)) == version
            }
            guard replayed else {
                throw ServeProcessError(message: "the replica did not replay data version \(version)")
            }
        }

        /// A server's metrics (the first reading server's unless another is named).
        func metrics(of server: ServeProcess? = nil) throws -> String {
            try (server ?? self.server).client.request("GET", "/metrics").text
        }

        /// The value of `metric` for the replica (the sample whose label is a postgres URL).
        func replicaSample(_ metric: String, of server: ServeProcess? = nil) throws -> Double? {
            try Self.sample(metric, label: "\"postgres", in: metrics(of: server))
        }

        /// Waits until `server` (the first reading server unless another is named) has seen the
        /// replica up and caught up with what the primary holds; until then its reads rightly go
        /// to the primary (the server's own start may write there). Returns whether it did.
        func replicaSeen(by server: ServeProcess? = nil) -> Bool {
            waitUntil(timeout: 60, every: .milliseconds(20)) {
                let up = (try? replicaSample("catalog_database_replica_up", of: server)) ?? nil
                let behind = (try? replicaSample("catalog_database_replica_versions_behind", of: server)) ?? nil
                return up == 1 && behind == 0
            }
        }

        /// Six changes of the cookbook through the writing server, named after `phase`: four new
        /// records, then the first of them changed and the second deleted; each as the writer
        /// acknowledged it.
        func writeChanges(_ phase: String) throws -> [Change] {
            let writer = try #require(self.writer).client
            let items = "/api/v1/catalogs/cookbook/items"
            let bearer = [("Authorization", "Bearer \(token)")]
            var changes: [Change] = []
            func acknowledged(_ reply: RawClient.Reply, _ status: Int, _ kind: String, _ id: String) throws {
                #expect(reply.status == status, "\(phase): \(kind) \(id): \(reply.text)")
                let number = try #require(reply.headers["catalog-change"].flatMap { Int($0) })
                changes.append(Change(number: number, kind: kind, id: id))
            }
            for index in 1...4 {
                let id = "feed-\(phase)-\(index)"
                let body = #"{"id":"\#(id)","title":"Hírcsatorna \#(phase) \#(index)"}"#
                try acknowledged(
                    writer.request("PUT", "\(items)/\(id)", headers: admin, body: Array(body.utf8)), 201, "upsert", id)
            }
            let patch = bearer + [("Content-Type", "application/merge-patch+json")]
            try acknowledged(
                writer.request(
                    "PATCH", "\(items)/feed-\(phase)-1", headers: patch, body: Array(#"{"subtitle":"újra"}"#.utf8)),
                200, "upsert", "feed-\(phase)-1")
            try acknowledged(
                writer.request("DELETE", "\(items)/feed-\(phase)-2", headers: bearer), 204, "delete", "feed-\(phase)-2")
            return changes
        }

        static func sample(_ metric: String, label: String, in text: String) -> Double? {
            text.split(separator: "\n").first { $0.hasPrefix("\(metric){") && $0.contains("=\(label)") }
                .flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
        }

        /// Connections the server holds open on the replica's copy of the database.
        func connectionsOnReplica() throws -> Int {
            let name = URLComponents(string: replica)?.path.dropFirst() ?? ""
            return Int(
                try PostgresTestServer.run(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(name)' AND application_name = 'catalog'",
                    on: ReplicaTestServer.url ?? "")) ?? 0
        }
    }

    /// A change the writing server acknowledged: its number, its kind in the feed, the record's id.
    struct Change: Equatable, CustomStringConvertible {
        let number: Int
        let kind: String
        let id: String

        var description: String { "\(number) \(kind) \(id)" }
    }

    /// The next `count` changes `stream` delivers as events, fewer when something else comes
    /// first (the end of the stream, or nothing within its timeout).
    static func changes(_ count: Int, from stream: EventStreamClient) -> [Change] {
        var changes: [Change] = []
        while changes.count < count, let event = SharedDatabaseServersTests.nextChange(stream),
            event.event == "change", event.data["number"] as? Int == event.id
        {
            changes.append(
                Change(
                    number: event.id, kind: event.data["kind"] as? String ?? "", id: event.data["id"] as? String ?? ""))
        }
        return changes
    }

    /// The user's favorites as `server` lists them: the item of each whose record came with it.
    static func favorites(on server: ServeProcess, token: String) throws -> [String] {
        let reply = try server.client.request(
            "GET", "/api/v1/favorites", headers: [("Authorization", "Bearer \(token)")])
        #expect(reply.status == 200, "\(reply.text)")
        let favorites = SharedDatabaseServersTests.object(reply.body)?["favorites"] as? [NSDictionary] ?? []
        return favorites.compactMap { favorite in
            let item = favorite["item"] as? String
            return item != nil && (favorite["record"] as? NSDictionary)?["id"] as? String == item ? item : nil
        }
    }

    /// A favorite of the user added through `adding` and removed through `removing` (both
    /// writes go to the primary): each is read back at once, through either server.
    static func favoriteRound(_ item: String, token: String, adding: ServeProcess, removing: ServeProcess) throws {
        let bearer = [("Authorization", "Bearer \(token)")]
        let path = "/api/v1/favorites/cookbook/\(item)"
        let put = try adding.client.request("PUT", path, headers: bearer)
        #expect(put.status == 204, "\(put.text)")
        for server in [adding, removing] {
            #expect(try favorites(on: server, token: token).contains(item), "\(item) added, on port \(server.port)")
        }
        let delete = try removing.client.request("DELETE", path, headers: bearer)
        #expect(delete.status == 204, "\(delete.text)")
        for server in [removing, adding] {
            #expect(try !favorites(on: server, token: token).contains(item), "\(item) removed, on port \(server.port)")
        }
    }

    /// The reads a client makes while it browses: catalogs, a search, a page, an item, the feed.
    static let reads = [
        "/api/v1/catalogs", "/api/v1/catalogs/cookbook/search?q=leves", "/api/v1/catalogs/products/items?limit=5",
        "/api/v1/catalogs/cookbook/changes?since=0", "/gethots", "/getcategories",
    ]

    /// Runs `replica-ctl stop|start` (the script test-postgres.sh wrote).
    static func replicaControl(_ action: String) throws {
        let control = ProcessInfo.processInfo.environment["CATALOG_TEST_POSTGRES_REPLICA_CTL"] ?? ""
        let process = Process()
        process.executableURL = URL(fileURLWithPath: control)
        process.arguments = [action]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ServeProcessError(message: "replica-ctl \(action) failed (\(process.terminationStatus))")
        }
    }

    /// Clients reading ``reads`` in turn from every one of `servers`, a thread each, while
    /// `action` runs and then until each has made `atLeast` more reads; a bounded load (at most
    /// `limit` reads a thread). Returns the requests that failed (status other than 200, or no
    /// answer).
    static func failures(
        readingFrom servers: [ServeProcess], atLeast: Int = 50, limit: Int = 20_000, while action: () throws -> Void
    ) throws -> [String] {
        let acted = Gate()
        let failures = LockedLines()
        let finished = servers.map { _ in Gate() }
        for (server, done) in zip(servers, finished) {
            let (client, port) = (server.client, server.port)
            Thread {
                var made = 0
                var afterwards = 0
                while made < limit && afterwards < atLeast {
                    let after = acted.opened
                    let path = Self.reads[made % Self.reads.count]
                    made += 1
                    do {
                        let reply = try client.request("GET", path)
                        if reply.status != 200 {
                            failures.append("\(port) \(path): \(reply.status) \(reply.text.prefix(200))")
                        }
                    } catch {
                        failures.append("\(port) \(path): \(error)")
                    }
                    if after { afterwards += 1 }
                }
                done.open()
            }.start()
        }
        do {
            try action()
        } catch {
            acted.open()
            for done in finished { done.wait(timeout: 300) }
            throw error
        }
        acted.open()
        for done in finished { #expect(done.wait(timeout: 300), "a reader ends its reads") }
        return failures.lines
    }

    @Test func readsGoToTheReplicaAndAClientReadsItsOwnWriteAtOnce() throws {
        let setup = try Setup()
        let client = setup.server.client
        #expect(setup.replicaSeen(), "the server never saw the replica caught up")
        let before = try #require(try setup.replicaSample("catalog_database_reads_total"))
        for path in Self.reads { #expect(try client.request("GET", path).status == 200, "\(path)") }
        let after = try #require(try setup.replicaSample("catalog_database_reads_total"))
        #expect(after >= before + Double(Self.reads.count), "every read went to the replica")
        #expect(try setup.connectionsOnReplica() > 0, "the server is connected to the replica")
        let ready = try client.request("GET", "/readyz")
        #expect(ready.status == 200 && ready.text.hasPrefix("ready\nreplica postgres://"), "\(ready.text)")
        #expect(ready.text.contains(": up, lag "), "\(ready.text)")
        #expect(try setup.replicaSample("catalog_database_replica_up") == 1)

        // The replica stops replaying: a write is still read back at once, from the primary.
        try PostgresTestServer.run("SELECT pg_wal_replay_pause()", on: setup.replica)
        defer { _ = try? PostgresTestServer.run("SELECT pg_wal_replay_resume()", on: setup.replica) }
        let skipped = try setup.replicaSample("catalog_database_replica_skipped_total") ?? 0
        let base = "/api/v1/catalogs/cookbook"
        for round in 1...5 {
            let put = try client.request(
                "PUT", "\(base)/items/replica-\(round)", headers: setup.admin,
                body: Array(#"{"id":"replica-\#(round)","title":"Zuzmó \#(round) a másolatról"}"#.utf8))
            #expect(put.status == 201, "\(put.text)")
            let change = try #require(put.headers["catalog-change"].flatMap { Int($0) })
            let item = try client.request("GET", "\(base)/items/replica-\(round)")
            #expect(item.status == 200 && item.headers["etag"] == put.headers["etag"], "round \(round): \(item.text)")
            let search = try client.request("GET", "\(base)/search?q=zuzmo%20\(round)")
            #expect(search.text.contains("\"replica-\(round)\""), "round \(round): \(search.text.prefix(300))")
            let feed = try client.request("GET", "\(base)/changes?since=\(change - 1)")
            #expect(feed.text.contains("\"replica-\(round)\""), "round \(round): \(feed.text)")
        }
        #expect(
            try PostgresTestServer.run("SELECT count(*) FROM catalog_state", on: setup.replica) == "1"
                && PostgresTestServer.run("SELECT data_version FROM catalog_state", on: setup.replica)
                    != PostgresTestServer.run("SELECT data_version FROM catalog_state", on: setup.database.location),
            "the paused replica is behind the primary")
        #expect(try setup.replicaSample("catalog_database_replica_skipped_total") ?? 0 > skipped)
        #expect(try setup.replicaSample("catalog_database_replica_versions_behind") ?? 0 >= 1)

        // Replaying again, it catches up and takes the reads again.
        try PostgresTestServer.run("SELECT pg_wal_replay_resume()", on: setup.replica)
        try Setup.waitForReplay(primary: setup.database.location, replica: setup.replica)
        let caughtUp = try #require(try setup.replicaSample("catalog_database_reads_total"))
        #expect(
            waitUntil(timeout: 30, every: .milliseconds(20)) {
                (try? client.request("GET", "\(base)/items/replica-5").status) == 200
                    && ((try? setup.replicaSample("catalog_database_reads_total")) ?? 0) > caughtUp
            }, "reads go to the replica again once it caught up")
    }

    @Test func aStoppedReplicaFallsBackToThePrimaryWithoutAFailedRequest() throws {
        let setup = try Setup()
        let client = setup.server.client
        let base = "/api/v1/catalogs/cookbook"
        // A client keeps reading while the replica is stopped and started again.
        let failures = try Self.failures(readingFrom: [setup.server]) {
            try Self.replicaControl("stop")
            var restarted = false
            defer { if !restarted { try? Self.replicaControl("start") } }
            #expect(
                waitUntil(timeout: 30, every: .milliseconds(20)) {
                    (try? setup.replicaSample("catalog_database_replica_up")) == 0
                }, "the metrics say the replica is down")
            let ready = try client.request("GET", "/readyz")
            #expect(ready.status == 200 && ready.text.contains(": down\n"), "\(ready.text)")
            // Writes and favorites work meanwhile, and are read back.
            let put = try client.request(
                "PUT", "\(base)/items/while-down", headers: setup.admin,
                body: Array(#"{"id":"while-down","title":"Zuzmó, míg a másolat áll"}"#.utf8))
            #expect(put.status == 201, "\(put.text)")
            #expect(try client.request("GET", "\(base)/items/while-down").headers["etag"] == put.headers["etag"])
            let favorite = try client.request("PUT", "/api/v1/favorites/cookbook/while-down", headers: setup.admin)
            #expect((200..<300).contains(favorite.status), "\(favorite.text)")
            #expect(try client.request("GET", "/api/v1/favorites", headers: setup.admin).text.contains("while-down"))

            try Self.replicaControl("start")
            restarted = true
            let reads = try setup.replicaSample("catalog_database_reads_total") ?? 0
            #expect(
                waitUntil(timeout: 60, every: .milliseconds(20)) {
                    ((try? setup.replicaSample("catalog_database_reads_total")) ?? 0) > reads
                }, "reads go to the replica again once it is back")
            #expect(try setup.replicaSample("catalog_database_replica_up") == 1)
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }
}

extension ReadReplicaServersTests {
    /// The issue's whole set-up: two servers reading from the standby and one writing on the
    /// primary. Every change through the writer reaches both read servers' event streams, once and
    /// in order, while the standby is up, stopped, and started again; a signed-in user adds and
    /// removes favorites through the read servers and reads each back at once; and reads from
    /// both read servers meanwhile never fail (a read the standby cannot answer runs again on the
    /// primary, as docs/postgresql.md says).
    @Test func twoReadServersFollowAWriterWhileTheStandbyStopsAndStarts() throws {
        let setup = try Setup(readServers: 2, writer: true)
        let (a, b) = (setup.servers[0], setup.servers[1])
        let writer = try #require(setup.writer)
        let base = "/api/v1/catalogs/cookbook"
        // A user who signs in through a read server (sign-ins go to the primary).
        let password = "kosar-a-masolaton"
        let added = try ServeProcess.run(
            ["user", "add", "bea", "--password-stdin", "--db", setup.database.location], input: "\(password)\n")
        #expect(added.status == 0, "\(added.output)")
        let signIn = try a.client.request(
            "POST", "/api/v1/signin", headers: [("Content-Type", "application/json")],
            body: Array(#"{"name":"bea","password":"\#(password)"}"#.utf8))
        #expect(signIn.status == 200, "\(signIn.text)")
        let token = try #require(SharedDatabaseServersTests.object(signIn.body)?["token"] as? String)

        for server in setup.servers {
            #expect(setup.replicaSeen(by: server), "the server on port \(server.port) never saw the replica caught up")
        }
        let head = try writer.client.request("GET", "\(base)/changes?since=0&limit=1")
        let start = try #require(head.headers["catalog-change"].flatMap { Int($0) })
        let streams = try setup.servers.map {
            try EventStreamClient(port: $0.port, path: "\(base)/changes?since=\(start)")
        }
        for stream in streams { #expect(stream.readHead() && stream.status == 200) }
        let skipped = try setup.servers.map {
            try setup.replicaSample("catalog_database_replica_skipped_total", of: $0) ?? 0
        }
        var written: [Change] = []
        // Changes through the writer, each delivered by both read servers' event streams, in
        // order; then a favorite added through one read server and removed through the other.
        func phase(_ name: String, favorite item: String, adding: ServeProcess, removing: ServeProcess) throws {
            let changes = try setup.writeChanges(name)
            written += changes
            for (server, stream) in zip(setup.servers, streams) {
                let delivered = Self.changes(changes.count, from: stream)
                #expect(delivered == changes, "\(name): the event stream of the server on port \(server.port)")
            }
            try Self.favoriteRound(item, token: token, adding: adding, removing: removing)
        }

        // The standby up.
        var failures = try Self.failures(readingFrom: setup.servers) {
            try phase("up", favorite: "r01", adding: a, removing: b)
        }
        // The standby stopped: both read servers find it down, and go on.
        var stopped = false
        defer { if stopped { try? Self.replicaControl("start") } }
        failures += try Self.failures(readingFrom: setup.servers) {
            stopped = true
            try Self.replicaControl("stop")
            for server in setup.servers {
                #expect(
                    waitUntil(timeout: 30, every: .milliseconds(20)) {
                        (try? setup.replicaSample("catalog_database_replica_up", of: server)) == 0
                    }, "the server on port \(server.port) says the replica is down")
            }
            try phase("down", favorite: "r02", adding: b, removing: a)
        }
        // The standby started again: both read servers read from it again.
        let reads = try setup.servers.map { try setup.replicaSample("catalog_database_reads_total", of: $0) ?? 0 }
        failures += try Self.failures(readingFrom: setup.servers) {
            try Self.replicaControl("start")
            stopped = false
            try phase("back", favorite: "r03", adding: a, removing: b)
            for (server, before) in zip(setup.servers, reads) {
                #expect(
                    waitUntil(timeout: 60, every: .milliseconds(20)) {
                        ((try? setup.replicaSample("catalog_database_reads_total", of: server)) ?? 0) > before
                    }, "the server on port \(server.port) reads from the replica again")
            }
        }

        #expect(failures.isEmpty, "\(failures.count) reads failed: \(failures.prefix(5))")
        #expect(written.map(\.number) == Array(start + 1...start + 18), "the writer's changes, numbered in turn")
        for (server, before) in zip(setup.servers, skipped) {
            let feed = try SharedDatabaseServersTests.feed(server.client, since: start)
            #expect(
                feed.map { Change(number: $0.0, kind: $0.1, id: $0.2) } == written,
                "the JSON feed of the server on port \(server.port)")
            #expect(
                try setup.replicaSample("catalog_database_replica_skipped_total", of: server) ?? 0 > before,
                "reads on port \(server.port) passed the stopped replica over")
        }
    }
}

/// The replica of the test cluster.
enum ReplicaTestServer {
    /// A URL of the replica's `postgres` database (`CATALOG_TEST_POSTGRES_REPLICA`), nil without one.
    static var url: String? {
        ProcessInfo.processInfo.environment["CATALOG_TEST_POSTGRES_REPLICA"].flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// `--db-read` outside PostgreSQL: refused, saying why.
@Suite struct ReadReplicaOptionTests {
    @Test func aSQLiteDatabaseTakesNoReadReplica() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("db-read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("catalog.sqlite").path
        let refused = try ServeProcess.run([
            "serve", "--db", path, "--port", "0", "--db-read", "postgres://reader@replica.internal/catalog",
        ])
        #expect(refused.status == 64)
        #expect(
            refused.output.contains("--db-read: read replicas (--db-read) are PostgreSQL standbys"), "\(refused.output)"
        )
        let notAURL = try ServeProcess.run(["serve", "--db", "postgres://x@/catalog", "--db-read", "replica.sqlite"])
        #expect(notAURL.status == 64)
        #expect(notAURL.output.contains("--db-read takes a postgres:// or postgresql:// URL, got 'replica.sqlite'"))
    }
}
