import CatalogTestSupport
import Foundation
import Synchronization
import Testing

@testable import CatalogHTTP

/// Event streams against a live server on a loopback port: framing, heartbeats, caps, clients
/// that leave or fall behind, shutdown, and many quiet streams beside ordinary requests.
@Suite struct EventStreamServerTests {
    /// The streams the `/events` route made, in order and by the name in their `?n=`, and the
    /// reasons they closed.
    final class Streams: Sendable {
        private struct State {
            var streams: [EventStream] = []
            var named: [String: EventStream] = [:]
            var closed: [EventStream.CloseReason] = []
        }

        private let state = Mutex(State())

        func add(_ stream: EventStream, name: String?) {
            state.withLock {
                $0.streams.append(stream)
                if let name { $0.named[name] = stream }
            }
        }

        func named(_ name: String) -> EventStream? { state.withLock { $0.named[name] } }

        func closed(_ reason: EventStream.CloseReason) {
            state.withLock { $0.closed.append(reason) }
        }

        var count: Int { state.withLock { $0.streams.count } }
        var closeReasons: [EventStream.CloseReason] { state.withLock { $0.closed } }
        subscript(index: Int) -> EventStream { state.withLock { $0.streams[index] } }

        /// Waits until the route made stream number `index` and returns it.
        func wait(for index: Int) -> EventStream? {
            waitUntil { count > index } ? self[index] : nil
        }
    }

    /// A server with the middleware a real one has, and routes: `/events` (a stream the test
    /// feeds; `?limit=` sets its queue limit; a `Last-Event-ID` is sent back as a `resume` event),
    /// `/hello` (an ordinary answer).
    static func makeServer(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> (HTTPServer, Streams)
    {
        let streams = Streams()
        var routes = RouterBuilder()
        routes.get("/hello") { _, _ in .text("hello") }
        routes.get("/events") { request, _ in
            let stream = EventStream(queueLimit: request.query("limit").flatMap { Int($0) } ?? 256 * 1024)
            stream.onClose { streams.closed($0) }
            if let last = request.lastEventID { stream.send(event: "resume", data: last) }
            streams.add(stream, name: request.query("n"))
            return .eventStream(stream)
        }
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        configure(&configuration)
        let responder = routes.build().wrapped(in: [
            ErrorMiddleware(log: { _ in }), CompressionMiddleware(), ConditionalGetMiddleware(),
        ])
        let server = HTTPServer(configuration: configuration, responder: responder, log: { _ in })
        try server.start()
        return (server, streams)
    }

    @Test func eventsArriveInOrderWithTheirFraming() throws {
        let (server, streams) = try Self.makeServer()
        defer { server.shutdown() }
        let client = try EventStreamClient(
            port: server.port,
            headers: [("Last-Event-ID", "41"), ("Accept-Encoding", "gzip"), ("If-None-Match", "*")])
        #expect(client.readHead())
        #expect(client.status == 200)
        #expect(client.headers["content-type"] == "text/event-stream; charset=utf-8")
        #expect(client.headers["cache-control"] == "no-store")
        #expect(client.headers["x-accel-buffering"] == "no")
        #expect(client.headers["transfer-encoding"] == "chunked")
        #expect(client.headers["content-encoding"] == nil, "never compressed")
        #expect(client.headers["etag"] == nil, "never an ETag")
        #expect(client.headers["vary"] == nil)
        let stream = try #require(streams.wait(for: 0))
        #expect(client.nextEvent() == .event(id: nil, event: "resume", data: "41"), "the handler read Last-Event-ID")

        #expect(stream.send(id: "42", event: "change", data: "first"))
        #expect(stream.send(data: "two\nlines\r\nand\rthree\n"))
        #expect(stream.send(id: "4\n3", event: "x\r\ny", data: "z"))
        #expect(stream.comment("a note"))
        #expect(stream.send(data: String(repeating: "long ", count: 10_000)))
        #expect(client.nextEvent() == .event(id: "42", event: "change", data: "first"))
        #expect(client.nextEvent() == .event(id: nil, event: nil, data: "two\nlines\nand\nthree\n"))
        #expect(client.nextEvent() == .event(id: "43", event: "xy", data: "z"), "id and event stay one line")
        #expect(client.next() == .comment("a note"))
        #expect(client.nextEvent() == .event(id: nil, event: nil, data: String(repeating: "long ", count: 10_000)))
        #expect(server.openEventStreams == 1)

        stream.finish()
        #expect(!stream.send(data: "too late"))
        #expect(client.nextEvent() == .end, "the body ends with its last chunk")
        #expect(waitUntil { streams.closeReasons == [.finished] })
        #expect(waitUntil { server.openEventStreams == 0 })
        // The connection stays open for the next request.
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readHead())
        #expect(client.status == 200)
        #expect(client.readFixedBody() == Array("hello".utf8))
    }

    /// Producers on several threads race the reader as it suspends and resumes: no event is lost
    /// or stuck, and each producer's order holds. (The race itself, an event queued while the
    /// reader is suspending, is stepped through in EventStreamStateTests.)
    @Test func eventsFromManyThreadsAllArriveInTheirOrder() throws {
        let (server, streams) = try Self.makeServer()
        defer { server.shutdown() }
        let client = try EventStreamClient(port: server.port, path: "/events?limit=\(16 << 20)")
        #expect(client.readHead())
        let stream = try #require(streams.wait(for: 0))
        let producers = 4
        let perProducer = 2000
        for producer in 0..<producers {
            Thread {
                for number in 0..<perProducer {
                    stream.send(id: "\(producer).\(number)", data: "x")
                    // Now and then the producer gives way, so the reader suspends between bursts.
                    if number % 100 == 0 { sched_yield() }
                }
            }.start()
        }
        var next = Array(repeating: 0, count: producers)
        var received = 0
        while received < producers * perProducer {
            guard case .event(let id?, _, _) = client.nextEvent() else { break }
            let parts = id.split(separator: ".").compactMap { Int($0) }
            guard parts.count == 2, parts[1] == next[parts[0]] else { break }
            next[parts[0]] += 1
            received += 1
        }
        #expect(received == producers * perProducer, "every event, in each producer's order")
        // One at a time: each event finds the reader suspended, and must resume it itself (no
        // later event would rescue one that stayed behind).
        for round in 0..<2000 {
            stream.send(id: String(round), data: "ping")
            guard client.nextEvent() == .event(id: String(round), event: nil, data: "ping") else {
                Issue.record("round \(round) was not delivered")
                break
            }
        }
        #expect(server.core.eventStreams.suspensions.load(ordering: .relaxed) > 0)
    }

    @Test func quietStreamsGetHeartbeats() throws {
        let (server, streams) = try Self.makeServer { $0.heartbeatInterval = .milliseconds(20) }
        defer { server.shutdown() }
        let client = try EventStreamClient(port: server.port)
        #expect(client.readHead())
        let stream = try #require(streams.wait(for: 0))
        #expect(client.next() == .comment("keep-alive"))
        #expect(client.next() == .comment("keep-alive"))
        stream.send(id: "1", data: "between heartbeats")
        #expect(client.nextEvent() == .event(id: "1", event: nil, data: "between heartbeats"))
        #expect(client.next() == .comment("keep-alive"))
        #expect(server.core.eventStreams.ticks.load(ordering: .relaxed) >= 3)
    }

    @Test func capsPerClientAndInTotal() throws {
        let (server, streams) = try Self.makeServer {
            $0.maxEventStreams = 3
            $0.maxEventStreamsPerClient = 2
            $0.heartbeatInterval = .milliseconds(20)
        }
        defer { server.shutdown() }
        let first = try EventStreamClient(port: server.port, from: "127.0.0.1")
        let second = try EventStreamClient(port: server.port, from: "127.0.0.1")
        #expect(first.readHead() && second.readHead())
        #expect(first.status == 200 && second.status == 200)

        let third = try EventStreamClient(port: server.port, from: "127.0.0.1")
        #expect(third.readHead())
        #expect(third.status == 429, "the client has its two")
        #expect(third.headers["retry-after"] == "5")
        #expect(String(decoding: third.readFixedBody(), as: UTF8.self).contains("\"too_many_streams\""))
        #expect(waitUntil { streams.closeReasons == [.refused] }, "the refused stream's producer lets go")

        let other = try EventStreamClient(port: server.port, from: "127.0.0.2")
        #expect(other.readHead())
        #expect(other.status == 200, "another client has room")
        #expect(waitUntil { server.openEventStreams == 3 })

        let fourth = try EventStreamClient(port: server.port, from: "127.0.0.3")
        #expect(fourth.readHead())
        #expect(fourth.status == 503, "the server has its three")
        #expect(fourth.headers["retry-after"] == "5")

        // Once a client leaves, there is room again.
        first.close()
        #expect(waitUntil { server.openEventStreams == 2 })
        let fifth = try EventStreamClient(port: server.port, from: "127.0.0.3")
        #expect(fifth.readHead())
        #expect(fifth.status == 200)
        #expect(server.core.eventStreams.maxTotal == 3)
    }

    @Test func behindATrustedProxyTheCapCountsEachForwardedClient() throws {
        let loopback = try AddressRange("127.0.0.1/32")
        let (server, _) = try Self.makeServer {
            $0.maxEventStreamsPerClient = 1
            $0.heartbeatInterval = .milliseconds(20)
            $0.trustedProxies = [loopback]
        }
        defer { server.shutdown() }
        func open(for client: String) throws -> EventStreamClient {
            let stream = try EventStreamClient(
                port: server.port, headers: [("X-Forwarded-For", client)], from: "127.0.0.1")
            #expect(stream.readHead())
            return stream
        }
        let first = try open(for: "198.51.100.7")
        let other = try open(for: "203.0.113.9")
        let again = try open(for: "198.51.100.7")
        #expect(first.status == 200)
        #expect(other.status == 200, "another client behind the same proxy has room")
        #expect(again.status == 429, "the first client has its one")
    }

    @Test func aClientThatLeavesClosesItsStream() throws {
        let (server, streams) = try Self.makeServer { $0.heartbeatInterval = .milliseconds(20) }
        defer { server.shutdown() }
        let client = try EventStreamClient(port: server.port)
        #expect(client.readHead())
        let stream = try #require(streams.wait(for: 0))
        stream.send(data: "hello")
        #expect(client.nextEvent() == .event(id: nil, event: nil, data: "hello"))
        client.close()
        #expect(waitUntil { streams.closeReasons == [.clientGone] })
        #expect(stream.closeReason == .clientGone)
        #expect(!stream.send(data: "nobody listens"))
        #expect(waitUntil { server.openEventStreams == 0 })
    }

    @Test func aSlowReaderIsDisconnectedWhenItsQueueOverflows() throws {
        let (server, streams) = try Self.makeServer()
        defer { server.shutdown() }
        let client = try EventStreamClient(port: server.port, path: "/events?limit=65536", receiveBuffer: 4096)
        #expect(client.readHead())
        let stream = try #require(streams.wait(for: 0))
        // The client reads nothing more: the socket buffers fill, then the queue.
        let event = String(repeating: "x", count: 8192)
        var sent = 0
        while stream.send(id: String(sent), data: event), sent < 100_000 { sent += 1 }
        #expect(stream.closeReason == .fellBehind)
        #expect(stream.queuedBytes == 0, "the queue is dropped, not kept")
        #expect(waitUntil { streams.closeReasons == [.fellBehind] })
        #expect(waitUntil { server.openEventStreams == 0 })
        #expect(client.waitUntilClosed(), "the server closed the connection")
        // Everyone else is served.
        #expect(try RawClient(port: server.port).request("GET", "/hello").status == 200)
    }

    @Test func shutdownEndsOpenStreamsCleanly() throws {
        let (server, streams) = try Self.makeServer { $0.shutdownGrace = .seconds(120) }
        // One at a time, each stream made before the next client connects: `streams[i]` is then
        // `clients[i]`'s (two workers may take three connections in any order).
        var clients: [EventStreamClient] = []
        for count in 1...3 {
            clients.append(try EventStreamClient(port: server.port))
            #expect(clients[count - 1].readHead())
            #expect(waitUntil { server.openEventStreams == count })
        }
        streams[0].send(id: "1", data: "before the stop")
        // Heartbeats may come first on a machine slow to get here: they are skipped.
        #expect(clients[0].nextEvent() == .event(id: "1", event: nil, data: "before the stop"))
        let stopped = Gate()
        Thread {
            server.shutdown()
            stopped.open()
        }.start()
        for client in clients {
            #expect(client.nextEvent() == .end, "a clean end: the last chunk")
            #expect(client.waitUntilClosed(), "then the server closes the connection")
        }
        #expect(stopped.wait(timeout: 60), "the stop does not wait for the grace period")
        #expect(streams.closeReasons == Array(repeating: .serverStopping, count: 3))
        #expect(server.openEventStreams == 0)
        #expect(!streams[1].send(data: "after the stop"))
    }

    @Test func headGetsTheHeadersAndNoStream() throws {
        let (server, streams) = try Self.makeServer()
        defer { server.shutdown() }
        let client = try EventStreamClient(port: server.port, method: "HEAD")
        #expect(client.readHead())
        #expect(client.status == 200)
        #expect(client.headers["content-type"] == "text/event-stream; charset=utf-8")
        #expect(waitUntil { streams.closeReasons == [.refused] })
        #expect(server.openEventStreams == 0)
    }

    /// 250 streams on a server with two workers: none holds a worker (ordinary requests are
    /// answered), and while they are quiet nothing runs for them (their content reader is not
    /// called: a busy loop would call it thousands of times while the requests are answered).
    @Test func manyQuietStreamsHoldNoWorkerAndCostNothing() throws {
        let (server, streams) = try Self.makeServer { $0.maxEventStreamsPerClient = 100 }
        defer { server.shutdown() }
        let count = 250
        let sources = (2...6).map { "127.0.0.\($0)" }
        let clients = try (0..<count).map {
            try EventStreamClient(port: server.port, path: "/events?n=\($0)", from: sources[$0 % sources.count])
        }
        for client in clients { #expect(client.readHead() && client.status == 200) }
        let registry = server.core.eventStreams
        #expect(waitUntil { server.openEventStreams == count })
        #expect(waitUntil { registry.suspensions.load(ordering: .relaxed) >= count }, "every stream is suspended")

        let callsBefore = registry.readerCalls.load(ordering: .relaxed)
        let cpuBefore = Self.processCPUTime()
        var answered = 0
        for _ in 0..<50 where (try? RawClient(port: server.port).request("GET", "/hello").status) == 200 {
            answered += 1
        }
        #expect(answered == 50, "two workers answer beside \(count) open streams")
        #expect(registry.readerCalls.load(ordering: .relaxed) == callsBefore, "quiet streams are never polled")
        // Generous: 50 small requests take a few milliseconds; a busy loop takes whole cores.
        #expect(Self.processCPUTime() - cpuBefore < .seconds(20))

        for index in 0..<count {
            #expect(streams.named(String(index))?.send(id: String(index), data: "to \(index)") == true)
        }
        for (index, client) in clients.enumerated() {
            #expect(client.nextEvent() == .event(id: String(index), event: nil, data: "to \(index)"))
        }
        #expect(server.openEventStreams == count)
    }

    @Test func streamsNoServerTookStillCloseOnce() {
        let stream = EventStream()
        let reasons = Mutex<[EventStream.CloseReason]>([])
        stream.onClose { reason in reasons.withLock { $0.append(reason) } }
        #expect(stream.send(data: "queued"))
        stream.finish()
        stream.finish()
        #expect(reasons.withLock { $0 } == [.finished], "runs once, at once without a server")
        let late = Mutex<[EventStream.CloseReason]>([])
        stream.onClose { reason in late.withLock { $0.append(reason) } }
        #expect(late.withLock { $0 } == [.finished], "a handler set after the close runs too")
        let response = Response.eventStream(stream)
        #expect(response.headers["Content-Type"] == "text/event-stream; charset=utf-8")
        #expect(response.bytes == nil)
    }

    /// The process's CPU time, user and system.
    static func processCPUTime() -> Duration {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return .seconds(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + .microseconds(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
    }
}
