import CatalogTestSupport
import Foundation

/// Runs the built `catalog` binary in a temporary directory.
struct CLIRunner: Sendable {
    let directory: URL
    var database: String { directory.appendingPathComponent("catalog.sqlite").path }
    /// The accounts file beside the database.
    var usersDatabase: String { directory.appendingPathComponent("catalog-users.sqlite").path }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The `catalog` binary next to the test bundle.
    static var binary: URL { ServeProcess.binary }

    /// Runs `catalog` with `arguments` (plus `--db` unless `useDatabase` is false), feeding it
    /// `input` on standard input (else an empty standard input).
    @discardableResult
    func run(_ arguments: [String], useDatabase: Bool = true, input: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments + (useDatabase ? ["--db", database] : [])
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "CATALOG_DB")
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// How a run ended when its output went nowhere.
    struct Ending: Equatable {
        var reason: Process.TerminationReason
        var status: Int32
    }

    /// Runs `catalog` with `arguments` (plus `--db`) whose standard output and/or error is a pipe
    /// whose reader has already gone away, as after `| head -1`; standard error is read when it
    /// stays open.
    func runWithClosedOutput(_ arguments: [String], closeOutput: Bool = true, closeError: Bool = false) throws -> (
        ending: Ending, stderr: String
    ) {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments + ["--db", database]
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "CATALOG_DB")
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        if closeOutput { try out.fileHandleForReading.close() }
        if closeError { try err.fileHandleForReading.close() }
        try process.run()
        try? out.fileHandleForWriting.close()
        try? err.fileHandleForWriting.close()
        let stderr = closeError ? Data() : err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            Ending(reason: process.terminationReason, status: process.terminationStatus),
            String(decoding: stderr, as: UTF8.self)
        )
    }

    func write(_ name: String, _ text: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static func golden(_ name: String) throws -> String {
        let url = try #require(Bundle.module.url(forResource: "Golden/\(name)", withExtension: nil))
        return try String(contentsOf: url, encoding: .utf8)
    }
}

import Testing
