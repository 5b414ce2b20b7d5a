import CatalogHTTP
import CatalogTestSupport
import Foundation
import Testing

@testable import CatalogServer

/// What the server knows about each route before its handler runs (lane, body limit,
/// authentication, rate class) is declared with the route: this table is the whole list, so a
/// renamed or re-spelled route keeps its options, and a route that gains one shows up here.
@Suite struct RouteOptionsTableTests {
    struct Expected: Equatable, CustomStringConvertible {
        var lane: String?
        var bodyLimit: Int?
        var authentication: RouteAuthentication = .none
        var rateClass: RateClass = .standard

        init(
            lane: String? = nil, bodyLimit: Int? = nil, authentication: RouteAuthentication = .none,
            rateClass: RateClass = .standard
        ) {
            self.lane = lane
            self.bodyLimit = bodyLimit
            self.authentication = authentication
            self.rateClass = rateClass
        }

        init(_ options: RouteOptions) {
            self.init(
                lane: options.lane?.name, bodyLimit: options.bodyLimit, authentication: options.authentication,
                rateClass: options.rateClass)
        }

        var description: String {
            "lane \(lane ?? "-"), body \(bodyLimit.map(String.init) ?? "-"), \(authentication), \(rateClass)"
        }
    }

    static let uploadLimit = 64 * 1024
    static let page = Expected(authentication: .optional)
    static let edit = Expected(lane: "edits", bodyLimit: 256 * 1024, authentication: .signedIn)
    /// Creating, changing and deleting catalogs: administrators, one at a time beside imports.
    static let management = Expected(lane: "imports", authentication: .admin, rateClass: .expensive)

    /// Every route whose options are not the standard ones.
    static let table: [String: Expected] = [
        "POST /api/v1/catalogs/{id}/import": Expected(
            lane: "imports", bodyLimit: uploadLimit, authentication: .admin, rateClass: .expensive),
        "POST /api/v1/catalogs/{id}/import/preview": Expected(
            lane: "imports", bodyLimit: uploadLimit, authentication: .admin, rateClass: .expensive),
        "GET /api/v1/imports/{job}": Expected(authentication: .signedIn),
        "POST /api/v1/catalogs": management,
        "POST /c/{id}/import/preview": Expected(
            lane: "imports", bodyLimit: uploadLimit, authentication: .optional, rateClass: .expensive),
        "POST /c/{id}/import": Expected(
            lane: "imports", bodyLimit: uploadLimit, authentication: .optional, rateClass: .expensive),
        "GET /new": page,
        "GET /imports/{job}": page,
        "GET /c/{id}/settings": page,
        "PATCH /c/{id}/settings": Expected(lane: "imports", authentication: .optional, rateClass: .expensive),
        "DELETE /c/{id}/settings": Expected(lane: "imports", authentication: .optional, rateClass: .expensive),
        "PATCH /api/v1/catalogs/{id}": Expected(lane: "imports", authentication: .signedIn, rateClass: .expensive),
        "DELETE /api/v1/catalogs/{id}": management,
        "GET /api/v1/catalogs/{id}/settings": Expected(authentication: .signedIn),
        "PATCH /api/v1/catalogs/{id}/settings": Expected(
            lane: "imports", authentication: .signedIn, rateClass: .expensive),
        "GET /api/v1/catalogs/{id}/snapshot": Expected(lane: "snapshots", rateClass: .expensive),
        "PUT /api/v1/catalogs/{id}/items/{item}": edit,
        "PATCH /api/v1/catalogs/{id}/items/{item}": edit,
        "DELETE /api/v1/catalogs/{id}/items/{item}": edit,
        "POST /api/v1/catalogs/{id}/items/{item}/restore": edit,
        "PUT /api/v1/catalogs/{id}/items/{item}/image": Expected(
            lane: "edits", bodyLimit: 16 << 20, authentication: .signedIn, rateClass: .expensive),
        "DELETE /api/v1/catalogs/{id}/items/{item}/image": edit,
        "POST /api/v1/catalogs/{id}/items": Expected(
            lane: "edits", bodyLimit: 64 * 1024 * 1024, authentication: .signedIn, rateClass: .expensive),
        "GET /api/v1/catalogs/{id}/items/{item}/history": Expected(authentication: .signedIn),
        "GET /images/{path...}": Expected(lane: "thumbnails", rateClass: .expensive),
        "POST /api/v1/signin": Expected(lane: "passwords", rateClass: .signIn),
        "POST /signin": Expected(lane: "passwords", authentication: .optional, rateClass: .signIn),
        "POST /api/v1/signout": Expected(authentication: .signedIn),
        "GET /api/v1/favorites": Expected(authentication: .signedIn),
        "PUT /api/v1/favorites/{catalog}/{item}": Expected(authentication: .signedIn),
        "DELETE /api/v1/favorites/{catalog}/{item}": Expected(authentication: .signedIn),
        "GET /api/v1/catalogs/{id}/members": Expected(authentication: .signedIn),
        "GET /api/v1/catalogs/{id}/members/{user}": Expected(authentication: .signedIn),
        "PUT /api/v1/catalogs/{id}/members/{user}": Expected(authentication: .signedIn),
        "DELETE /api/v1/catalogs/{id}/members/{user}": Expected(authentication: .signedIn),
        "GET /api/v1/keys": Expected(authentication: .signedIn),
        "POST /api/v1/keys": Expected(authentication: .signedIn),
        "DELETE /api/v1/keys/{name}": Expected(authentication: .signedIn),
        "GET /api/v1/audit": Expected(authentication: .admin),
        "GET /": page,
        "GET /search": page,
        "GET /c/{id}": page,
        "GET /c/{id}/categories/{category}": page,
        "GET /c/{id}/i/{item}": page,
        "POST /c/{id}/i/{item}/favorite": page,
        "GET /c/{id}/i/{item}/edit": page,
        "GET /c/{id}/new": page,
        // The editor's changes read the web session (and its CSRF token), on the API's lane and limit.
        "PUT /c/{id}/i/{item}": Expected(lane: "edits", bodyLimit: 256 * 1024, authentication: .optional),
        "DELETE /c/{id}/i/{item}": Expected(lane: "edits", bodyLimit: 256 * 1024, authentication: .optional),
        "PUT /c/{id}/i/{item}/image": Expected(
            lane: "edits", bodyLimit: 16 << 20, authentication: .optional, rateClass: .expensive),
        "GET /c/{id}/hot": page,
        "GET /c/{id}/categories": page,
        "GET /c/{id}/favorites": page,
        "GET /signin": page,
        "POST /signout": page,
        // Probes: never throttled, not in the access log.
        "GET /healthz": Expected(rateClass: .probe),
        "GET /readyz": Expected(rateClass: .probe),
        "GET /metrics": Expected(rateClass: .probe),
    ]

    let fixture: ServerFixture

    init() throws {
        fixture = try ServerFixture { $0.maxUploadBytes = Self.uploadLimit }
    }

    @Test func everyRouteHasTheOptionsOfTheTable() throws {
        let router = fixture.application.router
        var seen: Set<String> = []
        for (method, pattern) in router.routes {
            let key = "\(method.rawValue) \(pattern)"
            seen.insert(key)
            let options = try #require(router.options(of: method, pattern))
            #expect(Expected(options) == Self.table[key] ?? Expected(), "\(key)")
        }
        #expect(Set(Self.table.keys).subtracting(seen).isEmpty, "routes in the table that do not exist")
    }

    @Test func everyLaneARouteNamesIsConfigured() throws {
        var configuration = ServerConfiguration()
        fixture.application.configure(&configuration)
        let lanes = Set(configuration.offloadLanes.map(\.name))
        let router = fixture.application.router
        let named = Set(router.routes.compactMap { router.options(of: $0.method, $0.pattern)?.lane?.name })
        #expect(named == lanes)
        // The server finds them by the request's segments, as the router matches.
        let options = try #require(configuration.routeOptions)
        let upload = options(.post, Request(method: .post, target: "//api/v1/catalogs/x/import/")!.segments)
        #expect(upload.lane?.name == "imports" && upload.bodyLimit == Self.uploadLimit)
    }

    /// A route that declares a signed-in user or an administrator refuses a request without
    /// credentials (and one with a user's token, for administrators).
    @Test func declaredAuthenticationIsEnforced() throws {
        let router = fixture.application.router
        for (method, pattern) in router.routes {
            let need = try #require(router.options(of: method, pattern)).authentication
            guard need == .signedIn || need == .admin else { continue }
            let target = pattern.replacingOccurrences(of: "{catalog}", with: "cookbook")
                .replacingOccurrences(of: "{id}", with: "cookbook").replacingOccurrences(of: "{item}", with: "r01")
                .replacingOccurrences(of: "{user}", with: "mari")
            #expect(try fixture.request(method, target).status == 401, "\(method) \(pattern)")
            if need == .admin {
                #expect(
                    try fixture.request(method, target, token: fixture.userToken).status == 403, "\(method) \(pattern)")
            }
        }
    }

    /// The OpenAPI document asks for a bearer token exactly where a route declares a user.
    @Test func openAPIReportsTheDeclaredAuthentication() throws {
        let reply = try fixture.request("/api/v1/openapi.json")
        let paths = try #require(reply.object["paths"] as? [String: [String: Any]])
        let router = fixture.application.router
        for (method, pattern) in router.routes where pattern.hasPrefix("/api/") {
            guard let operation = paths[pattern]?[method.rawValue.lowercased()] as? [String: Any] else { continue }
            let need = try #require(router.options(of: method, pattern)).authentication
            #expect((operation["security"] != nil) == (need == .signedIn || need == .admin), "\(method) \(pattern)")
        }
    }

    /// Against a live server configured as `catalog serve` configures it: a trailing slash or a
    /// doubled one reaches the import with the upload cap (not the server's default limit) and on
    /// the import lane (whose one thread is busy, so the second import is told to wait).
    @Test func everySpellingOfTheImportGetsTheUploadCapAndTheImportLane() throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        fixture.application.configure(&configuration)
        configuration.maxBodyBytes = 2048
        let imports = try #require(configuration.offloadLanes.firstIndex { $0.name == "imports" })
        configuration.offloadLanes[imports].queueLimit = 0
        let server = HTTPServer(configuration: configuration, responder: fixture.application.responder, log: { _ in })
        try server.start()
        defer { server.shutdown() }
        let client = RawClient(port: server.port)

        // An import that never ends, larger than the default limit, through a trailing slash.
        let endless = try ImportConcurrencyTests.endlessView(in: fixture.directory)
        #expect(endless.count > configuration.maxBodyBytes)
        let socket = try client.connect()
        defer { close(socket) }
        RawClient.sendAll(
            Array(
                ("POST /api/v1/catalogs/endless/import/?format=sqlite HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: Bearer \(fixture.adminToken)\r\nContent-Length: \(endless.count)\r\n"
                    + "Connection: close\r\n\r\n").utf8) + endless,
            on: socket)
        #expect(waitUntil { server.requestsInFlight == 1 }, "the import is in flight")

        // The second, with a doubled slash, is over the default limit too: it is not refused as too
        // large, but told the import lane is busy.
        let second = try client.request(
            "POST", "//api/v1/catalogs/other/import?format=csv",
            headers: [("Authorization", "Bearer \(fixture.adminToken)")],
            body: Array(("id,title\n" + String(repeating: "r,Row\n", count: 1000)).utf8))
        #expect(second.status == 503, "\(second.status) \(second.text)")
        #expect(second.headers["retry-after"] == "1")
        // Beyond the cap it is 413, whatever the spelling.
        let big = try client.request(
            "POST", "/api/v1/catalogs/other/import/?format=csv",
            headers: [("Authorization", "Bearer \(fixture.adminToken)")],
            body: [UInt8](repeating: 65, count: Self.uploadLimit + 1))
        #expect(big.status == 413)
        #expect(big.text.contains("\(Self.uploadLimit) bytes"))
    }
}
