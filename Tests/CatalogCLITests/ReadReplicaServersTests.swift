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
    /// on the replica once it has replayed it, and a server reading from the replica.
    final class Setup {
        let database: TemporaryDatabase
        let replica: String
        let server: ServeProcess
        let token: String

        init() throws {
            database = try TemporaryDatabase(engine: .postgres, prefix: "read-replica")
            let location = database.location
            token = try ServeProcess.demoWithAdministrator(at: location)
            let name = URLComponents(string: location)?.path.dropFirst() ?? ""
            replica = PostgresTestServer.location(of: String(name), on: ReplicaTestServer.url ?? "")
            try Setup.waitForReplay(primary: location, replica: replica)
            server = try ServeProcess(
                database: location, arguments: ["--db-read", replica, "--threads", "2", "--client-cpu-budget", "0"],
                log: database.directory.appendingPathComponent("serve.log"))
        }

        deinit {
            server.stop()
        }

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

        /// The server's metrics.
        func metrics() throws -> String {
            try server.client.request("GET", "/metrics").text
        }

        /// The value of `metric` for the replica (the sample whose label is a postgres URL).
        func replicaSample(_ metric: String) throws -> Double? {
            try Self.sample(metric, label: "\"postgres", in: metrics())
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

    @Test func readsGoToTheReplicaAndAClientReadsItsOwnWriteAtOnce() throws {
        let setup = try Setup()
        let client = setup.server.client
        // Until the server has seen the replica up and caught up with what the primary holds
        // (the server's own start may write there), its reads rightly go to the primary.
        let replicaSeen = waitUntil(timeout: 60, every: .milliseconds(20)) {
            let up = (try? setup.replicaSample("catalog_database_replica_up")) ?? nil
            let behind = (try? setup.replicaSample("catalog_database_replica_versions_behind")) ?? nil
            return up == 1 && behind == 0
        }
        #expect(replicaSeen, "the server never saw the replica caught up")
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
        let failures = LockedLines()
        let done = Gate()
        let stopped = Gate()
        let reader = Thread {
            var index = 0
            while !done.opened {
                let path = Self.reads[index % Self.reads.count]
                index += 1
                do {
                    let reply = try client.request("GET", path)
                    if reply.status != 200 { failures.append("\(path): \(reply.status) \(reply.text.prefix(200))") }
                } catch {
                    failures.append("\(path): \(error)")
                }
            }
            stopped.open()
        }
        reader.start()
        defer {
            done.open()
            _ = stopped.wait(timeout: 60)
        }

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
        done.open()
        #expect(stopped.wait(timeout: 60))
        #expect(failures.lines.isEmpty, "\(failures.lines.prefix(5))")
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
