#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import Synchronization

/// A throwaway HTTP/1.1 responder on 127.0.0.1 (an ephemeral port) for fetcher tests: one
/// accept thread, one thread per connection, canned replies by path. Never talks to anything but
/// loopback.
final class LoopbackHTTPServer: Sendable {
    /// What a path answers.
    enum Reply: Sendable {
        /// A status line and a body.
        case status(Int, body: String)
        /// `302 Found` to another URL.
        case redirect(to: String)
        /// Accepts the connection, reads the request and never answers.
        case silence
    }

    /// The port the server listens on.
    let port: UInt16
    private let listener: Int32
    private let routes: [String: Reply]
    private let open = Mutex<Set<Int32>>([])
    private let requests = Mutex<[String]>([])

    /// `http://127.0.0.1:<port>`
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Paths requested so far.
    var requestedPaths: [String] { requests.withLock { $0 } }

    init(routes: [String: Reply]) throws {
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

    /// Stops listening and closes every connection still open.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        let connections = open.withLock { set in
            defer { set.removeAll() }
            return set
        }
        for connection in connections {
            shutdown(connection, Int32(SHUT_RDWR))
            close(connection)
        }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            open.withLock { _ = $0.insert(connection) }
            Thread.detachNewThread { [self] in serve(connection) }
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
        let line = String(decoding: request.prefix { $0 != 0x0D }, as: UTF8.self)
        let path = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        requests.withLock { $0.append(path) }
        let response: String
        switch routes[path] ?? .status(404, body: "not found") {
        case .silence:
            return  // stop() closes it
        case .status(let code, let body):
            response =
                "HTTP/1.1 \(code) Canned\r\nContent-Type: application/octet-stream\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        case .redirect(let location):
            response = "HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        }
        let bytes = Array(response.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            sent += n
        }
        let mine = open.withLock { $0.remove(connection) != nil }
        if mine { close(connection) }
    }
}

extension Array where Element: Equatable {
    fileprivate func ends(with suffix: [Element]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
