import CatalogTestSupport
import Testing

@testable import CatalogHTTP

@Suite struct RouterTests {
    static func router() -> Router {
        var routes = RouterBuilder()
        routes.get("/api/v1/catalogs") { _, _ in .text("list") }
        routes.get("/api/v1/catalogs/{id}") { _, context in
            .text("catalog \(try context.require("id", as: String.self))")
        }
        routes.get("/api/v1/catalogs/special") { _, _ in .text("special") }
        routes.get("/api/v1/catalogs/{id}/items/{item}") { _, context in
            .text("\(try context.require("id", as: String.self))/\(try context.require("item", as: String.self))")
        }
        routes.on(.put, "/api/v1/favorites/{catalog}/{item}") { _, _ in Response(status: .noContent) }
        routes.on(.delete, "/api/v1/favorites/{catalog}/{item}") { _, _ in Response(status: .noContent) }
        routes.get("/images/{path...}") { _, context in .text(context.remainder.joined(separator: "|")) }
        return routes.build()
    }

    func text(_ method: HTTPMethod, _ target: String) throws -> String {
        let response = try Self.router().respond(
            to: Request(method: method, target: target)!, context: RequestContext())
        return String(decoding: response.bytes ?? [], as: UTF8.self)
    }

    @Test func matchesLiteralsAndParameters() throws {
        #expect(try text(.get, "/api/v1/catalogs") == "list")
        #expect(try text(.get, "/api/v1/catalogs/products") == "catalog products")
        #expect(try text(.get, "/api/v1/catalogs/special") == "special")
        #expect(try text(.get, "/api/v1/catalogs/products/items/a%20b") == "products/a b")
    }

    @Test func remainderKeepsDecodedSegmentsApart() throws {
        #expect(try text(.get, "/images/demo/flags/de.svg") == "demo|flags|de.svg")
        // An encoded slash stays inside its segment: handlers can see and refuse it.
        #expect(try text(.get, "/images/demo%2F..%2Fsecret") == "demo/../secret")
    }

    /// A way that fails further down leaves no parameter behind for the way that matched; a name
    /// used twice in a pattern has its later segment.
    @Test func parametersAreThoseOfTheWayThatMatched() throws {
        var routes = RouterBuilder()
        routes.get("/x/{a}/y") { _, context in .text("a=\(context.parameters["a"] ?? "-")") }
        routes.get("/x/{rest...}") { _, context in
            .text("a=\(context.parameters["a"] ?? "-") rest=\(context.parameters["rest"] ?? "-")")
        }
        routes.get("/r/{n}/s/{n}") { _, context in .text("n=\(context.parameters["n"] ?? "-")") }
        let router = routes.build()
        func text(_ target: String) throws -> String {
            let response = try router.respond(to: Request(method: .get, target: target)!, context: RequestContext())
            return String(decoding: response.bytes ?? [], as: UTF8.self)
        }
        #expect(try text("/x/1/y") == "a=1")
        #expect(try text("/x/1/z") == "a=- rest=1/z")
        #expect(try text("/r/1/s/2") == "n=2")
    }

    @Test func headRunsGet() throws {
        #expect(try text(.head, "/api/v1/catalogs") == "list")
    }

    @Test func wrongMethodIs405WithAllow() throws {
        let request = Request(method: .post, target: "/api/v1/favorites/a/b")!
        #expect {
            try Self.router().respond(to: request, context: RequestContext())
        } throws: { error in
            guard let error = error as? HTTPError else { return false }
            return error.status == .methodNotAllowed && error.headers["Allow"] == "DELETE, PUT"
        }
    }

    @Test func unknownPathIs404() throws {
        #expect(throws: HTTPError.self) {
            try Self.router().respond(to: Request(method: .get, target: "/nope")!, context: RequestContext())
        }
    }

    @Test func allowedMethodsForPreflight() {
        #expect(Self.router().allowedMethods(segments: ["api", "v1", "favorites", "c", "i"]) == [.delete, .put])
        #expect(Self.router().allowedMethods(segments: ["api", "v1", "catalogs"]) == [.get, .head])
        #expect(Self.router().allowedMethods(segments: ["missing"]).isEmpty)
    }

    @Test(arguments: ["/a%zz", "/a%0", "/a%00b", "/x?q=%ff", "/%C3"])
    func malformedTargetsAreRefused(_ target: String) {
        #expect(Request(method: .get, target: target) == nil)
    }

    @Test func queryDecoding() {
        let request = Request(method: .get, target: "/s?q=caf%C3%A9+au+lait&scope=Apple%26Win&empty=&flag")!
        #expect(request.query("q") == "café au lait")
        #expect(request.query("scope") == "Apple&Win")
        #expect(request.query("empty") == "")
        #expect(request.query("flag") == "")
        #expect(request.query("missing") == nil)
    }
}

@Suite struct LifecycleTests {
    @Test func startStopOrder() {
        var lifecycle = ServerLifecycle()
        #expect(lifecycle.start() == .startDaemon)
        #expect(lifecycle.start() == .refuse("the server is already running"))
        lifecycle.started(true)
        #expect(lifecycle.stop() == .stopAccepting)
        #expect(lifecycle.stop() == .none)
        lifecycle.drained()
        #expect(lifecycle.state == .stopped)
        #expect(lifecycle.start() == .refuse("a stopped server cannot start again"))
    }

    @Test func failedStartCanRetry() {
        var lifecycle = ServerLifecycle()
        _ = lifecycle.start()
        lifecycle.started(false)
        #expect(lifecycle.start() == .startDaemon)
    }

    @Test func stopBeforeStart() {
        var lifecycle = ServerLifecycle()
        #expect(lifecycle.stop() == .markStopped)
        #expect(lifecycle.state == .stopped)
    }

    @Test func theDrainClosesOnlyOnceNothingIsLeftForSeveralLooks() {
        var drain = ServerLifecycle.Drain()
        #expect(drain.looked(inFlight: 2, unreadBytes: false, pastDeadline: false) == .wait, "requests in flight")
        #expect(drain.looked(inFlight: 0, unreadBytes: false, pastDeadline: false) == .wait)
        #expect(drain.looked(inFlight: 0, unreadBytes: true, pastDeadline: false) == .wait, "a request not read yet")
        #expect(drain.looked(inFlight: 0, unreadBytes: false, pastDeadline: false) == .wait, "counting starts again")
        #expect(drain.looked(inFlight: 0, unreadBytes: false, pastDeadline: false) == .wait)
        #expect(drain.looked(inFlight: 0, unreadBytes: false, pastDeadline: false) == .close)
        var late = ServerLifecycle.Drain()
        #expect(late.looked(inFlight: 5, unreadBytes: true, pastDeadline: true) == .close, "the grace period is over")
    }
}

@Suite struct MiddlewareTests {
    struct Fixed: Responder {
        var response: Response
        func respond(to request: Request, context: RequestContext) throws -> Response { response }
    }

    @Test func etagAnd304() throws {
        let body = Array("{\"a\":1}".utf8)
        let responder = Fixed(
            response: Response(status: .ok, headers: HTTPHeaders([("Content-Type", "application/json")]), body: body)
        )
        .wrapped(in: [ConditionalGetMiddleware()])
        let first = try responder.respond(to: Request(method: .get, target: "/")!, context: RequestContext())
        let etag = try #require(first.headers["ETag"])
        #expect(first.headers["Cache-Control"] == "no-cache")
        var request = Request(method: .get, target: "/")!
        request.headers["If-None-Match"] = "\"other\", W/\(etag)"
        let second = try responder.respond(to: request, context: RequestContext())
        #expect(second.status == .notModified)
        #expect(second.bytes == [])
        #expect(second.headers["ETag"] == etag)
    }

    @Test func gzipWhenAccepted() throws {
        let body = Array(String(repeating: "{\"title\":\"Gulyásleves\"}", count: 100).utf8)
        let responder = Fixed(
            response: Response(status: .ok, headers: HTTPHeaders([("Content-Type", "application/json")]), body: body)
        )
        .wrapped(in: [CompressionMiddleware(), ConditionalGetMiddleware()])
        var request = Request(method: .get, target: "/")!
        request.headers["Accept-Encoding"] = "br;q=1, gzip;q=0.8"
        let response = try responder.respond(to: request, context: RequestContext())
        #expect(response.headers["Content-Encoding"] == "gzip")
        #expect(response.headers["ETag"]?.hasSuffix("-gzip\"") == true)
        #expect(response.bytes!.count < body.count / 10)
        #expect(response.bytes!.prefix(2) == [0x1f, 0x8b])
        request.headers["Accept-Encoding"] = "gzip;q=0"
        #expect(try responder.respond(to: request, context: RequestContext()).headers["Content-Encoding"] == nil)
    }

    @Test func unexpectedErrorsAreBare500s() throws {
        struct Secret: Error {}
        let logged = LockedLines()
        let responder = ClosureResponder { _, _ in throw Secret() }.wrapped(in: [
            ErrorMiddleware(log: { logged.append($0) })
        ])
        let response = try responder.respond(to: Request(method: .get, target: "/x")!, context: RequestContext())
        #expect(response.status == .internalServerError)
        #expect(String(decoding: response.bytes!, as: UTF8.self) == "Internal Server Error\n")
        #expect(logged.lines.first?.contains("Secret") == true)
    }

    /// An error of another domain that knows its answer, or says it has none for clients.
    struct QuotaError: HTTPResponseError {
        var answers: Bool
        var httpError: HTTPError? {
            answers
                ? HTTPError(
                    .tooManyRequests, code: "quota", "the quota is used up",
                    headers: HTTPHeaders([("Retry-After", "60")]))
                : nil
        }
    }

    @Test(arguments: [true, false])
    func errorsThatKnowTheirAnswerAreRenderedOthersAreBare500s(answers: Bool) throws {
        let logged = LockedLines()
        let responder = ClosureResponder { _, _ in throw QuotaError(answers: answers) }.wrapped(in: [
            ErrorMiddleware(log: { logged.append($0) }),
            CORSMiddleware(pathPrefix: "/api/", allowedMethods: { _ in [.get] }),
        ])
        let response = try responder.respond(to: Request(method: .get, target: "/api/x")!, context: RequestContext())
        let body = String(decoding: response.bytes!, as: UTF8.self)
        if answers {
            #expect(response.status == .tooManyRequests)
            #expect(body == #"{"error":{"code":"quota","message":"the quota is used up"}}"#)
            #expect(response.headers["Retry-After"] == "60")
            #expect(response.headers["Access-Control-Allow-Origin"] == "*")
            #expect(logged.lines.isEmpty)
        } else {
            #expect(response.status == .internalServerError)
            #expect(body == "Internal Server Error\n")
            #expect(response.headers["Access-Control-Allow-Origin"] == nil)
            #expect(logged.lines.count == 1 && logged.lines.first?.hasSuffix("QuotaError(answers: false)") == true)
        }
    }

    @Test func jsonErrorsEscapeMarkup() throws {
        let response = ErrorMiddleware.json(
            HTTPError.badParameter("bad <script>\"x\""), Request(method: .get, target: "/")!)
        #expect(
            String(decoding: response.bytes!, as: UTF8.self)
                == #"{"error":{"code":"bad_parameter","message":"bad \u003cscript\u003e\"x\""}}"#)
    }
}
