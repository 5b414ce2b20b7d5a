import CatalogConsole
import Foundation
import Synchronization

/// Writes one line per request to standard error:
/// `2026-11-29T18:00:00Z 127.0.0.1 GET /api/v1/catalogs 200 183 412us`.
///
/// Lines are written whole with one `write(2)` each (``StandardStream``, which never traps), under a
/// lock, so threads never interleave.
public final class AccessLog: Sendable {
    private let stream: StandardStream
    private let lock = Mutex(())

    /// A log writing to `descriptor` (standard error by default).
    public init(descriptor: Int32 = 2) {
        stream = StandardStream(descriptor: descriptor)
    }

    /// Writes a line (a newline is added). A log whose reader went away (a closed pipe) drops
    /// the line: the server keeps serving.
    public func write(_ line: String) {
        lock.withLock { _ in _ = stream.line(line) }
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
