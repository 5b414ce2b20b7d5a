import CatalogTestSupport
import Foundation
import Synchronization
import Testing

@testable import CatalogHTTP

/// Slow and many clients against a live server: a request head has a deadline however steadily
/// it trickles, and idle or slow connections make room for new clients near the connection cap.
@Suite(.serialized) struct SlowClientTests {
    /// Sends `text` on `socket` without waiting.
    static func send(_ socket: Int32, _ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { Foundation.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// A normal client's request on a fresh connection, answered within `timeout` seconds.
    static func served(_ port: Int, timeout: Double = 2) -> Bool {
        guard
            let reply = try? RawClient(port: port).exchange(
                Array("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8), timeout: timeout)
        else { return false }
        return RawClient.parse(reply).status == 200
    }

    @Test func aTricklingHeadIsClosedAtItsDeadline() throws {
        let server = try HTTPServerTests.makeServer {
            $0.headerTimeout = .seconds(1)
            $0.connectionTimeout = 30
        }
        defer { server.shutdown() }
        let client = RawClient(port: server.port)
        let slow = try client.connect()
        defer { close(slow) }
        let started = ContinuousClock.now
        Self.send(slow, "GET /hello HTTP/1.1\r\nX-Slow: ")
        // One byte every 200 ms: libmicrohttpd's idle timeout alone would never fire.
        var closed = false
        while ContinuousClock.now - started < .seconds(4) {
            usleep(200_000)
            let sent = Array("a".utf8).withUnsafeBytes { Foundation.send(slow, $0.baseAddress, 1, Int32(MSG_NOSIGNAL)) }
            var byte: UInt8 = 0
            let peek = recv(slow, &byte, 1, Int32(MSG_DONTWAIT))
            if sent < 0 || peek == 0 {
                closed = true
                break
            }
        }
        let elapsed = ContinuousClock.now - started
        #expect(closed, "still open after 4 s")
        #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(3), "closed after \(elapsed)")
        // A keep-alive connection that finished a request gets the same deadline for its next one.
        let idle = try client.connect()
        defer { close(idle) }
        Self.send(idle, "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let (raw, closedIdle) = client.readUntilClosed(idle, timeout: 4)
        #expect(RawClient.statuses(raw) == [200])
        #expect(closedIdle, "an idle keep-alive connection is closed after the header deadline")
    }

    @Test func aTricklingBodyGets408AtItsDeadline() throws {
        let server = try HTTPServerTests.makeServer {
            $0.bodyTimeout = .seconds(1)
            $0.connectionTimeout = 30
        }
        defer { server.shutdown() }
        let client = RawClient(port: server.port)
        let slow = try client.connect()
        defer { close(slow) }
        Self.send(slow, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
        let started = ContinuousClock.now
        // One byte every 100 ms, never silent for long: only the body's own deadline ends it. The
        // client stops sending as soon as the server has answered.
        var answered = false
        for _ in 0..<60 {
            var ready = pollfd(fd: slow, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, 100) > 0 {
                answered = true
                break
            }
            _ = Array("a".utf8).withUnsafeBytes { Foundation.send(slow, $0.baseAddress, 1, Int32(MSG_NOSIGNAL)) }
        }
        let elapsed = ContinuousClock.now - started
        #expect(answered, "no answer while the body trickled for 6 s")
        let (raw, closed) = client.readUntilClosed(slow, timeout: 5)
        #expect(RawClient.statuses(raw) == [408])
        #expect(String(decoding: raw, as: UTF8.self).contains("body_timeout"))
        #expect(closed, "the connection is closed after the 408")
        #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(4), "answered after \(elapsed)")
        #expect(server.core.connections.closedBodyLate.load(ordering: .relaxed) == 1)
        // A body that arrives in time is answered as before.
        #expect(Self.served(server.port))
        let echo = try client.exchange(
            Array("POST /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 2\r\n\r\nhi".utf8))
        #expect(RawClient.parse(echo).text == "hi")
    }

    /// Opens `count` connections spread over `sources`, sending `text` on each.
    static func open(_ count: Int, from sources: [String], port: Int, sending text: String?) -> [Int32] {
        let client = RawClient(port: port)
        var sockets: [Int32] = []
        for index in 0..<count {
            guard let socket = try? client.connect(from: sources[index % sources.count]) else { continue }
            if let text { send(socket, text) }
            sockets.append(socket)
        }
        return sockets
    }

    @Test func aNormalClientIsServedBeside1100TricklingConnections() throws {
        let server = try HTTPServerTests.makeServer {
            $0.connectionLimit = 1024
            $0.perIPConnectionLimit = 256
            $0.headerTimeout = .seconds(10)
        }
        defer { server.shutdown() }
        let sources = (2...6).map { "127.0.0.\($0)" }
        let tricklers = Self.open(1100, from: sources, port: server.port, sending: "GET /hello HTTP/1.1\r\nX-")
        defer { tricklers.forEach { close($0) } }
        #expect(tricklers.count == 1100)
        #expect(waitUntil { server.core.connections.openedCount >= 1100 })
        var served = 0
        let started = ContinuousClock.now
        for round in 0..<10 {
            if Self.served(server.port) { served += 1 }
            if round == 4 {
                // The tricklers' next byte (every 5 s in the attack; once here, to stay quick).
                for socket in tricklers { Self.send(socket, "a") }
            }
        }
        #expect(served == 10, "served \(served) of 10 within 2 s each")
        #expect(ContinuousClock.now - started < .seconds(8))
        #expect(server.core.connections.closedForRoom.load(ordering: .relaxed) > 0)
    }

    @Test func aNormalClientIsServedBeside2000IdleConnections() throws {
        let server = try HTTPServerTests.makeServer {
            $0.connectionLimit = 1024
            $0.perIPConnectionLimit = 256
        }
        defer { server.shutdown() }
        let sources = (2...9).map { "127.0.0.\($0)" }
        let idle = Self.open(2000, from: sources, port: server.port, sending: nil)
        defer { idle.forEach { close($0) } }
        #expect(idle.count == 2000)
        #expect(waitUntil { server.core.connections.openedCount >= 2000 })
        var served = 0
        for _ in 0..<10 where Self.served(server.port) { served += 1 }
        #expect(served == 10, "served \(served) of 10 within 2 s each")
    }

    @Test func busyConnectionsAreNeverClosedToMakeRoom() throws {
        let server = try HTTPServerTests.makeServer {
            $0.connectionLimit = 4
            $0.threads = 1
        }
        defer { server.shutdown() }
        let client = RawClient(port: server.port)
        // Four uploads in progress: their heads are in, so they are busy, not waiting.
        var uploads: [Int32] = []
        for _ in 0..<4 {
            let socket = try client.connect()
            Self.send(socket, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nhello")
            uploads.append(socket)
            #expect(waitUntil { server.core.connections.busyCount == uploads.count })
        }
        defer { uploads.forEach { close($0) } }
        #expect(!Self.served(server.port, timeout: 1), "no room: the cap holds")
        for socket in uploads { Self.send(socket, "world") }
        for socket in uploads {
            let (raw, _) = client.readUntilClosed(socket, timeout: 0.5)
            #expect(RawClient.parse(raw).text == "helloworld")
        }
    }

    @Test func idleConnectionsMakeRoomForNewOnes() throws {
        let server = try HTTPServerTests.makeServer {
            $0.connectionLimit = 4
            $0.threads = 1
        }
        defer { server.shutdown() }
        let idle = Self.open(6, from: ["127.0.0.1"], port: server.port, sending: nil)
        defer { idle.forEach { close($0) } }
        #expect(waitUntil { server.core.connections.openedCount >= 6 })
        #expect(Self.served(server.port))
        #expect(Self.served(server.port))
    }

    @Test func theFileLimitIsRaisedForTheConnections() {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        let wanted = min(Int(limit.rlim_max), 5000)
        #expect(FileDescriptorLimit.connectionLimit(wanted - FileDescriptorLimit.reserve, log: { _ in }) > 0)
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        #expect(Int(limit.rlim_cur) >= wanted)
    }
}
