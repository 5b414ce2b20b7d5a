import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A `catalog serve` process of the built binary on a loopback port it picks, for tests that run
/// several servers on one database, or kill one: started, ready once it said where it listens,
/// stopped (`SIGTERM`) or killed (`SIGKILL`) and waited for.
///
/// ```swift
/// let server = try ServeProcess(database: location, log: directory.appendingPathComponent("a.log"))
/// let reply = try server.client.request("GET", "/api/v1/catalogs")
/// server.kill()
/// ```
public final class ServeProcess: Sendable {
    /// The port it listens on.
    public let port: Int
    /// Its standard error (the access log unless `--quiet`, and every error it logged).
    public let log: URL
    private let process: Process

    /// The `catalog` binary the tests were built with (beside the test bundle).
    public static let binary: URL = {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = url.appendingPathComponent("catalog")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            url.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/catalog")
    }()

    /// Starts `catalog serve --port PORT --db database` with `arguments` after them and waits
    /// until it prints its "listening on" line (at most `timeout` seconds: then it is killed).
    ///
    /// - Parameters:
    ///   - port: 0 for one it picks; a server started again on the port of one killed gets its
    ///     clients back.
    ///   - environment: variables added to the test's environment (`CATALOG_LOG_FORMAT`).
    /// - Throws: when it exits or stays silent before it listens.
    public init(
        database: String, port: Int = 0, arguments: [String] = [], environment extra: [String: String] = [:],
        log: URL, timeout: TimeInterval = 120
    ) throws {
        self.log = log
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process = Process()
        process.executableURL = Self.binary
        process.arguments = ["serve", "--host", "127.0.0.1", "--port", "\(port)", "--db", database] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "CATALOG_DB")
        environment.merge(extra) { $1 }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // The line arrives on a thread of its own, so a server that never prints it is waited for
        // no longer than the timeout; that thread then reads the rest, so nothing the server
        // prints later can fill the pipe and stall it.
        let listening = Gate()
        let line = LockedLines()
        let reader = output.fileHandleForReading
        Thread.detachNewThread {
            var text = ""
            while !text.hasSuffix("\n") {
                let byte = reader.readData(ofLength: 1)
                if byte.isEmpty { break }
                text += String(decoding: byte, as: UTF8.self)
            }
            line.append(text)
            listening.open()
            while !reader.readData(ofLength: 4096).isEmpty {}
        }
        let said = listening.wait(timeout: timeout) ? line.lines.first ?? "" : ""
        guard said.hasPrefix("listening on "),
            let port = Int(said.split(separator: ":").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
        else {
            if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let errors = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw ServeProcessError(message: "catalog serve did not start: \(said) \(errors.suffix(2000))")
        }
        self.port = port
    }

    /// A loopback port nothing listens on now (bound, then released).
    public static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
            }
        }
        guard bound else { throw ServeProcessError(message: "no free loopback port (errno \(errno))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A client of its port.
    public var client: RawClient { RawClient(port: port) }

    /// Whether it still runs.
    public var isRunning: Bool { process.isRunning }

    /// `kill -9`: it ends at once, with whatever it was doing; returns when it has.
    public func kill() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// `SIGTERM`: it stops cleanly; returns when it has.
    public func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    deinit {
        kill()
    }

    /// Runs another command of the binary (`catalog ARGUMENTS`) to its end; its exit status and
    /// standard output, standard error added to the output when it failed.
    @discardableResult
    public static func run(_ arguments: [String], input: String? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "CATALOG_DB")
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        // Standard error is read beside standard output, so neither pipe can fill and stall it.
        let printed = LockedLines()
        let errorReader = errors.fileHandleForReading
        Thread.detachNewThread {
            printed.append(String(decoding: errorReader.readDataToEndOfFile(), as: UTF8.self))
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        printed.wait(forCount: 1)
        let status = process.terminationStatus
        return (status, status == 0 ? text : text + printed.lines.joined())
    }

    /// Fills the database at `location` with the demo catalogs and adds the administrator `ada`;
    /// returns ada's token.
    ///
    /// - Throws: when either command fails, with what it printed.
    public static func demoWithAdministrator(at location: String) throws -> String {
        let demo = try run(["demo", "--db", location])
        guard demo.status == 0 else { throw ServeProcessError(message: "catalog demo: \(demo.output)") }
        let user = try run(["user", "add", "ada", "--admin", "--db", location])
        guard user.status == 0 else { throw ServeProcessError(message: "catalog user add: \(user.output)") }
        return user.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Why a ``ServeProcess`` could not start.
public struct ServeProcessError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }

    public init(message: String) { self.message = message }
}
