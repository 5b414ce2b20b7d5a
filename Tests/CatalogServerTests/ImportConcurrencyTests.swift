import CatalogHTTP
import CatalogTestSupport
import Foundation
import Testing

@testable import CatalogServer

/// Imports through the API against a live server: they run off the workers, readers never wait
/// for them, and they stop (changing nothing) when the client goes away, when they take too long,
/// or when the server stops.
@Suite struct ImportConcurrencyTests {
    /// A live server for the fixture, configured like `catalog serve`.
    static func serve(_ fixture: ServerFixture) throws -> HTTPServer {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        fixture.application.configure(&configuration)
        let server = HTTPServer(configuration: configuration, responder: fixture.application.responder, log: { _ in })
        try server.start()
        return server
    }

    /// An SQLite file whose only table is a view that never ends.
    static func endlessView(in directory: URL) throws -> [UInt8] {
        let path = directory.appendingPathComponent("endless-\(UUID().uuidString).sqlite").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [
            path,
            "CREATE VIEW endless AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) "
                + "SELECT x AS id, 'Row ' || x AS title FROM n WHERE x < 0;",
        ]
        try process.run()
        process.waitUntilExit()
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func importRequest(_ catalog: String, token: String, format: String, body: [UInt8]) -> [UInt8] {
        Array(
            ("POST /api/v1/catalogs/\(catalog)/import?format=\(format) HTTP/1.1\r\nHost: localhost\r\n"
                + "Authorization: Bearer \(token)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n").utf8)
            + body
    }

    @Test func readersAreAnsweredWhileAnImportRuns() throws {
        let fixture = try ServerFixture { $0.maxUploadBytes = 64 << 20 }
        let server = try Self.serve(fixture)
        defer { server.shutdown() }
        let client = RawClient(port: server.port)
        // An import that never ends runs for certain while the reads are made, however loaded the
        // machine: the reads wait for the event "it is in flight", never for time.
        // Closed once, below: a second close would hit whatever descriptor the number went to
        // next (another test's database file, read as "disk I/O error").
        let socket = try client.connect()
        RawClient.sendAll(
            Self.importRequest(
                "endless", token: fixture.adminToken, format: "sqlite",
                body: try Self.endlessView(in: fixture.directory)),
            on: socket)
        #expect(waitUntil { server.requestsInFlight == 1 }, "the import is in flight")
        for _ in 0..<20 {
            let reply = try client.request("GET", "/api/v1/catalogs/cookbook/search?q=leves&limit=5")
            #expect(reply.status == 200)
        }
        #expect(server.requestsInFlight >= 1, "every read was answered while the import still ran")
        close(socket)

        // A large import through the API completes and is read at once.
        var csv = "id,title,description\n"
        for row in 0..<40_000 { csv += "r\(row),Lámpa \(row % 997) \(row),Leírás \(row)\n" }
        let reply = try client.exchangeUntilClosed(
            Self.importRequest("big", token: fixture.adminToken, format: "csv", body: Array(csv.utf8)), timeout: 300)
        #expect(RawClient.statuses(reply.bytes).first == 200)
        #expect(try client.request("GET", "/api/v1/catalogs/big").status == 200)
    }

    @Test func anImportStopsWhenItsClientGoesAway() throws {
        let fixture = try ServerFixture()
        let server = try Self.serve(fixture)
        defer { server.shutdown() }
        let client = RawClient(port: server.port)
        let body = try Self.endlessView(in: fixture.directory)
        let socket = try client.connect()
        RawClient.sendAll(
            Self.importRequest("endless", token: fixture.adminToken, format: "sqlite", body: body), on: socket)
        #expect(waitUntil { server.requestsInFlight == 1 }, "the import is in flight")
        close(socket)
        // The import lane is free again: a small import goes through soon after.
        let small = Array("id,title\nx1,Árpa\n".utf8)
        let started = Date()
        let reply = try client.exchangeUntilClosed(
            Self.importRequest("pantry", token: fixture.adminToken, format: "csv", body: small), timeout: 30)
        #expect(RawClient.statuses(reply.bytes).first == 200)
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(try client.request("GET", "/api/v1/catalogs/endless").status == 404)
    }

    @Test func anImportStopsAtItsTimeLimit() throws {
        let fixture = try ServerFixture { $0.importTimeout = .seconds(1) }
        let server = try Self.serve(fixture)
        defer { server.shutdown() }
        let client = RawClient(port: server.port)
        let body = try Self.endlessView(in: fixture.directory)
        let started = Date()
        let reply = RawClient.parse(
            try client.exchangeUntilClosed(
                Self.importRequest("endless", token: fixture.adminToken, format: "sqlite", body: body), timeout: 30
            ).bytes)
        #expect(reply.status == 503)
        #expect(reply.text.contains("import_timeout"))
        #expect(Date().timeIntervalSince(started) < 15)
        #expect(try client.request("GET", "/api/v1/catalogs/endless").status == 404)
    }

    @Test func stoppingTheServerStopsARunningImport() throws {
        let fixture = try ServerFixture()
        let server = try Self.serve(fixture)
        let client = RawClient(port: server.port)
        let body = try Self.endlessView(in: fixture.directory)
        let socket = try client.connect()
        defer { close(socket) }
        RawClient.sendAll(
            Self.importRequest("endless", token: fixture.adminToken, format: "sqlite", body: body), on: socket)
        #expect(waitUntil { server.requestsInFlight == 1 }, "the import is in flight")
        let started = Date()
        server.shutdown()
        #expect(Date().timeIntervalSince(started) < 12, "shutdown waited for an endless import")
    }
}
