import Foundation
import Synchronization
import CatalogTestSupport
import Testing

@testable import CatalogHTTP

/// A live server on a loopback port, talking real HTTP.
@Suite struct HTTPServerTests {
    final class Numbers: ResponseBodyStream {
        var next = 0
        let count: Int
        init(count: Int) { self.count = count }
        func nextChunk() throws -> [UInt8]? {
            guard next < count else { return nil }
            defer { next += 1 }
            return Array("line \(next)\n".utf8)
        }
    }

    /// The `/slow` route's gates: a request that reaches it opens `entered`, and is answered once
    /// `release` is open (at once unless a test holds it).
    struct SlowRoute: Sendable {
        let entered = Gate()
        let release = Gate()

        /// Gates whose `release` is already open.
        static var open: SlowRoute {
            let route = SlowRoute()
            route.release.open()
            return route
        }
    }

    static func makeServer(
        slow: SlowRoute = .open, _ configure: (inout ServerConfiguration) -> Void = { _ in }
    ) throws -> HTTPServer {
        var routes = RouterBuilder()
        routes.get("/hello") { _, _ in .text("hello") }
        routes.get("/big") { _, _ in
            Response(
                status: .ok, headers: HTTPHeaders([("Content-Type", "application/json")]),
                body: Array(String(repeating: "[\"Gulyásleves\",1234567890]", count: 400).utf8))
        }
        routes.on(.post, "/echo") { request, _ in Response(status: .ok, body: request.body) }
        routes.get("/stream") { _, _ in
            Response(status: .ok, headers: HTTPHeaders([("Content-Type", "text/plain")])) { Numbers(count: 20000) }
        }
        routes.get("/slow") { _, _ in
            slow.entered.open()
            slow.release.wait()
            return .text("done")
        }
        routes.get("/boom") { _, _ in throw CocoaError(.fileNoSuchFile) }
        routes.get("/count") { request, _ in .text("\(request.query.count)") }
        routes.get("/client") { request, _ in .text("\(request.client.address) \(request.client.scheme)") }
        routes.get("/segments/{rest...}") { _, context in .text(context.remainder.joined(separator: "|")) }
        routes.get("/header") { _, _ in
            Response(status: .ok, headers: HTTPHeaders([("X-Bad", "a\r\nSet-Cookie: x=1")]), body: [])
        }
        let router = routes.build()
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        configure(&configuration)
        let responder = router.wrapped(in: [
            ErrorMiddleware(log: { _ in }), CompressionMiddleware(), ConditionalGetMiddleware(),
        ])
        let server = HTTPServer(configuration: configuration, responder: responder, log: { _ in })
        try server.start()
        return server
    }

    @Test func servesAndKeepsConnectionsAlive() throws {
        let server = try Self.makeServer()
        defer { server.shutdown() }
        let client = RawClient(port: server.port)
        let socket = try client.connect()
        defer { close(socket) }
        let two = "GET /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        _ = Array(two.utf8).withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
        let raw = String(decoding: client.readAll(socket, timeout: 3), as: UTF8.self)
        #expect(raw.components(separatedBy: "HTTP/1.1 200").count == 3)
        #expect(!raw.prefix(200).lowercased().contains("connection: close"))
    }

    @Test func notFoundAndMethodNotAllowed() throws {
        let server = try Self.makeServer()
        defer { server.shutdown() }
        let client = RawClient(port: server.port)
        let missing = try client.request("GET", "/missing")
        #expect(missing.status == 404)
        #expect(missing.text.contains("\"code\":\"not_found\""))
        let wrong = try client.request("DELETE", "/hello")
        #expect(wrong.status == 405)
        #expect(wrong.headers["allow"] == "GET, HEAD")
    }

    @Test func bodiesUpToTheLimit() throws {
        let server = try Self.makeServer { $0.maxBodyBytes = 1000 }
        defer { server.shutdown() }
        let client = RawClient(port: server.port)
        let echo = try client.request("POST", "/echo", body: Array(repeating: 65, count: 1000))
        #expect(echo.status == 200)
        #expect(echo.body.count == 1000)
        let announced = try client.request("POST", "/echo", body: Array(repeating: 65, count: 1001))
        #expect(announced.status == 413)
        // Chunked, with no length announced: refused once it grows past the limit.
        let chunk = String(repeating: "B", count: 600)
        let chunked =
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            + "258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n0\r\n\r\n"
        #expect(RawClient.parse(try client.exchange(Array(chunked.utf8))).status == 413)
    }

    @Test func oversizedHeadersAndRequestLines() throws {
        let server = try Self.makeServer()
        defer { server.shutdown() }
        let client = RawClient(port: server.port)
        let header = try client.request(
            "GET", "/hello", headers: [("X-Huge", String(repeating: "h", count: 64 * 1024))])
        #expect([413, 431].contains(header.status))
        let line = try client.request("GET", "/hello?" + String(repeating: "q", count: 64 * 1024))
        #expect([413, 414, 431].contains(line.status))
        // The server still answers afterwards.
        #expect(try client.request("GET", "/hello").status == 200)
    }

    @Test func manyQueryParametersAlwaysGetAnAnswer() throws {
        let server = try Self.makeServer()
        defer { server.shutdown() }
        let client = RawClient(port: server.port)
        func query(_ count: Int, _ piece: (Int) -> String) -> String {
            "/count?" + (0..<count).map(piece).joined(separator: "&")
        }
        // Up to the limit, every parameter arrives, even with the request line near its own limit.
        let long = String(repeating: "v", count: 40)
        let atLimit = try client.request("GET", query(256) { "k\($0)=\(long)" })
        #expect(atLimit.status == 200)
        #expect(atLimit.text == "256")
        // Past it (distinct, repeated, long, empty), a 400 naming the limit: never a closed connection.
        let cases = [
            query(257) { "k\($0)=1" }, query(800) { "k\($0)=1" }, query(5000) { _ in "a" },
            query(800) { _ in "q=1" }, query(300) { "\(String(repeating: "k", count: 40))\($0)" },
            "/count?" + String(repeating: "&", count: 8000),
        ]
        for target in cases {
            let reply = try client.request("GET", target)
            #expect(reply.status == 400, "\(target.utf8.count) bytes")
            #expect(reply.headers["content-type"]?.hasPrefix("application/json") == true)
            #expect(reply.text.contains("\"too_many_parameters\""), "\(reply.text)")
            #expect(reply.text.contains("at most 256 query parameters"), "\(reply.text)")
        }
        // Past the request line's limit, a 414, however many parameters.
        let huge = try client.request("GET", query(5000) { "k\($0)=1" })
        #expect(huge.status == 414)
        let enormous = try client.request("GET", query(100_000) { "k\($0)=1" })
        #expect(enormous.status == 414)
        #expect(try client.request("GET", "/count?a=1&b=2").text == "2")
    }

    @Test(arguments: [
        "GARBAGE\r\n\r\n", "GET\r\n\r\n", "GET /hello HTTP/9.9\r\nHost: x\r\n\r\n",
        "GET /hello HTTP/1.1\r\nBad Header\r\n\r\n",
        "GET /a%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "\u{0}\u{1}\u{2}\r\n\r\n",
    ])
    func malformedRequestsGet4xx(_ text: String) throws {
        let server = try Self.makeServer()
        defer { server.shutdown() }
        let reply = RawClient.parse(try RawClient(port: server.port).exchange(Array(text.utf8), timeout: 3))
        #expect(reply.status == 0 || (400..<500).contains(reply.status) || reply.status == 505)
        #expect(try RawClient(port: server.port).request("GET", "/hello").status == 200)
    }

    @Test func etagGzipAndStreaming() throws {
        let server = try Self.makeServer()
        defer { server.shutdown() }
        let client = RawClient(port: server.port)
        let plain = try client.request("GET", "/big")
        let etag = try #require(plain.headers["etag"])
        #expect(try client.request("GET", "/big", headers: [("If-None-Match", etag)]).status == 304)
        let zipped = try client.request("GET", "/big", headers: [("Accept-Encoding", "gzip")])
        #expect(zipped.headers["content-encoding"] == "gzip")
        #expect(zipped.body.count < plain.body.count / 5)
        let stream = try client.request("GET", "/stream")
        #expect(stream.headers["transfer-encoding"] == "chunked")
        let lines = stream.text.split(separator: "\n")
        #expect(lines.count == 20000)
        #expect(lines.last == "line 19999")
    }

    @Test func errorsAndUnsafeHeaders() throws {
        let server = try Self.makeServer()
        defer { server.shutdown() }
        let client = RawClient(port: server.port)
        let boom = try client.request("GET", "/boom")
        #expect(boom.status == 500)
        #expect(boom.text == "Internal Server Error\n")
        let header = try client.request("GET", "/header")
        #expect(header.status == 200)
        #expect(header.headers["set-cookie"] == nil)
        #expect(header.headers["x-bad"] == nil)
    }

    @Test func encodedSlashesStayInTheirSegment() throws {
        let server = try Self.makeServer()
        defer { server.shutdown() }
        let reply = try RawClient(port: server.port).request("GET", "/segments/a%2F..%2Fb/c")
        #expect(reply.text == "a/../b|c")
    }

    @Test func shutdownFinishesRequestsInFlight() throws {
        let slow = SlowRoute()
        let server = try Self.makeServer(slow: slow)
        let port = server.port
        let result = LockedLines()
        Thread {
            let reply = try? RawClient(port: port).request("GET", "/slow")
            result.append(reply?.text ?? "failed")
        }.start()
        #expect(slow.entered.wait())
        let stopped = Gate()
        Thread {
            server.shutdown()
            stopped.open()
        }.start()
        // Shutdown has begun (no new connections), and waits for the request in flight.
        #expect(waitUntil { server.core.stopping.load(ordering: .acquiring) })
        #expect(!stopped.opened)
        slow.release.open()
        #expect(stopped.wait())
        #expect(result.wait(forCount: 1))
        #expect(result.lines == ["done"])
        #expect(throws: (any Error).self) { try RawClient(port: port).request("GET", "/hello") }
    }

    @Test func idleClientsAreDisconnected() throws {
        let server = try Self.makeServer {
            $0.connectionTimeout = 1
            $0.threads = 1
        }
        defer { server.shutdown() }
        let client = RawClient(port: server.port)
        let slow = try client.connect()
        defer { close(slow) }
        _ = Array("GET /hello HTTP/1.1\r\nHo".utf8).withUnsafeBytes { send(slow, $0.baseAddress, $0.count, 0) }
        // The single worker still answers others while the slow client dawdles.
        #expect(try client.request("GET", "/hello").status == 200)
        let started = Date()
        let leftover = client.readAll(slow, timeout: 5)
        #expect(Date().timeIntervalSince(started) < 4)
        #expect(leftover.isEmpty || RawClient.parse(leftover).status >= 400)
    }

    /// With two connections held open, a third gets no answer. (The total cap is tested with busy
    /// connections in SlowClientTests: idle ones make room for new clients.)
    static func expectThirdConnectionRefused(_ server: HTTPServer) throws {
        let client = RawClient(port: server.port)
        let held = [try client.connect(), try client.connect()]
        defer { held.forEach { close($0) } }
        #expect(waitUntil { server.core.connections.openCount == 2 })
        let extra = try client.connect()
        defer { close(extra) }
        _ = Array("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n".utf8).withUnsafeBytes {
            send(extra, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        #expect(client.readAll(extra, timeout: 2).isEmpty)
    }

    @Test func perAddressConnectionLimit() throws {
        let server = try Self.makeServer { $0.perIPConnectionLimit = 2 }
        defer { server.shutdown() }
        try Self.expectThirdConnectionRefused(server)
    }

    @Test func portInUseIsAClearError() throws {
        let server = try Self.makeServer()
        defer { server.shutdown() }
        var configuration = ServerConfiguration()
        configuration.port = server.port
        let second = HTTPServer(
            configuration: configuration, responder: ClosureResponder { _, _ in .text("") }, log: { _ in })
        #expect(throws: HTTPServerError.self) { try second.start() }
    }
}
