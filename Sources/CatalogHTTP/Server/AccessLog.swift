import CatalogConsole
import CatalogJSON
import Foundation
import Synchronization

/// Writes one line per request to standard error, as text
/// (`2026-11-29T18:00:00Z 127.0.0.1 GET /api/v1/catalogs 200 183 412us`) or as a JSON object per
/// line (``Format/json``, written by ``ObservationMiddleware``).
///
/// Lines are written whole with one `write(2)` each (``StandardStream``, which never traps), under a
/// lock, so threads never interleave.
public final class AccessLog: Sendable {
    /// How lines are written.
    public enum Format: String, Sendable, CaseIterable {
        /// `time client METHOD path status bytes 412us`.
        case text
        /// One JSON object per line: `time`, `request_id`, `client`, `method`, `route`, `path`,
        /// `status`, `bytes`, `duration_us`, `user` (and `error` for an unexpected failure).
        case json
    }

    /// How lines are written.
    public let format: Format
    private let sink: @Sendable (String) -> Void

    /// A log writing to `descriptor` (standard error by default).
    public init(descriptor: Int32 = 2, format: Format = .text) {
        let stream = StandardStream(descriptor: descriptor)
        let lock = Mutex(())
        self.format = format
        sink = { line in lock.withLock { _ in _ = stream.line(line) } }
    }

    /// A log handing each line (without its newline) to `sink`, for tests.
    public init(format: Format, sink: @escaping @Sendable (String) -> Void) {
        self.format = format
        self.sink = sink
    }

    /// Writes a line (a newline is added). A log whose reader went away (a closed pipe) drops
    /// the line: the server keeps serving.
    public func write(_ line: String) {
        sink(line)
    }

    /// Writes one request's line in the log's format.
    func write(_ entry: AccessLogEntry) {
        switch format {
        case .text:
            write(
                "\(Self.timestamp()) \(entry.client) \(entry.method) \(AccessLogMiddleware.printable(entry.path)) "
                    + "\(entry.status) \(entry.bytes.map(String.init) ?? "-") \(entry.micros)us"
                    + (entry.error.map { " error: " + AccessLogMiddleware.printable($0) } ?? ""))
        case .json:
            var output = JSONOutput(capacity: 256)
            output.object { object in
                object.string("time", Self.timestamp())
                object.string("request_id", entry.requestID)
                object.string("client", entry.client)
                object.string("method", entry.method)
                object.string("route", entry.route)
                object.string("path", entry.path)
                object.integer("status", entry.status)
                object.integer("bytes", entry.bytes)
                object.integer("duration_us", entry.micros)
                object.string("user", entry.user)
                if let error = entry.error { object.string("error", error) }
            }
            write(String(decoding: output.bytes, as: UTF8.self))
        }
    }

    /// The current time as `YYYY-MM-DDTHH:MM:SSZ`.
    static func timestamp() -> String {
        var seconds = time(nil)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}

/// Logs every request: client, method, target, status, body bytes (`-` when streamed) and the
/// microseconds the handler took.
public struct AccessLogMiddleware: Middleware {
    let log: AccessLog

    /// Creates the middleware writing to `log`.
    public init(log: AccessLog) {
        self.log = log
    }

    public func respond(to request: Request, context: RequestContext, next: any Responder) throws -> Response {
        let start = ContinuousClock.now
        var status = "500"
        var size = "-"
        defer {
            let elapsed = ContinuousClock.now - start
            let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
            log.write(
                "\(AccessLog.timestamp()) \(request.clientAddress) \(request.method.rawValue) "
                    + "\(Self.printable(request.rawPath)) \(status) \(size) \(micros)us")
        }
        let response = try next.respond(to: request, context: context)
        status = String(response.status.rawValue)
        if let bytes = response.bytes { size = String(bytes.count) }
        if case .file(let file) = response.body { size = String(file.length) }
        return response
    }

    /// The path with control characters and spaces escaped, so a request cannot forge log lines.
    static func printable(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x21 || scalar.value == 0x7F || scalar == "\"" || scalar == "\\" {
                output += "\\x" + String(scalar.value, radix: 16)
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}

/// What one request's log line says. Never a token, password, cookie or query string: the path
/// is the target without its query, the user a name.
struct AccessLogEntry {
    var requestID: String
    var client: String
    var method: String
    /// The route pattern; nil when no route matched.
    var route: String?
    var path: String
    var status: Int
    /// Body bytes; nil when streamed.
    var bytes: Int?
    var micros: Int
    var user: String?
    var error: String?
}
