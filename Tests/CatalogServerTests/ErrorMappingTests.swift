import CatalogEngines
import CatalogHTTP
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

@testable import CatalogServer

/// Every error a route can throw reaches the client the same way, decided in one place: each
/// storage code, each import code and a few HTTP errors are thrown from a route through the
/// server's real middleware chain, and the status, `error.code`, headers and body are what the
/// table says; no body carries SQL, a bound value, an engine code or a file path.
@Suite struct ErrorMappingTests {
    /// The statement, engine code and file every storage error below carries: none may reach a client.
    static let statement = "SELECT secret_column FROM items WHERE id = ?1"
    static let engineCode = "SQLITE 2067"
    static let file = "/srv/private/catalog.sqlite"
    static let leaks = ["SELECT", "secret_column", "SQLITE", "/srv/private", "catalog.sqlite"]

    struct StorageCase: Sendable, CustomTestStringConvertible {
        var code: StorageError.Code
        /// What the engine would say.
        var message: String
        var status: Int
        /// The JSON `error.code`; nil for the bare 500.
        var errorCode: String?
        var retryAfter: String? = nil
        /// Whether clients see the error's own message.
        var showsMessage = false
        var testDescription: String { "\(code)" }
    }

    static let storageCases: [StorageCase] = [
        StorageCase(
            code: .catalogNotFound, message: "no catalog named \"x\"", status: 404, errorCode: "not_found",
            showsMessage: true),
        StorageCase(
            code: .itemNotFound, message: "no item \"x\"", status: 404, errorCode: "not_found", showsMessage: true),
        StorageCase(
            code: .userNotFound, message: "no user named \"x\"", status: 404, errorCode: "not_found",
            showsMessage: true),
        StorageCase(
            code: .nameNotFound, message: "no scope \"x\"", status: 404, errorCode: "not_found", showsMessage: true),
        StorageCase(
            code: .invalidArgument, message: "invalid cursor", status: 400, errorCode: "bad_parameter",
            showsMessage: true),
        StorageCase(
            code: .constraint, message: "an item with id \"x\" already exists", status: 409, errorCode: "conflict",
            showsMessage: true),
        StorageCase(code: .busy, message: "database is locked", status: 503, errorCode: "busy", retryAfter: "1"),
        StorageCase(
            code: .cancelled, message: "the import was cancelled", status: 503, errorCode: "cancelled",
            showsMessage: true),
        StorageCase(
            code: .full, message: "the disk is full: cannot write \(file)", status: 507, errorCode: "disk_full"),
        StorageCase(
            code: .cannotOpen, message: "database error in \(file): file is not a database", status: 500,
            errorCode: nil),
        StorageCase(
            code: .engine, message: "database error: no such column: secret_column", status: 500, errorCode: nil),
    ]

    @Test func everyStorageCodeHasARow() {
        #expect(Set(Self.storageCases.map(\.code)) == Set(StorageError.Code.all))
        #expect(Self.storageCases.count == StorageError.Code.all.count)
    }

    @Test(arguments: storageCases)
    func storageErrorsAnswerByTheirCode(_ row: StorageCase) throws {
        let error = StorageError(row.code, row.message, engineCode: Self.engineCode, statement: Self.statement)
        let harness = try ErrorHarness(throwing: error)
        defer { harness.close() }

        let api = try harness.get("/api/v1/failing")
        #expect(api.status == row.status)
        #expect(api.errorCode == row.errorCode)
        #expect(api.response.headers["Retry-After"] == row.retryAfter)
        if row.showsMessage {
            #expect(api.message == row.message)
        } else {
            #expect(!api.text.contains(row.message), "the engine's words reach the client: \(api.text)")
        }
        if row.errorCode == nil {
            // The server's own failure: a bare 500, the details in the log only, once.
            #expect(api.text == "Internal Server Error\n")
            #expect(api.response.headers["Access-Control-Allow-Origin"] == nil)
            let lines = harness.logged()
            #expect(lines.count == 1)
            #expect(lines.first?.contains(Self.statement) == true, "\(lines)")
            #expect(lines.first?.contains(Self.engineCode) == true, "\(lines)")
        } else {
            #expect(api.response.headers["Content-Type"] == "application/json; charset=utf-8")
            #expect(api.response.headers["Access-Control-Allow-Origin"] == "*")
            #expect(harness.logged().isEmpty)
            for leak in Self.leaks { #expect(!api.text.contains(leak), "\(leak) in \(api.text)") }
        }

        // A web page answers with the same status, as a page that names no internals.
        let page = try harness.get("/failing")
        #expect(page.status == row.status)
        #expect(page.response.headers["Retry-After"] == row.retryAfter)
        for leak in Self.leaks + [row.message] { #expect(!page.text.contains(leak), "\(leak) in \(page.text)") }
        if row.errorCode != nil {
            #expect(page.response.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(page.text.contains("class=\"error-status\">\(row.status)<"), "\(page.text)")
        }
    }

    @Test func anEngineMessageIsForTheLogNotTheDescription() {
        let error = StorageError(.busy, "database is locked", engineCode: Self.engineCode, statement: Self.statement)
        #expect(error.description == "database is locked")
        #expect(error.debugDescription == "busy: database is locked [\(Self.engineCode)] in `\(Self.statement)`")
        #expect(error.fault == .io)
        #expect(StorageError.Code.invalidArgument.fault == .user)
        #expect(StorageError.Code.engine.fault == .internal)
    }

    @Test(arguments: ImportError.Code.allCases)
    func importErrorsAre422WithWhere(_ code: ImportError.Code) throws {
        let error = ImportError(
            code, "cannot read https://shop:s3cret@feeds.example/items.xml",
            at: SourceLocation(source: "upload", line: 12, column: 7), field: "price")
        let harness = try ErrorHarness(throwing: error)
        defer { harness.close() }
        let reply = try harness.get("/api/v1/failing")
        #expect(reply.status == 422)
        #expect(reply.errorCode == "import_failed")
        #expect(reply.message?.hasPrefix("upload:12:7: field \"price\": cannot read https://") == true, "\(reply.text)")
        #expect(!reply.text.contains("s3cret"))
        #expect(harness.logged().isEmpty)
    }

    struct HTTPCase: Sendable, CustomTestStringConvertible {
        var error: HTTPError
        var header: (name: String, value: String)? = nil
        var testDescription: String { "\(error.status.rawValue) \(error.code)" }
    }

    static let httpCases: [HTTPCase] = [
        HTTPCase(error: .badParameter("'limit' must be 1 to 500")),
        HTTPCase(error: .notFound("no such resource")),
        HTTPCase(
            error: HTTPError(
                .methodNotAllowed, code: "method_not_allowed", "use GET", headers: HTTPHeaders([("Allow", "GET")])),
            header: ("Allow", "GET")),
        HTTPCase(
            error: HTTPError(
                .tooManyRequests, code: "too_many_requests", "slow down",
                headers: HTTPHeaders([("Retry-After", "7")])),
            header: ("Retry-After", "7")),
        HTTPCase(error: HTTPError(.internalServerError, code: "io", "cannot store the upload")),
    ]

    @Test(arguments: httpCases)
    func httpErrorsAnswerAsThrown(_ row: HTTPCase) throws {
        let harness = try ErrorHarness(throwing: row.error)
        defer { harness.close() }
        let reply = try harness.get("/api/v1/failing")
        #expect(reply.status == row.error.status.rawValue)
        #expect(reply.errorCode == row.error.code)
        #expect(reply.message == row.error.message)
        if let header = row.header { #expect(reply.response.headers[header.name] == header.value) }
        #expect(reply.response.headers["Access-Control-Allow-Origin"] == "*")
        #expect(harness.logged().isEmpty)
    }

    struct Unexpected: Error, CustomDebugStringConvertible {
        var debugDescription: String { "Unexpected(/srv/private/state)" }
    }

    @Test func anyOtherErrorIsABare500WithALogLine() throws {
        let harness = try ErrorHarness(throwing: Unexpected())
        defer { harness.close() }
        let reply = try harness.get("/api/v1/failing")
        #expect(reply.status == 500)
        #expect(reply.text == "Internal Server Error\n")
        // The line names the request's id, which its answer carries.
        let id = try #require(reply.headers["X-Request-Id"])
        #expect(harness.logged() == ["error: request \(id) GET /api/v1/failing: Unexpected(/srv/private/state)"])
    }
}

/// A route that throws one error, inside the middleware ``CatalogApplication`` puts around its
/// router, over an empty database.
final class ErrorHarness: Sendable {
    let directory: URL
    let database: any CatalogDatabase
    let responder: any Responder

    init(throwing error: any Error & Sendable) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-errors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        database = try CatalogEngines.open(directory.appendingPathComponent("empty.sqlite").path)
        var routes = RouterBuilder()
        routes.get("/api/v1/failing") { _, _ in throw error }
        routes.get("/failing") { _, _ in throw error }
        let router = routes.build()
        let log = LockedLines()
        responder = router.wrapped(
            in: CatalogApplication.middleware(
                stores: database, router: router, accessLog: nil, errorLog: { log.append($0) }))
        self.log = log
    }

    private let log: LockedLines

    /// The error log's lines so far.
    func logged() -> [String] { log.lines }

    func get(_ target: String) throws -> ServerFixture.Reply {
        let request = try #require(Request(method: .get, target: target, headers: HTTPHeaders([])))
        return ServerFixture.Reply(response: try responder.respond(to: request, context: RequestContext()))
    }

    func close() {
        database.close()
        try? FileManager.default.removeItem(at: directory)
    }
}

extension ServerFixture.Reply {
    /// The JSON `error.message`.
    var message: String? { (object["error"] as? [String: Any])?["message"] as? String }
}
