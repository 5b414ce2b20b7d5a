@testable import CatalogClient
import CatalogCore
import CatalogHTTP
import CatalogTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The change sequence over the server's event stream (the default transport) against a live
/// server: edits arrive as they are made, a server restart is resumed from the last change
/// without loss or repeat, a deleted catalog ends the sequence, cancelling ends it at once.
@Suite(.timeLimit(.minutes(3))) struct ChangeStreamTests {
    let live: LiveServer
    let admin: CatalogClient

    init() throws {
        live = try LiveServer()
        admin = live.client(token: live.adminToken)
    }

    /// The default transport, with retries after 15 ms, 30 ms, then 60 ms through `gate`.
    static func options(_ gate: PauseGate? = nil) -> ChangeFeedOptions {
        var options = ChangeFeedOptions()
        #expect(options.transport == .events())
        options.retryDelay = .milliseconds(15)
        options.maxRetryDelay = .milliseconds(60)
        if let gate { options.pause = gate.pause }
        return options
    }

    /// Returns once the server has `count` event streams open (the counter it exposes).
    func streams(_ count: Int) async throws {
        // The async overload: the sync one would block a thread of the pool the stream runs on.
        let opened = await waitUntil { [live] () async -> Bool in live.server.openEventStreams == count }
        try #require(opened, "the server never had \(count) event streams open")
    }

    @Test func editsMadeAfterSubscribingArriveOnTheStream() async throws {
        let start = try await admin.record("p001", in: "products").change
        let gate = PauseGate()
        let (arrivals, arrived) = AsyncStream.makeStream(of: CatalogChange.self)
        let follower = Task { [admin] in
            for try await change in admin.changes(of: "products", since: start, options: Self.options(gate)) {
                arrived.yield(change)
            }
        }
        var received = arrivals.makeAsyncIterator()
        try await streams(1)
        // Each edit arrives as it happens, on the one stream: the sequence never polls or waits.
        for number in 1...3 {
            let stored = try await admin.put(Record(id: "z\(number)", title: "Élő \(number)"), in: "products")
            let change = await received.next()
            #expect(change?.number == stored.change && change?.kind == .upsert && change?.record == stored.record)
            #expect(change?.number == start + number && change?.cursor != nil)
        }
        let deleted = try await admin.delete("z2", in: "products")
        let removal = await received.next()
        #expect(removal?.number == deleted && removal?.kind == .delete && removal?.id == "z2")
        #expect(live.server.openEventStreams == 1)
        #expect(gate.waitsReported == 0)
        follower.cancel()
        try await follower.value
    }

    @Test func aServerRestartMidStreamResumesWithoutLossOrRepeat() async throws {
        let start = try await admin.record("p001", in: "products").change
        let first = try await admin.patch("p001", in: "products", changes: ["subtitle": .text("vorher")])
        let gate = PauseGate()
        let statuses = Mutex<[ChangeFeedStatus]>([])
        var options = Self.options(gate)
        options.onStatus = { status in statuses.withLock { $0.append(status) } }
        let (arrivals, arrived) = AsyncStream.makeStream(of: CatalogChange.self)
        let follower = Task { [admin, options] in
            for try await change in admin.changes(of: "products", since: start, options: options) {
                arrived.yield(change)
            }
            arrived.finish()
        }
        var received = arrivals.makeAsyncIterator()
        #expect(await received.next()?.number == first.change)
        try await streams(1)
        var offlineEdits: EditOutcome?
        try await live.restart {
            // The stream broke: the sequence waits, then finds nothing listening, and waits longer.
            #expect(await gate.nextWait() == .milliseconds(15))
            offlineEdits = try live.edit(
                [
                    RecordEdit(.upsert(Record(id: "z-down", title: "Während"))),
                    RecordEdit(.delete(id: "p002")),
                ], in: "products")
            gate.release()
            #expect(await gate.nextWait() == .milliseconds(30))
        }
        // The server is back: a new stream opens after the last change delivered.
        gate.release()
        let afterRestart = [await received.next(), await received.next()]
        #expect(afterRestart.map { $0?.number } == [first.change + 1, first.change + 2])
        #expect(afterRestart.map { $0?.kind } == [.upsert, .delete])
        #expect(offlineEdits?.change == first.change + 2)
        // And follows live again.
        let later = try await admin.patch("p003", in: "products", changes: ["subtitle": .text("nachher")])
        #expect(await received.next()?.number == later.change)
        #expect(later.change == first.change + 3)
        follower.cancel()
        try await follower.value
        #expect(await received.next() == nil)
        // The app was told: live, then retrying (twice: the broken stream, the refused connection),
        // then live again.
        let told = statuses.withLock { $0 }
        #expect(told.first == .live && told.last == .live && told.count == 4)
        #expect(told.dropFirst().dropLast().allSatisfy { if case .retrying = $0 { true } else { false } })
    }

    @Test func aDeletedCatalogEndsTheSequenceWithNotFound() async throws {
        let start = try await admin.record("p001", in: "products").change
        let follower = Task { [admin] () async -> CatalogClientError? in
            do {
                for try await _ in admin.changes(of: "products", since: start, options: Self.options()) {}
                return nil
            } catch let error as CatalogClientError {
                return error
            } catch {
                return CatalogClientError(.transport, "\(error)")
            }
        }
        try await streams(1)
        var request = URLRequest(url: live.url.appendingPathComponent("api/v1/catalogs/products"))
        request.httpMethod = "DELETE"
        request.setValue("Bearer \(live.adminToken)", forHTTPHeaderField: "Authorization")
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 204)
        let error = await follower.value
        #expect(error?.code == .notFound)
    }

    @Test func cancellingTheTaskEndsTheStreamAtOnce() async throws {
        let start = try await admin.record("p001", in: "products").change
        let gate = PauseGate()
        let follower = Task { [admin] in
            var count = 0
            for try await _ in admin.changes(of: "products", since: start, options: Self.options(gate)) { count += 1 }
            return count
        }
        try await streams(1)
        follower.cancel()
        #expect(try await follower.value == 0)
        #expect(gate.waitsReported == 0)
    }

    @Test func anUnknownCatalogEndsTheSequenceWithNotFound() async throws {
        do {
            for try await _ in admin.changes(of: "nope", since: 0, options: Self.options()) {}
            Issue.record("the sequence of a catalog that does not exist ended without an error")
        } catch {
            #expect(error.code == .notFound)
        }
    }

    @Test func reloadsArriveAsReloadsOnTheStream() async throws {
        let start = try await admin.changeLog(of: "cookbook", since: 0).change
        var changes = admin.changes(of: "cookbook", since: start, options: Self.options()).makeAsyncIterator()
        let importing = Task { [live] in
            try await streams(1)
            try live.importRecords([Record(id: "z1", title: "Zserbó")], into: "cookbook", locale: "hu")
        }
        let imported = try await changes.next()
        try await importing.value
        #expect(imported?.kind == .reload && imported?.number == start + 1)
    }

    @Test func aServerThatDoesNotStreamIsPolled() async throws {
        // A server that answers the stream's request with the JSON page, as one without the
        // event stream would.
        let asked = Mutex<[String?]>([])
        let responder = ClosureResponder { request, _ in
            asked.withLock { $0.append(request.headers["Accept"]) }
            let since = request.query.first { $0.name == "since" }.map { Int($0.value) ?? 0 } ?? 0
            let page =
                since == 0
                ? #"{"change":1,"changes":[{"number":1,"kind":"delete","id":"a","time":"2026-01-01T00:00:00Z"}],"next":null,"reload":false}"#
                : #"{"change":1,"changes":[],"next":null,"reload":false}"#
            return Response(
                status: .ok, headers: HTTPHeaders([("Content-Type", "application/json")]), body: Array(page.utf8))
        }
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 1
        let server = HTTPServer(configuration: configuration, responder: responder, log: { _ in })
        let port = try server.start()
        defer { server.shutdown() }
        let client = CatalogClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!, cache: .none)
        let gate = PauseGate()
        var options = Self.options(gate)
        options.transport = .events(pollingEvery: .milliseconds(10))
        var changes = client.changes(of: "old", since: 0, options: options).makeAsyncIterator()
        #expect(
            try await changes.next()
                == CatalogChange(number: 1, kind: .delete, id: "a", time: CatalogChange.date("2026-01-01T00:00:00Z")))
        let next = Task { try await changes.next() }
        // Caught up: it polls at the fallback interval.
        #expect(await gate.nextWait() == .milliseconds(10))
        next.cancel()
        _ = try? await next.value
        let accepts = asked.withLock { $0 }
        #expect(accepts.first == "text/event-stream")
        #expect(accepts.dropFirst().allSatisfy { $0 == "application/json" })
    }
}
