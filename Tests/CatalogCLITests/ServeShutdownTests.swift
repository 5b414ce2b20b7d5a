import CatalogTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `catalog serve` at SIGTERM while feeds stream: it stops accepting, answers every request
/// that reached it, ends the streams at a chunk boundary and exits.
@Suite struct ServeShutdownTests {
    @Test func sigtermAnswersEveryShortRequestWhileFeedsStream() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["generate", "--catalog", "big", "--items", "10000"]).status == 0)
        let server = try TwoServersTests.Server(database: cli.database, directory: cli.directory, name: "serve")
        defer { server.stop() }
        let port = server.port

        // Feeds that stream slowly: a small receive window, and only their first bytes read.
        var streams: [Int32] = []
        for _ in 0..<4 {
            let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var window: Int32 = 4096
            setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &window, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            try #require(connected == 0)
            RawClient.sendAll(Array("GET /catalogs/big/feed.xml HTTP/1.1\r\nHost: x\r\n\r\n".utf8), on: socket)
            var first = [UInt8](repeating: 0, count: 512)
            #expect(first.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) } > 0)
            streams.append(socket)
        }
        defer { streams.forEach { close($0) } }

        // Short requests, all sent before the signal; their answers are read after it.
        let sent = LockedLines()
        let answers = LockedLines()
        let threads = (0..<30).map { index in
            Thread {
                let client = RawClient(port: port)
                guard let socket = try? client.connect() else {
                    sent.append("not connected")
                    answers.append("not connected")
                    return
                }
                defer { close(socket) }
                let target = index % 2 == 0 ? "/api/v1/catalogs" : "/api/v1/catalogs/big/search?q=a\(index)"
                RawClient.sendAll(Array("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n".utf8), on: socket)
                sent.append("\(index)")
                let reply = RawClient.parse(client.readUntilClosed(socket, timeout: 30).bytes)
                let length = Int(reply.headers["content-length"] ?? "") ?? -1
                answers.append(
                    reply.status == 200 && length == reply.body.count
                        ? "complete" : "\(reply.status) \(reply.raw.count)")
            }
        }
        threads.forEach { $0.start() }
        #expect(sent.wait(forCount: 30), "every short request was sent")
        #expect(kill(server.process.processIdentifier, SIGTERM) == 0)
        #expect(answers.wait(forCount: 30), "every short request got an answer or a close")
        #expect(answers.lines == [String](repeating: "complete", count: 30), "\(answers.lines)")

        // The feeds end (closed at a chunk boundary), and the server exits cleanly.
        for socket in streams {
            let rest = RawClient(port: port).readUntilClosed(socket, timeout: 30)
            #expect(rest.closed, "the stream was ended")
        }
        server.process.waitUntilExit()
        #expect(server.process.terminationStatus == 0)
        let log = (try? String(contentsOf: server.log, encoding: .utf8)) ?? ""
        #expect(log.contains("catalog serve: stopped"), "\(log.suffix(500))")
    }
}
