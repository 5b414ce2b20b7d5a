import CatalogTestSupport
import Foundation
import Testing

/// `catalog serve` as a process: ready line, requests, a user's token, and a clean stop on SIGTERM.
@Suite(.serialized) struct ServeCommandTests {
    /// Starts `catalog serve --port 0` and waits for its "listening on" line.
    static func start(_ runner: CLIRunner, _ extra: [String] = []) throws -> (Process, Int, Pipe) {
        let process = Process()
        process.executableURL = CLIRunner.binary
        process.arguments = ["serve", "--port", "0", "--db", runner.database] + extra
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        var line = ""
        while !line.hasSuffix("\n") {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty { break }
            line += String(decoding: byte, as: UTF8.self)
        }
        let port = Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
        #expect(line.hasPrefix("listening on http://127.0.0.1:"))
        return (process, port, err)
    }

    @Test func servesAndStopsCleanly() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        #expect(try runner.run(["demo"]).status == 0)
        let token = try runner.run(["user", "add", "mari"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let (process, port, err) = try Self.start(runner)
        let client = RawClient(port: port)
        #expect(try client.request("GET", "/api/v1/catalogs").status == 200)
        #expect(try client.request("GET", "/gethots").status == 200)
        #expect(try client.request("PUT", "/api/v1/favorites/cookbook/r01").status == 401)
        let added = try client.request(
            "PUT", "/api/v1/favorites/cookbook/r01", headers: [("Authorization", "Bearer \(token)")])
        #expect(added.status == 204)
        let listed = try client.request("GET", "/api/v1/favorites", headers: [("Authorization", "Bearer \(token)")])
        #expect(listed.text.contains("\"item\":\"r01\""))
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("GET /api/v1/catalogs 200 "))
        #expect(log.contains("catalog serve: stopped"))
    }

    @Test func missingDatabaseIsAClearError() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let result = try runner.run(["serve", "--port", "0"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no database at"))
    }

    @Test func badOptions() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        #expect(try runner.run(["demo"]).status == 0)
        #expect(try runner.run(["serve", "--port", "70000"]).status == 64)
        #expect(
            try runner.run(["serve", "--host", "not-an-address", "--port", "0"]).stderr.contains(
                "not an IPv4 or IPv6 address"))
        #expect(try runner.run(["serve", "--images", "/nonexistent"]).status == 64)
    }
}
