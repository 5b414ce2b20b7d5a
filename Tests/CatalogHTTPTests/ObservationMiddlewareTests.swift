import CatalogTestSupport
import Foundation
import Testing

@testable import CatalogHTTP

/// Request ids, the access log's JSON lines, route labels and probes, through the middleware in
/// process.
@Suite struct ObservationMiddlewareTests {
    struct Failure: Error {}

    let lines = LockedLines()
    let errors = LockedLines()
    let registry = MetricsRegistry()
    let responder: any Responder

    init() {
        var routes = RouterBuilder()
        routes.get("/api/v1/catalogs/{id}") { _, context in
            .text("catalog \(try context.require("id", as: String.self))")
        }
        routes.get("/healthz", options: RouteOptions(rateClass: .probe)) { _, _ in .text("ok") }
        routes.get("/broken") { _, _ in throw Failure() }
        let router = routes.build()
        let lines = lines
        let errors = errors
        responder = router.wrapped(in: [
            ObservationMiddleware(
                log: AccessLog(format: .json, sink: { lines.append($0) }), metrics: HTTPMetrics(registry: registry),
                requestID: RequestID { "fresh-id" }, router: router),
            ErrorMiddleware(log: { errors.append($0) }),
        ])
    }

    func get(_ target: String, headers: [(String, String)] = []) throws -> Response {
        let request = try #require(
            Request(method: .get, target: target, headers: HTTPHeaders(headers), clientAddress: "192.0.2.7"))
        return try responder.respond(to: request, context: RequestContext())
    }

    func entries() throws -> [[String: Any]] {
        try lines.lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    @Test func theLogNamesTheForwardedClientAndOnlyATrustedProxyChoosesTheId() throws {
        let proxies = [try AddressRange("127.0.0.1/32")]
        let headers = HTTPHeaders([("X-Forwarded-For", "203.0.113.9"), ("X-Request-Id", "proxy-id")])
        for peer in ["127.0.0.1", "192.0.2.7"] {
            var request = try #require(Request(method: .get, target: "/api/v1/catalogs/x", headers: headers))
            request.client = ClientAddress.resolve(peer: peer, headers: headers, trusting: proxies)
            let response = try responder.respond(to: request, context: RequestContext())
            #expect(response.headers["X-Request-Id"] == (peer == "127.0.0.1" ? "proxy-id" : "fresh-id"))
        }
        let clients = try entries().map { $0["client"] as? String }
        #expect(clients == ["203.0.113.9", "192.0.2.7"])
        let ids = try entries().map { $0["request_id"] as? String }
        #expect(ids == ["proxy-id", "fresh-id"])
    }

    @Test func everyAnswerCarriesAnIdASafeOneFromTheClient() throws {
        #expect(try get("/api/v1/catalogs/x").headers["X-Request-Id"] == "fresh-id")
        #expect(try get("/nowhere").headers["X-Request-Id"] == "fresh-id")
        let safe = "trace-01.AB_cd"
        #expect(try get("/api/v1/catalogs/x", headers: [("X-Request-Id", safe)]).headers["X-Request-Id"] == safe)
        for unsafe in ["has space", "semi;colon", String(repeating: "a", count: 129), "", "naïve"] {
            #expect(
                try get("/api/v1/catalogs/x", headers: [("X-Request-Id", unsafe)]).headers["X-Request-Id"] == "fresh-id"
            )
        }
        #expect(RequestID.isSafe(String(repeating: "a", count: 128)))
        let random = RequestID.random.make()
        #expect(random.count == 32 && random.allSatisfy(\.isHexDigit) && random != RequestID.random.make())
    }

    @Test func jsonLinesNameTheRouteNotTheQuery() throws {
        _ = try get("/api/v1/catalogs/cookbook?token=ctk_secret", headers: [("X-Request-Id", "r1")])
        _ = try get("/nowhere")
        let entries = try entries()
        try #require(entries.count == 2)
        #expect(entries[0]["request_id"] as? String == "r1")
        #expect(entries[0]["route"] as? String == "/api/v1/catalogs/{id}")
        #expect(entries[0]["path"] as? String == "/api/v1/catalogs/cookbook")
        #expect(entries[0]["method"] as? String == "GET")
        #expect(entries[0]["status"] as? Int == 200)
        #expect(entries[0]["client"] as? String == "192.0.2.7")
        #expect(entries[0]["bytes"] as? Int == "catalog cookbook".utf8.count)
        #expect(entries[0]["duration_us"] is Int)
        #expect(entries[0]["time"] is String)
        #expect(entries[1]["route"] is NSNull)
        #expect(!lines.lines.contains { $0.contains("ctk_secret") })
        #expect(registry.render().contains(#"route="/api/v1/catalogs/{id}",method="GET",status="200"} 1"#))
        #expect(registry.render().contains(#"route="unmatched",method="GET",status="404"} 1"#))
    }

    @Test func probesAreCountedButNotLogged() throws {
        #expect(try get("/healthz").status == .ok)
        #expect(lines.lines.isEmpty)
        #expect(registry.render().contains(#"route="/healthz",method="GET",status="200"} 1"#))
    }

    @Test func unexpectedErrorsAreLoggedWithTheRequestID() throws {
        #expect(try get("/broken", headers: [("X-Request-Id", "req-500")]).status == .internalServerError)
        #expect(errors.lines.count == 1)
        #expect(errors.lines.first?.hasPrefix("error: request req-500 GET /broken: ") == true)
        let entry = try #require(try entries().first)
        #expect(entry["request_id"] as? String == "req-500")
        #expect(entry["status"] as? Int == 500)
        #expect((entry["error"] as? String)?.contains("Failure") == true)
    }

    @Test func textLinesKeepTheirShape() throws {
        let text = LockedLines()
        let plain = ClosureResponder { _, _ in .text("hi") }.wrapped(in: [
            ObservationMiddleware(log: AccessLog(format: .text, sink: { text.append($0) }), metrics: nil)
        ])
        _ = try plain.respond(
            to: #require(Request(method: .get, target: "/plain?q=1", clientAddress: "::1")), context: .init())
        let line = try #require(text.lines.first)
        #expect(
            line.range(
                of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ ::1 GET /plain 200 2 \d+us$"#, options: .regularExpression)
                != nil, "\(line)")
    }
}
