import CatalogAuth
import CatalogHTTP
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

@testable import CatalogServer

/// Health probes, metrics, request ids and the JSON access log against a live server on a
/// loopback port.
@Suite struct ObservabilityTests {
    /// The application behind a live server, its access log collected as JSON lines.
    final class Live {
        let lines = LockedLines()
        let fixture: ServerFixture
        let server: HTTPServer
        var client: RawClient { RawClient(port: server.port) }

        init(_ configure: (inout CatalogServerOptions) -> Void = { _ in }) throws {
            let lines = lines
            fixture = try ServerFixture(accessLog: AccessLog(format: .json, sink: { lines.append($0) }), configure)
            var configuration = ServerConfiguration()
            configuration.port = 0
            configuration.threads = 2
            configuration.maxBodyBytes = 4096
            let router = fixture.application.router
            configuration.routeOptions = { router.options(method: $0, segments: $1) }
            server = HTTPServer(configuration: configuration, responder: fixture.application.responder, log: { _ in })
            fixture.application.attach(server)
            try server.start()
        }

        deinit { server.shutdown() }

        /// Every access-log line, parsed.
        func entries() throws -> [[String: Any]] {
            try lines.lines.map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            }
        }

        /// The samples of `/metrics`, by their name and labels as written (`name{label="v"}`).
        func metrics() throws -> [String: Double] {
            let reply = try client.request("GET", "/metrics")
            try #require(reply.status == 200)
            #expect(reply.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
            var samples: [String: Double] = [:]
            for line in reply.text.split(separator: "\n") where !line.hasPrefix("#") {
                let space = try #require(line.lastIndex(of: " "))
                samples[String(line[..<space])] = try #require(Double(line[line.index(after: space)...]), "\(line)")
            }
            return samples
        }
    }

    @Test func healthAndReadinessAnswerAndReadinessFailsOnceDraining() throws {
        let live = try Live()
        let health = try live.client.request("GET", "/healthz")
        #expect(health.status == 200 && health.text == "ok\n")
        let ready = try live.client.request("GET", "/readyz")
        #expect(ready.status == 200 && ready.text == "ready\n")
        // SIGTERM in catalog serve: draining begins before the server stops accepting.
        live.fixture.application.beginDraining()
        let draining = try live.client.request("GET", "/readyz")
        #expect(draining.status == 503 && draining.text == "draining\n")
        #expect(try live.client.request("GET", "/healthz").status == 200)
        // Probes are never in the access log.
        #expect(try live.entries().isEmpty)
    }

    @Test func readinessFailsOnceTheServerStops() throws {
        let live = try Live()
        #expect(try live.fixture.request("/readyz").status == 200)
        live.server.shutdown()
        let reply = try live.fixture.request("/readyz")
        #expect(reply.status == 503 && reply.text == "draining\n")
    }

    @Test func metricsCountRequestsByRoutePattern() throws {
        let live = try Live()
        let search = #"catalog_http_requests_total{route="/api/v1/catalogs/{id}/search",method="GET",status="200"}"#
        let unmatched = #"catalog_http_requests_total{route="unmatched",method="GET",status="404"}"#
        let before = try live.metrics()
        for query in ["leves", "torta", "a"] {
            #expect(try live.client.request("GET", "/api/v1/catalogs/cookbook/search?q=\(query)").status == 200)
        }
        #expect(try live.client.request("GET", "/no/such/thing").status == 404)
        let after = try live.metrics()
        #expect((after[search] ?? 0) - (before[search] ?? 0) == 3)
        #expect((after[unmatched] ?? 0) - (before[unmatched] ?? 0) == 1)
        // Route labels are patterns, never raw paths: the series stay bounded.
        #expect(!after.keys.contains { $0.contains("cookbook/search") || $0.contains("no/such") })
        #expect(
            (after[#"catalog_http_request_duration_seconds_count{route="/api/v1/catalogs/{id}/search"}"#] ?? 0) >= 3)
        #expect((after[#"catalog_search_hits_count{catalog="cookbook"}"#] ?? 0) == 3)
        #expect((after[#"catalog_search_duration_seconds_count{catalog="cookbook"}"#] ?? 0) == 3)
        // The server's own readings, once attached, and the application's.
        #expect((after["catalog_http_connections_open"] ?? 0) >= 1)
        #expect(after["catalog_event_streams_open"] == 0)
        #expect(after["catalog_imports_running"] == 0)
        #expect((after[#"catalog_change_number{catalog="cookbook"}"#] ?? 0) >= 1)
        #expect((after["catalog_database_bytes"] ?? 0) > 0)
        #expect(after[#"catalog_cache_requests_total{cache="response",result="miss"}"#] != nil)
    }

    @Test func throttledSignInsAreCounted() throws {
        let now = Date()
        let live = try Live {
            $0.signInPolicy.freeFailuresPerAccount = 1
            $0.signInClock = AuthClock { now }
        }
        let throttled = "catalog_sign_ins_throttled_total"
        #expect(try live.metrics()[throttled] == 0)
        let attempt = Array(#"{"name":"mari","password":"wrong"}"#.utf8)
        let statuses = try (0..<4).map { _ in
            try live.client.request(
                "POST", "/api/v1/signin", headers: [("Content-Type", "application/json")], body: attempt
            ).status
        }
        #expect(statuses == [401, 401, 429, 429])
        #expect(try live.metrics()[throttled] == 2)
    }

    @Test func metricsAreRefusedToAddressesNotAllowed() throws {
        let allowed = try AddressRange("10.0.0.0/8")
        let live = try Live { $0.metricsAllowed = [allowed] }
        let refused = try live.client.request("GET", "/metrics")
        #expect(refused.status == 404)
        #expect(!refused.text.contains("catalog_http_requests_total"))
    }

    @Test func metricsOnAPortOfTheirOwn() throws {
        let live = try Live { $0.metricsOnMainPort = false }
        #expect(try live.client.request("GET", "/metrics").status == 404)
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 1
        let metricsServer = HTTPServer(
            configuration: configuration, responder: live.fixture.application.metricsResponder, log: { _ in })
        try metricsServer.start()
        defer { metricsServer.shutdown() }
        let metrics = try RawClient(port: metricsServer.port).request("GET", "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.text.contains("# TYPE catalog_http_requests_total counter"))
        // It serves nothing else.
        #expect(try RawClient(port: metricsServer.port).request("GET", "/api/v1/catalogs").status == 404)
    }

    @Test func everyAnswerCarriesARequestIDEchoedWhenSafe() throws {
        let live = try Live()
        let fresh = try live.client.request("GET", "/api/v1/catalogs")
        let id = try #require(fresh.headers["x-request-id"])
        #expect(id.count == 32 && id.allSatisfy(\.isHexDigit))
        let echoed = try live.client.request("GET", "/api/v1/catalogs", headers: [("X-Request-Id", "lb-7f.3_a")])
        #expect(echoed.headers["x-request-id"] == "lb-7f.3_a")
        let replaced = try live.client.request(
            "GET", "/api/v1/catalogs", headers: [("X-Request-Id", "x\"><script>" + String(repeating: "a", count: 200))])
        #expect(replaced.headers["x-request-id"]?.count == 32)
        #expect(try live.client.request("GET", "/nowhere").headers["x-request-id"] != nil)
        // An answer the server makes itself (a body over the limit) carries one too.
        let tooLarge = try live.client.request(
            "POST", "/api/v1/signin", headers: [("Content-Type", "application/json")],
            body: Array(repeating: UInt8(ascii: " "), count: 8192))
        #expect(tooLarge.status == 413)
        #expect(tooLarge.headers["x-request-id"] != nil)
        // The log line carries the id the answer did.
        let logged = try live.entries().compactMap { $0["request_id"] as? String }
        #expect(logged.contains(id) && logged.contains("lb-7f.3_a"))
    }

    @Test func jsonLogLinesNameTheUserAndNeverASecret() throws {
        let live = try Live()
        let password = "correct horse battery staple"
        _ = try live.fixture.elsewhere { database in
            try Authenticator().addUser(name: "pat", isAdmin: false, password: password, in: database.users())
        }
        let signIn = try live.client.request(
            "POST", "/api/v1/signin", headers: [("Content-Type", "application/json")],
            body: Array(#"{"name":"pat","password":"\#(password)"}"#.utf8))
        #expect(signIn.status == 200, "\(signIn.text)")
        let session = try #require(
            (try JSONSerialization.jsonObject(with: Data(signIn.body)) as? [String: Any])?["token"] as? String)
        let admin = live.fixture.adminToken
        #expect(
            try live.client.request("GET", "/api/v1/favorites", headers: [("Authorization", "Bearer \(admin)")]).status
                == 200)
        #expect(
            try live.client.request("GET", "/api/v1/favorites", headers: [("Authorization", "Bearer \(session)")])
                .status == 200)
        let cookie = "cts_cookie-value-that-must-stay-secret"
        _ = try live.client.request("GET", "/", headers: [("Cookie", "catalog_session=\(cookie)")])
        // A web page signed in by its session cookie names its user too.
        #expect(try live.client.request("GET", "/", headers: [("Cookie", "catalog_session=\(session)")]).status == 200)
        _ = try live.client.request("GET", "/api/v1/catalogs/cookbook/search?q=x&token=ctk_query-secret")

        let entries = try live.entries()
        #expect(entries.count == 6)
        for entry in entries {
            for key in ["time", "request_id", "client", "method", "route", "path", "status", "bytes", "duration_us"] {
                #expect(entry[key] != nil, "\(key) missing in \(entry)")
            }
        }
        let favorites = entries.filter { $0["route"] as? String == "/api/v1/favorites" }
        #expect(favorites.compactMap { $0["user"] as? String }.sorted() == ["admin", "pat"])
        #expect(entries.filter { $0["route"] as? String == "/" }.compactMap { $0["user"] as? String } == ["pat"])
        #expect(entries.last?["path"] as? String == "/api/v1/catalogs/cookbook/search")
        for secret in [admin, session, password, cookie, "ctk_query-secret", "cookie-value"] {
            #expect(!live.lines.lines.contains { $0.contains(secret) }, "a log line holds a secret")
        }
    }
}
