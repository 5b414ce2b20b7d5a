import CatalogTestSupport
import Foundation
import Testing

@testable import CatalogHTTP

/// Request framing against a live server: whatever a proxy in front of us might read
/// differently is refused, answered once, and its connection closed (RFC 9112 §6.3).
@Suite struct HTTPFramingTests {
    /// Sends `text`, reads until the server closes (at most 3 s), and checks there was exactly
    /// one answer, with `status`, and that the server closed the connection itself.
    func expectRefusedAndClosed(
        _ text: String, _ status: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let server = try HTTPServerTests.makeServer()
        defer { server.shutdown() }
        let started = ContinuousClock.now
        let (raw, closed) = try RawClient(port: server.port).exchangeUntilClosed(Array(text.utf8), timeout: 3)
        #expect(
            RawClient.statuses(raw) == [status], "\(String(decoding: raw, as: UTF8.self))",
            sourceLocation: sourceLocation)
        #expect(closed, "the connection stayed open", sourceLocation: sourceLocation)
        #expect(ContinuousClock.now - started < .seconds(2), sourceLocation: sourceLocation)
        let reply = RawClient.parse(raw)
        #expect(reply.headers["connection"]?.lowercased() == "close", sourceLocation: sourceLocation)
        // The server is fine afterwards.
        #expect(try RawClient(port: server.port).request("GET", "/hello").status == 200, sourceLocation: sourceLocation)
    }

    /// The smuggled request after the body must never be answered.
    static let smuggled = "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n"

    @Test func contentLengthAndTransferEncodingTogetherAre400() throws {
        let body = "0\r\n\r\n" + Self.smuggled
        try expectRefusedAndClosed(
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\nTransfer-Encoding: chunked\r\n\r\n"
                + body, 400)
        try expectRefusedAndClosed(
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n" + body, 400)
    }

    @Test func differingContentLengthsAre400() throws {
        try expectRefusedAndClosed(
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: \(5 + Self.smuggled.utf8.count)\r\n\r\n"
                + "hello" + Self.smuggled, 400)
    }

    @Test func transferEncodingOnHTTP10Is400() throws {
        try expectRefusedAndClosed(
            "POST /echo HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n" + Self.smuggled, 400)
    }

    @Test func unknownTransferCodingIs501AtOnce() throws {
        try expectRefusedAndClosed(
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: xchunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", 501)
        try expectRefusedAndClosed("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501)
    }

    @Test func aNulInTheTargetIs400() throws {
        // libmicrohttpd would serve this as /hello.
        try expectRefusedAndClosed("GET /hello\u{0}/../x HTTP/1.1\r\nHost: x\r\n\r\n", 400)
        try expectRefusedAndClosed("GET /hello?a=1\u{0}b HTTP/1.1\r\nHost: x\r\n\r\n", 400)
        try expectRefusedAndClosed("GET /hel lo HTTP/1.1\r\nHost: x\r\n\r\n", 400)
        try expectRefusedAndClosed("GET /hello?\u{1}=x HTTP/1.1\r\nHost: x\r\n\r\n", 400)
    }

    @Test func missingOrMalformedHostIs400() throws {
        try expectRefusedAndClosed("GET /hello HTTP/1.1\r\n\r\n", 400)
        try expectRefusedAndClosed("GET /hello HTTP/1.1\r\nHost : x\r\n\r\n", 400)
        try expectRefusedAndClosed("GET /hello HTTP/1.1\r\nHost: x\r\nHost : y\r\n\r\n", 400)
        try expectRefusedAndClosed("GET /hello HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400)
    }

    /// Sends a request whose line and headers are exactly `size` bytes.
    static func head(ofSize size: Int) -> [UInt8] {
        let start = "GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Pad: "
        let end = "\r\n\r\n"
        return Array((start + String(repeating: "a", count: size - start.utf8.count - end.utf8.count) + end).utf8)
    }

    @Test func everyHeadOverTheLimitGets431() throws {
        let server = try HTTPServerTests.makeServer()
        defer { server.shutdown() }
        let client = RawClient(port: server.port)
        let limit = ServerConfiguration().maxHeaderBytes
        #expect(RawClient.parse(try client.exchange(Self.head(ofSize: limit), timeout: 3)).status == 200)
        // Around the limit byte by byte, then up to and past the memory each connection has.
        let sizes =
            Array(limit - 8...limit + 8) + Array(stride(from: 15_000, through: 17_000, by: 37))
            + Array(stride(from: 17_000, through: 44_000, by: 211))
        var silent: [Int] = []
        for size in sizes {
            let (raw, _) = try client.exchangeUntilClosed(Self.head(ofSize: size), timeout: 3)
            let status = RawClient.parse(raw).status
            if status == 0 { silent.append(size) }
            #expect(status == (size <= limit ? 200 : 431), "\(size) bytes: \(status)")
        }
        #expect(silent.isEmpty, "closed without an answer at \(silent)")
    }

    @Test func aLongRequestLineGets414() throws {
        let server = try HTTPServerTests.makeServer()
        defer { server.shutdown() }
        let target = "/hello?" + String(repeating: "q", count: 20_000)
        let reply = RawClient.parse(
            try RawClient(port: server.port).exchange(
                Array("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n".utf8), timeout: 3))
        #expect(reply.status == 414)
    }

    @Test func headOfAStreamedResponseSendsNoBody() throws {
        let server = try HTTPServerTests.makeServer()
        defer { server.shutdown() }
        let two = "HEAD /stream HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        let (raw, _) = try RawClient(port: server.port).exchangeUntilClosed(Array(two.utf8), timeout: 3)
        let text = String(decoding: raw, as: UTF8.self)
        let firstEnd = try #require(text.range(of: "\r\n\r\n"))
        // The second answer starts right after the first one's headers: no chunk terminator between.
        #expect(text[firstEnd.upperBound...].hasPrefix("HTTP/1.1 200"), "\(text)")
        #expect(text.hasSuffix("hello"))
        #expect(RawClient.statuses(raw) == [200, 200])
    }
}
