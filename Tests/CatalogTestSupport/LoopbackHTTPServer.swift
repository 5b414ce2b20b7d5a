#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import Synchronization

/// A throwaway HTTP/1.1 responder on 127.0.0.1 (an ephemeral port) for fetcher, import and
/// refresh tests: one accept thread, one thread per connection, canned replies by path. Never
/// talks to anything but loopback.
public final class LoopbackHTTPServer: Sendable {
    /// What a path answers.
    public enum Reply: Sendable {
        /// A status line and a body.
        case status(Int, body: String)
        /// `302 Found` to another URL.
        case redirect(to: String)
        /// Accepts the connection, reads the request and never answers.
        case silence
        /// A 200 whose body is sent one byte every `interval` seconds.
        case trickle(String, interval: TimeInterval)
        /// A feed that can change, with an ETag and a Last-Modified, answering conditional GETs
        /// with 304 when it has not changed.
        case feed(LoopbackFeed)
        /// These bytes exactly, status line and headers included (then the connection closes).
        case raw(String)
        /// A status line and a body, after a pause.
        case delayed(TimeInterval, Int, body: String)
        /// Never answers, and counts the client closing the connection (``clientClosures``).
        case waitForClose
        /// Whatever the closure sends (status line and headers included), for hostile answers;
        /// the connection closes when it returns.
        case custom(@Sendable (LoopbackConnection) -> Void)
    }

    /// The port the server listens on.
    public let port: UInt16
    private let listener: Int32
    private let routes: [String: Reply]
    private let open = Mutex<Set<Int32>>([])
    private let requests = Mutex<[(path: String, headers: [String: String])]>([])
    private let closures = Mutex(0)

    /// How many clients closed a ``Reply/waitForClose`` connection.
    public var clientClosures: Int { closures.withLock { $0 } }

    /// `http://127.0.0.1:<port>`
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Paths requested so far.
    public var requestedPaths: [String] { requests.withLock { $0.map(\.path) } }

    /// The headers of each request so far (names lower-cased).
    public var requestHeaders: [[String: String]] { requests.withLock { $0.map(\.headers) } }

    /// Starts listening.
    public init(routes: [String: Reply]) throws {
        self.routes = routes
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.listener = fd
        self.port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Stops listening and ends every connection still open.
    ///
    /// Only `shutdown` here: the threads that use a descriptor close it themselves, so a number
    /// the kernel hands out again (to another test's socket) is never read, written or accepted
    /// on by this server.
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        for connection in open.withLock({ $0 }) {
            shutdown(connection, Int32(SHUT_RDWR))
        }
    }

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            open.withLock { _ = $0.insert(connection) }
            Thread.detachNewThread { [self] in
                serve(connection)
                finish(connection)
            }
        }
    }

    private func serve(_ connection: Int32) {
        var request: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while request.count < 65536, !request.ends(with: Array("\r\n\r\n".utf8)) {
            let n = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            request.append(contentsOf: chunk[0..<n])
        }
        let lines = String(decoding: request, as: UTF8.self).components(separatedBy: "\r\n")
        let path = lines.first?.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        requests.withLock { $0.append((path, headers)) }
        let response: String
        let route = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        switch routes[path] ?? routes[route] ?? .status(404, body: "not found") {
        case .silence:
            var byte: UInt8 = 0
            while recv(connection, &byte, 1, 0) > 0 {}  // until the client or stop() ends it
            return
        case .status(let code, let body):
            response = Self.response(code, body: body)
        case .redirect(let location):
            response = "HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        case .trickle(let body, let interval):
            let head = "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
            guard send(Array(head.utf8), on: connection) else { return }
            for byte in body.utf8 {
                Thread.sleep(forTimeInterval: interval)
                guard send([byte], on: connection) else { return }
            }
            return
        case .feed(let feed):
            response = feed.answer(ifNoneMatch: headers["if-none-match"], ifModifiedSince: headers["if-modified-since"])
        case .raw(let text):
            response = text
        case .waitForClose:
            var byte: UInt8 = 0
            while recv(connection, &byte, 1, 0) > 0 {}
            closures.withLock { $0 += 1 }
            return
        case .custom(let respond):
            respond(LoopbackConnection(descriptor: connection))
            return
        case .delayed(let pause, let code, let body):
            Thread.sleep(forTimeInterval: pause)
            response = Self.response(code, body: body)
        }
        _ = send(Array(response.utf8), on: connection)
    }

    static func response(_ code: Int, body: String, extra: String = "") -> String {
        "HTTP/1.1 \(code) Canned\r\nContent-Type: application/octet-stream\r\nContent-Length: \(body.utf8.count)\r\n"
            + extra + "Connection: close\r\n\r\n\(body)"
    }

    fileprivate static func send(_ bytes: [UInt8], on connection: Int32) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes {
                Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    private func send(_ bytes: [UInt8], on connection: Int32) -> Bool {
        Self.send(bytes, on: connection)
    }

    private func finish(_ connection: Int32) {
        open.withLock { _ = $0.remove(connection) }
        close(connection)
    }
}

/// The connection a ``LoopbackHTTPServer/Reply/custom(_:)`` answer writes to.
public struct LoopbackConnection: Sendable {
    fileprivate let descriptor: Int32

    /// Sends `bytes`; false once the client has gone away.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        LoopbackHTTPServer.send(bytes, on: descriptor)
    }

    /// Sends `text` as UTF-8; false once the client has gone away.
    @discardableResult
    public func send(_ text: String) -> Bool {
        send(Array(text.utf8))
    }

    /// Returns once the client closed the connection (or the server stopped).
    public func waitForClose() {
        var byte: UInt8 = 0
        while recv(descriptor, &byte, 1, 0) > 0 {}
    }
}

/// A feed served by ``LoopbackHTTPServer``: its body can change; each version has its own ETag
/// and Last-Modified, and a request that names the current ones gets 304.
public final class LoopbackFeed: Sendable {
    private struct Version {
        var body: String
        var number: Int
    }

    private let version: Mutex<Version>
    private let served = Mutex<(full: Int, notModified: Int)>((0, 0))

    /// A feed with `body` as its first version.
    public init(_ body: String) {
        version = Mutex(Version(body: body, number: 1))
    }

    /// Replaces the body: a new version, with a new ETag and Last-Modified.
    public func update(_ body: String) {
        version.withLock {
            $0.body = body
            $0.number += 1
        }
    }

    /// How many 200 and 304 answers were sent.
    public var answers: (full: Int, notModified: Int) { served.withLock { $0 } }

    func answer(ifNoneMatch: String?, ifModifiedSince: String?) -> String {
        let current = version.withLock { $0 }
        let etag = "\"v\(current.number)\""
        let lastModified = "Mon, 0\(min(current.number, 9)) Dec 2025 10:00:00 GMT"
        if ifNoneMatch == etag || (ifNoneMatch == nil && ifModifiedSince == lastModified) {
            served.withLock { $0.notModified += 1 }
            return "HTTP/1.1 304 Not Modified\r\nETag: \(etag)\r\nConnection: close\r\n\r\n"
        }
        served.withLock { $0.full += 1 }
        return LoopbackHTTPServer.response(
            200, body: current.body, extra: "ETag: \(etag)\r\nLast-Modified: \(lastModified)\r\n")
    }
}

extension Array where Element: Equatable {
    fileprivate func ends(with suffix: [Element]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}

/// A loopback port held by a bound socket that never listens: every connection to it is refused,
/// and no other test can take the port while this object lives.
public final class RefusingPort: Sendable {
    /// The port.
    public let port: UInt16
    private let socketDescriptor: Int32

    /// Binds an ephemeral port on 127.0.0.1 without listening.
    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        socketDescriptor = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    /// `http://127.0.0.1:<port>`
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    deinit { close(socketDescriptor) }
}
