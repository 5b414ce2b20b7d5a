import Foundation

/// A deliberately simple HTTP client over a POSIX socket, so tests can send exactly the bytes
/// they mean, malformed ones included.
public struct RawClient: Sendable {
    public let port: Int

    /// A client for the server on `port` at 127.0.0.1.
    public init(port: Int) { self.port = port }

    public struct Reply {
        public var status: Int
        public var headers: [String: String]
        public var body: [UInt8]
        public var raw: [UInt8]

        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Opens a connection, sends `bytes`, reads until the server closes or `timeout` passes.
    public func exchange(_ bytes: [UInt8], timeout: Double = 5) throws -> [UInt8] {
        let socket = try connect()
        defer { close(socket) }
        Self.sendAll(bytes, on: socket)
        return readAll(socket, timeout: timeout)
    }

    /// Sends `bytes` on `socket` until they are all sent or the peer stops taking them.
    public static func sendAll(_ bytes: [UInt8], on socket: Int32) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            sent += n
        }
    }

    /// Opens a connection, sends `bytes`, and reads until the server closes or `timeout` passes.
    ///
    /// - Returns: what came back, and whether the server closed the connection (false: the
    ///   timeout passed with the connection still open).
    public func exchangeUntilClosed(_ bytes: [UInt8], timeout: Double = 5) throws -> (bytes: [UInt8], closed: Bool) {
        let socket = try connect()
        defer { close(socket) }
        Self.sendAll(bytes, on: socket)
        return readUntilClosed(socket, timeout: timeout)
    }

    /// Reads until the server closes the connection (true) or `timeout` passes (false).
    public func readUntilClosed(_ socket: Int32, timeout: Double) -> (bytes: [UInt8], closed: Bool) {
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if n == 0 { return (received, true) }
            if n < 0 { return (received, errno == ECONNRESET) }
            received.append(contentsOf: buffer[0..<n])
        }
    }

    /// The status codes of every response in `raw`, in order (status lines at the start of the
    /// data or right after a blank line).
    public static func statuses(_ raw: [UInt8]) -> [Int] {
        let text = String(decoding: raw, as: UTF8.self)
        var statuses: [Int] = []
        var rest = text[...]
        while let range = rest.range(of: "HTTP/1.") {
            let atStart = range.lowerBound == text.startIndex || text.utf8[..<range.lowerBound].last == 10
            let line = rest[range.lowerBound...].prefix { $0 != "\r" && $0 != "\n" }
            let parts = line.split(separator: " ")
            if atStart, parts.count > 1, let status = Int(parts[1]) { statuses.append(status) }
            rest = rest[range.upperBound...]
        }
        return statuses
    }

    /// A connection from `source` (a loopback address such as 127.0.0.2) to the server.
    public func connect(from source: String) throws -> Int32 {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            close(socket)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        return try connect(socket)
    }

    public func connect() throws -> Int32 {
        try connect(Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0))
    }

    private func connect(_ socket: Int32) throws -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(socket)
            throw POSIXError(.ECONNREFUSED)
        }
        return socket
    }

    /// Reads until the server closes the connection or `timeout` passes.
    public func readAll(_ socket: Int32, timeout: Double) -> [UInt8] {
        readUntilClosed(socket, timeout: timeout).bytes
    }

    /// Sends one request with `Connection: close` and parses the reply.
    public func request(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) throws -> Reply {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return Self.parse(try exchange(Array(head.utf8) + body))
    }

    public static func parse(_ raw: [UInt8]) -> Reply {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = raw.firstRange(of: separator) else { return Reply(status: 0, headers: [:], body: [], raw: raw) }
        let head = String(decoding: raw[..<end.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var body = Array(raw[end.upperBound...])
        if headers["transfer-encoding"] == "chunked" { body = dechunk(body) }
        return Reply(status: statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0, headers: headers, body: body, raw: raw)
    }

    public static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard let lineEnd = bytes[index...].firstRange(of: [13, 10]) else { break }
            let size = Int(String(decoding: bytes[index..<lineEnd.lowerBound], as: UTF8.self), radix: 16) ?? 0
            if size == 0 { break }
            let start = lineEnd.upperBound
            output.append(contentsOf: bytes[start..<min(start + size, bytes.count)])
            index = start + size + 2
        }
        return output
    }
}
