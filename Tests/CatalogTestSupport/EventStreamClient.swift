import Foundation

/// A Server-Sent Events client over a raw socket (FoundationNetworking on Linux has no bytes API
/// for URLSession): sends one GET, reads the head, then takes the chunked body apart and parses
/// the events in it as a browser's `EventSource` does (fields, comments, multi-line data).
///
/// Reads block until something arrives; `timeout` only bounds how long a failing test waits.
public final class EventStreamClient {
    /// What the stream delivered next.
    public enum Item: Equatable, CustomStringConvertible {
        case event(id: String?, event: String?, data: String)
        case comment(String)
        /// The last chunk: the body ended cleanly.
        case end
        /// The connection closed (or was reset) before the last chunk.
        case closed
        /// Nothing arrived within the timeout.
        case timedOut

        public var description: String {
            switch self {
            case .event(let id, let event, let data): "event(id: \(id ?? "nil"), event: \(event ?? "nil"), \(data))"
            case .comment(let text): "comment(\(text))"
            case .end: "end"
            case .closed: "closed"
            case .timedOut: "timed out"
            }
        }
    }

    public let socket: Int32
    public private(set) var status = 0
    public private(set) var headers: [String: String] = [:]
    /// Bytes received and not yet taken apart.
    private var raw: [UInt8] = []
    /// Body bytes (chunk framing removed) not yet split into lines.
    private var body: [UInt8] = []
    private var chunkRemaining = 0
    private var ended = false
    private var closed = false
    /// Seconds a read, or a wait for an event, may take.
    private let timeout: Double
    /// The fields of the event being read.
    private var id: String?
    private var event: String?
    private var data: [String] = []

    /// Connects (from `source`, a loopback address, when given) and sends
    /// `GET path` with `Accept: text/event-stream` and `headers`.
    ///
    /// - Parameter receiveBuffer: a small receive buffer makes a client that does not read fall
    ///   behind quickly.
    public init(
        port: Int, path: String = "/events", headers: [(String, String)] = [], from source: String? = nil,
        method: String = "GET", receiveBuffer: Int32? = nil, timeout: Double = 60
    ) throws {
        let client = RawClient(port: port)
        if let receiveBuffer {
            let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var size = receiveBuffer
            setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
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
                Foundation.close(socket)
                throw POSIXError(.ECONNREFUSED)
            }
            self.socket = socket
        } else if let source {
            socket = try client.connect(from: source)
        } else {
            socket = try client.connect()
        }
        self.timeout = timeout
        var tv = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var head = "\(method) \(path) HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        RawClient.sendAll(Array((head + "\r\n").utf8), on: socket)
    }

    deinit {
        close()
    }

    /// Closes the connection (again: nothing).
    public func close() {
        guard !closed else { return }
        closed = true
        Foundation.close(socket)
    }

    /// Reads the status line and headers; false when the connection closed first.
    @discardableResult
    public func readHead() -> Bool {
        while true {
            if let end = raw.firstRange(of: [13, 10, 13, 10]) {
                let text = String(decoding: raw[..<end.lowerBound], as: UTF8.self)
                raw.removeSubrange(..<end.upperBound)
                headers = [:]
                var lines = text.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ")
                status = statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0
                for line in lines {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                        .trimmingCharacters(in: .whitespaces)
                }
                return true
            }
            guard receive() else { return false }
        }
    }

    /// The body of a response with a `Content-Length`, after ``readHead()``.
    public func readFixedBody() -> [UInt8] {
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while raw.count < length, receive() {}
        defer { raw.removeSubrange(..<min(length, raw.count)) }
        return Array(raw.prefix(length))
    }

    /// Sends more bytes on the connection (a next request).
    public func send(_ text: String) {
        RawClient.sendAll(Array(text.utf8), on: socket)
    }

    /// The next event, comment or end.
    public func next() -> Item {
        while true {
            if let item = parseLine() { return item }
            if ended { return .end }
            if decodeChunk() { continue }
            guard receive() else { return lastFailure }
        }
    }

    /// The next event, skipping comments (heartbeats); `.timedOut` when none came within the
    /// timeout, even while heartbeats kept coming (a stream that never gets its event fails the
    /// test instead of hanging it).
    public func nextEvent() -> Item {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while true {
            let item = next()
            if case .comment = item {
                if ContinuousClock.now >= deadline { return .timedOut }
                continue
            }
            return item
        }
    }

    /// Reads until the server closes the connection; true when it did (false: timed out).
    public func waitUntilClosed() -> Bool {
        while receive() {}
        return lastFailure == .closed
    }

    private var lastFailure = Item.closed

    /// Receives more bytes into `raw`; false when the connection closed or the timeout passed.
    private func receive() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            raw.append(contentsOf: buffer[0..<count])
            return true
        }
        let timedOut = count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
        lastFailure = timedOut ? .timedOut : .closed
        return false
    }

    /// Moves chunk data from `raw` to `body`; false when more bytes are needed.
    private func decodeChunk() -> Bool {
        if chunkRemaining > 0 {
            guard !raw.isEmpty else { return false }
            let count = min(chunkRemaining, raw.count)
            body.append(contentsOf: raw[..<count])
            raw.removeSubrange(..<count)
            chunkRemaining -= count
            if chunkRemaining == 0 { chunkRemaining = -1 }  // its CR LF follows
            return true
        }
        if chunkRemaining < 0 {
            guard raw.count >= 2 else { return false }
            raw.removeSubrange(..<2)
            chunkRemaining = 0
            return true
        }
        guard let lineEnd = raw.firstRange(of: [13, 10]) else { return false }
        let size = Int(String(decoding: raw[..<lineEnd.lowerBound], as: UTF8.self), radix: 16) ?? 0
        if size == 0 {
            // The last chunk, then an empty trailer line.
            guard raw.count >= lineEnd.upperBound + 2 else { return false }
            raw.removeSubrange(..<(lineEnd.upperBound + 2))
            ended = true
            return true
        }
        raw.removeSubrange(..<lineEnd.upperBound)
        chunkRemaining = size
        return true
    }

    /// Takes one line off `body` and applies it; returns an item when one is complete.
    private func parseLine() -> Item? {
        while let index = body.firstIndex(where: { $0 == 10 || $0 == 13 }) {
            var lineEnd = index + 1
            if body[index] == 13 {
                guard index + 1 < body.count else { return nil }
                if body[index + 1] == 10 { lineEnd += 1 }
            }
            let line = String(decoding: body[..<index], as: UTF8.self)
            body.removeSubrange(..<lineEnd)
            if line.isEmpty {
                guard id != nil || event != nil || !data.isEmpty else { continue }
                defer {
                    id = nil
                    event = nil
                    data = []
                }
                return .event(id: id, event: event, data: data.joined(separator: "\n"))
            }
            var name = Substring(line)
            var value = Substring("")
            if let colon = line.firstIndex(of: ":") {
                name = line[..<colon]
                value = line[line.index(after: colon)...]
                if value.first == " " { value = value.dropFirst() }
            }
            switch name {
            case "": return .comment(String(value))
            case "id": id = String(value)
            case "event": event = String(value)
            case "data": data.append(String(value))
            default: break
            }
        }
        return nil
    }
}
