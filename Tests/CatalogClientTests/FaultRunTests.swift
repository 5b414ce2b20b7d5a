import CatalogClient
import CatalogDemo
import CatalogTestSupport
import Foundation
import Synchronization
import Testing

/// The fault run: two `catalog serve` processes on one database (PostgreSQL, or one SQLite file),
/// writers changing records through both (puts, merge patches, deletes, small batches), server A
/// killed with `SIGKILL` again and again and started again (on its port), while change-feed
/// readers on server B follow the catalog (the client library's ``CatalogChanges`` and a raw
/// event stream), and one more ``CatalogChanges`` follows it through A, waiting out every kill.
///
/// At the end, for each reader: every acknowledged change arrived exactly once, in order, with
/// its number and record; nothing arrived that no writer sent (a request in flight at a kill may
/// have committed or not, but what arrived of it is whole and as sent); the catalog the reader's
/// changes make is the server's. An offline snapshot downloaded at the start and brought up to
/// date with `sync` answers as the server does. Kills come after a seeded random number of
/// acknowledged writes, never after a time.
@Suite(.serialized, .timeLimit(.minutes(10))) struct FaultRunTests {
    static let records = 1_500
    static let seed: UInt64 = 19
    static let kills = 6
    static let writers = 4
    static let catalog = "big"

    @Test(arguments: TemporaryDatabase.Engine.available)
    func everyAcknowledgedChangeArrivesOnceInOrderWhileAServerIsKilledAgainAndAgain(
        _ engine: TemporaryDatabase.Engine
    ) async throws {
        let database = try TemporaryDatabase(engine: engine, prefix: "fault-run")
        let location = database.location
        let directory = database.directory
        let generated = try ServeProcess.run([
            "generate", "--catalog", Self.catalog, "--items", "\(Self.records)", "--seed", "\(Self.seed)", "--quiet",
            "--db", location,
        ])
        try #require(generated.status == 0, "\(generated.output)")
        let user = try ServeProcess.run(["user", "add", "ada", "--admin", "--db", location])
        try #require(user.status == 0, "\(user.output)")
        let token = user.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let arguments = [
            "--snapshots", directory.appendingPathComponent("snapshots").path, "--threads", "2",
            "--client-cpu-budget", "0", "--quiet",
        ]
        let launches = LockedLines()
        // A starts again on its port each time, so that a client of it finds it back.
        let portA = try ServeProcess.freePort()
        @Sendable func launch(_ name: String) throws -> ServeProcess {
            launches.append(name)
            return try ServeProcess(
                database: location, port: name == "a" ? portA : 0, arguments: arguments,
                log: directory.appendingPathComponent("\(name)-\(launches.lines.count).log"))
        }
        let b = try launch("b")
        let a = ServerSlot("A", try launch("a"))
        let readerSide = ServerSlot("B", b)
        defer {
            a.takeDown()?.kill()
            b.stop()
        }

        // The reader's offline copy, downloaded at the start, and the catalog it holds.
        let admin = CatalogClient(
            baseURL: URL(string: "http://127.0.0.1:\(b.port)")!, token: token,
            cache: .directory(directory.appendingPathComponent("client")), timeout: 60)
        let file = directory.appendingPathComponent("offline.sqlite")
        try await admin.download(catalog: Self.catalog, to: file)
        let offline = try OfflineCatalog(at: file)
        defer { offline.close() }
        let start = try await offline.sync(with: admin).change
        #expect(try await offline.sync(with: admin) == .current(change: start))
        var initial: [String: Record] = [:]
        for try await record in offline.allItems(of: Self.catalog, pageSize: 500) { initial[record.id] = record }
        #expect(initial.count == Self.records)

        // Readers on B, from the start; and one more of the client library's on A, which waits
        // out every kill and goes on after the last change it had.
        var options = ChangeFeedOptions()
        options.transport = .polling(every: .milliseconds(50))
        options.pageSize = 100
        options.retryDelay = .milliseconds(50)
        options.maxRetryDelay = .milliseconds(200)
        let followed = ChangeList()
        let follower = Task { [admin, options] () throws -> Void in
            for try await change in admin.changes(of: Self.catalog, since: start, options: options) {
                followed.append(change)
            }
        }
        let stream = EventStreamReader(port: b.port, catalog: Self.catalog, since: start)
        let throughA = CatalogClient(baseURL: URL(string: "http://127.0.0.1:\(portA)")!, token: token, cache: .none)
        let followedOnA = ChangeList()
        let followerOnA = Task { [throughA, options] () throws -> Void in
            for try await change in throughA.changes(of: Self.catalog, since: start, options: options) {
                followedOnA.append(change)
            }
        }

        // Writers: each on records of its own (12 the catalog has, 8 new), half through A.
        let sorted = initial.keys.sorted()
        var owners: [String: Int] = [:]
        var assigned: [[String]] = []
        for writer in 0..<Self.writers {
            let mine =
                Array(sorted.enumerated().filter { $0.offset % 97 == writer }.map(\.element).prefix(12))
                + (0..<8).map { "fault-\(writer)-\($0)" }
            for id in mine { owners[id] = writer }
            assigned.append(mine)
        }
        let ledger = FaultLedger(owners: owners, writers: Self.writers)
        let words = CatalogGenerator(items: Self.records, locale: "en", seed: Self.seed).titleWords
        let categories = try await offline.categories(of: Self.catalog).map(\.name)
        let writers = (0..<Self.writers).map { index in
            FaultWriter(
                index: index, slot: index < Self.writers / 2 ? a : readerSide, ledger: ledger, token: token,
                catalog: Self.catalog, ids: assigned[index], existing: Set(initial.keys), words: words,
                categories: categories, seed: Self.seed &* 1_000 &+ UInt64(index))
        }

        // The run: writers on threads; A killed after a seeded random number of writes it
        // acknowledged since it last started, and started again; then writes through both go on
        // until each server has acknowledged a few more, and the writers stop.
        let killed = await withCheckedContinuation { (done: CheckedContinuation<Int, Never>) in
            Thread.detachNewThread {
                let stopped = writers.map { writer in
                    let gate = Gate()
                    Thread.detachNewThread {
                        writer.run()
                        gate.open()
                    }
                    return gate
                }
                var random = OfflineComparison.Random(state: Self.seed)
                var killed = 0
                for round in 1...Self.kills {
                    guard ledger.waitForAcknowledged(by: "A", count: 5 + random.below(25)) else {
                        ledger.problem("A acknowledged too few writes before kill \(round)")
                        break
                    }
                    a.takeDown()?.kill()
                    killed += 1
                    ledger.resetCount(of: "A")
                    do {
                        a.bringUp(try launch("a"))
                    } catch {
                        ledger.problem("A did not start again after kill \(round): \(error)")
                        break
                    }
                }
                ledger.resetCount(of: "B")
                if !ledger.waitForAcknowledged(by: "A", count: 10) || !ledger.waitForAcknowledged(by: "B", count: 10) {
                    ledger.problem("the servers acknowledged too few writes after the last restart")
                }
                // Writers waiting for a server (one that did not start again) stop waiting too.
                ledger.stop()
                a.close()
                readerSide.close()
                for gate in stopped { gate.wait() }
                done.resume(returning: killed)
            }
        }
        #expect(killed == Self.kills)
        #expect(ledger.notedProblems.isEmpty, "\(ledger.notedProblems.prefix(10))")

        // Every change has reached both readers.
        let final = try await admin.changeLog(of: Self.catalog, since: start, limit: 1).change
        let arrived = await waitUntil(timeout: 120) {
            [followed.all.last, stream.changes.last, followedOnA.all.last].allSatisfy { ($0?.number ?? start) >= final }
        }
        follower.cancel()
        followerOnA.cancel()
        stream.stop()
        _ = try? await follower.value
        _ = try? await followerOnA.value
        #expect(arrived, "the readers got every change up to \(final)")
        #expect(stream.problems.isEmpty, "\(stream.problems.prefix(10))")

        var server: [String: Record] = [:]
        for try await record in admin.allItems(of: Self.catalog, pageSize: 500) { server[record.id] = record }
        let lastA = try #require(a.takeDown())
        var served: [String: Record] = [:]
        for try await record in throughA.allItems(of: Self.catalog, pageSize: 500) { served[record.id] = record }
        #expect(served == server, "A and B serve the same catalog")
        lastA.kill()

        let writes = ledger.sent.joined()
        let readers = [
            ("changes(of:since:)", followed.all), ("event stream", stream.changes),
            ("changes(of:since:) on A", followedOnA.all),
        ]
        for (name, changes) in readers {
            let verdict = ledger.verify(changes, start: start, initial: initial)
            print(
                "fault run (\(engine), \(name)): \(Self.kills) kills of A, \(writes.count) requests"
                    + " (\(writes.filter { $0.numbers != nil }.count) acknowledged, \(ledger.unansweredCount) unanswered):"
                    + " changes acknowledged \(verdict.acknowledged), delivered \(verdict.delivered),"
                    + " duplicated \(verdict.duplicated), missing \(verdict.missing),"
                    + " unacknowledged delivered \(verdict.unacknowledgedDelivered)")
            #expect(verdict.problems.isEmpty, "\(name): \(verdict.problems.prefix(10))")
            #expect(verdict.duplicated == 0 && verdict.missing == 0, "\(name)")
            #expect(verdict.acknowledged > 100, "\(name): enough acknowledged changes to say something")
            #expect(changes.last?.number == final, "\(name)")
            #expect(verdict.records == server, "\(name): the reader's catalog is the server's")
        }

        // The offline copy, brought up to date from the feed, answers as the server.
        #expect(try await offline.sync(with: admin) == .applied(count: final - start, change: final))
        let comparison = OfflineComparison(client: admin, offline: offline, catalog: Self.catalog, words: words)
        try await comparison.thousandSearchesGiveTheSameAnswers(count: 300)
        try await comparison.browseScreensAreTheSame(count: server.count)
    }
}

/// Changes a task collects while the test reads them.
final class ChangeList: Sendable {
    private let storage = Mutex<[CatalogChange]>([])

    func append(_ change: CatalogChange) { storage.withLock { $0.append(change) } }

    var all: [CatalogChange] { storage.withLock { $0 } }
}
