import CatalogTestSupport
import Foundation
import Testing

@testable import CatalogHTTP

/// Route options are declared with the route and found by matching as the router does; typed
/// route parameters.
@Suite struct RouteOptionsTests {
    static let upload = RouteOptions(
        lane: RouteLane("up"), bodyLimit: 64 * 1024, authentication: .admin, rateClass: .expensive)

    static func router() -> Router {
        var routes = RouterBuilder()
        routes.on(.post, "/api/v1/catalogs/{id}/import", options: upload) { _, context in
            .text("\(context.options.bodyLimit ?? 0)")
        }
        routes.get("/api/v1/catalogs/{id}") { _, context in .text(try context.require("id", as: String.self)) }
        routes.get("/c/{id}/categories/{category}") { _, context in
            .text("\(try context.require("category", as: Int.self) + 1)")
        }
        routes.get(
            "/images/{path...}", options: RouteOptions(lane: RouteLane("thumbnails") { $0.query("size") != nil })
        ) {
            _, _ in .text("image")
        }
        return routes.build()
    }

    func options(_ method: HTTPMethod, _ target: String) -> RouteOptions {
        Self.router().options(method: method, segments: Request(method: method, target: target)!.segments)
    }

    @Test(arguments: [
        "/api/v1/catalogs/x/import", "/api/v1/catalogs/x/import/", "//api/v1/catalogs/x/import",
        "/api//v1/catalogs/x//import/",
    ])
    func everySpellingOfAPathHasItsRoutesOptions(target: String) {
        let found = options(.post, target)
        #expect(found.lane?.name == "up")
        #expect(found.bodyLimit == 64 * 1024)
        #expect(found.authentication == .admin)
        #expect(found.rateClass == .expensive)
    }

    @Test func otherRequestsHaveTheStandardOptions() {
        for (method, target) in [
            (HTTPMethod.get, "/api/v1/catalogs/x/import"), (.post, "/api/v1/catalogs/x/import/more"), (.post, "/nope"),
            (.get, "/api/v1/catalogs/x"),
        ] {
            let found = options(method, target)
            #expect(found.lane == nil && found.bodyLimit == nil, "\(method) \(target)")
            #expect(found.authentication == .none && found.rateClass == .standard)
        }
    }

    @Test func headHasTheOptionsOfGet() {
        #expect(options(.head, "/images/a.png").lane?.name == "thumbnails")
    }

    @Test func theLaneDecidesPerRequest() throws {
        let lane = try #require(options(.get, "/images/a.png").lane)
        #expect(lane.admits?(Request(method: .get, target: "/images/a.png?size=64")!) == true)
        #expect(lane.admits?(Request(method: .get, target: "/images/a.png")!) == false)
    }

    @Test func theDeclarationIsListedByPattern() {
        let router = Self.router()
        #expect(router.options(of: .post, "/api/v1/catalogs/{id}/import")?.lane?.name == "up")
        #expect(router.options(of: .get, "/api/v1/catalogs/{id}")?.lane == nil)
        #expect(router.options(of: .get, "/api/v1/catalogs/{id}/import") == nil)
    }

    @Test func theHandlerSeesItsOptions() throws {
        let response = try Self.router().respond(
            to: Request(method: .post, target: "/api/v1/catalogs/x/import")!, context: RequestContext())
        #expect(String(decoding: response.bytes ?? [], as: UTF8.self) == "65536")
    }

    @Test func typedParameters() throws {
        func answer(_ target: String) throws -> String {
            let response = try Self.router().respond(
                to: Request(method: .get, target: target)!, context: RequestContext())
            return String(decoding: response.bytes ?? [], as: UTF8.self)
        }
        #expect(try answer("/c/x/categories/41") == "42")
        #expect(try answer("/api/v1/catalogs/a%20b") == "a b")
        #expect(throws: HTTPError.self) { try answer("/c/x/categories/forty") }
        var context = RequestContext()
        context.parameters = ["id": "7", "name": "x"]
        #expect(try context.require("id", as: Int.self) == 7)
        #expect(context.parameter("name", as: Int.self) == nil)
        #expect(context.parameter("missing", as: String.self) == nil)
        #expect {
            try context.require("missing", as: String.self)
        } throws: { error in
            (error as? HTTPError)?.status == .notFound
        }
    }

    /// Against a live server: the options are asked at head time, so a trailing slash or a doubled
    /// one gets the route's body limit and lane. The lane's one thread holds the first request
    /// until told to go on, and its queue takes none: the second request is answered 503 only if it
    /// went to the lane too.
    @Test func theServerTakesBodyLimitAndLaneFromTheRoute() throws {
        let started = Gate()
        let release = Gate()
        var routes = RouterBuilder()
        routes.on(.post, "/hold/{id}", options: RouteOptions(lane: RouteLane("hold"), bodyLimit: 64 * 1024)) {
            request, _ in
            started.open()
            release.wait()
            return .text("held \(request.body.count)")
        }
        let router = routes.build()
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        configuration.maxBodyBytes = 1024
        configuration.routeOptions = { router.options(method: $0, segments: $1) }
        configuration.offloadLanes = [OffloadLane(name: "hold", threads: 1, queueLimit: 0)]
        let server = HTTPServer(
            configuration: configuration, responder: router.wrapped(in: [ErrorMiddleware(log: { _ in })]),
            log: { _ in })
        try server.start()
        defer { server.shutdown() }
        let client = RawClient(port: server.port)
        let body = [UInt8](repeating: 65, count: 10_000)

        let socket = try client.connect()
        defer { close(socket) }
        RawClient.sendAll(
            Array(
                "POST /hold/a/ HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
                    .utf8)
                + body, on: socket)
        #expect(started.wait(), "the first request runs")
        let second = try client.request("POST", "//hold/b", body: body)
        #expect(second.status == 503, "\(second.status) \(second.text)")
        let tooLarge = try client.request("POST", "/hold/c/", body: [UInt8](repeating: 65, count: 70_000))
        #expect(tooLarge.status == 413)
        release.open()
        let first = RawClient.parse(client.readAll(socket, timeout: 60))
        #expect(first.status == 200)
        #expect(first.text == "held 10000")
        // Elsewhere the server's default holds.
        #expect(try client.request("POST", "/nowhere/", body: body).status == 413)
    }
}
