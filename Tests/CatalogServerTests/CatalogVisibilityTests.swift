import CatalogAuth
import CatalogCollation
import CatalogCore
import CatalogDemo
import CatalogEngines
import CatalogHTTP
import CatalogImages
import CatalogImport
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

@testable import CatalogServer

/// Catalog visibility (issue 21): a public, a signed-in and a members catalog, asked by every
/// route of the router that names a catalog, as six requesters, on every engine. A catalog the
/// requester may not see answers exactly as a missing one does.
@Suite struct CatalogVisibilityTests {
    static let engines = TemporaryDatabase.Engine.available

    /// Who asks: people, and API keys of the signed-in account (a member of no catalog), one per
    /// action, one with a record filter, one expired and one revoked.
    enum Requester: String, CaseIterable, CustomStringConvertible, Sendable {
        case anonymous, signedIn, viewer, editor, owner, admin
        case keyRead, keySearch, keyWrite, keyImport, keyAdmin, keyFiltered, keyExpired, keyRevoked
        var description: String { rawValue }

        /// The requesters who are people (a token or a session of their own).
        static let people: [Requester] = [.anonymous, .signedIn, .viewer, .editor, .owner, .admin]

        var isKey: Bool { !Self.people.contains(self) }

        /// What a key may do (none for people, and for keys that no longer work).
        var keyActions: Set<KeyAction> {
            switch self {
            case .keyRead: [.read]
            case .keySearch: [.search]
            case .keyWrite: [.write]
            case .keyImport: [.import]
            case .keyAdmin: [.admin]
            case .keyFiltered: [.read, .search]
            default: []
            }
        }

        /// Whether the key works at all.
        var isValidKey: Bool { isKey && self != .keyExpired && self != .keyRevoked }

        /// The requester's role in the catalogs they are a member of.
        var role: CatalogRole? {
            switch self {
            case .viewer: .viewer
            case .editor: .editor
            case .owner: .owner
            default: nil
            }
        }
    }

    /// The three catalogs: products public, sequencers for signed-in users, the cookbook (which
    /// the original endpoints serve) for its members.
    static let visibilities: [String: CatalogVisibility] = [
        "products": .public, "sequencers": .signedIn, "cookbook": .members,
    ]

    /// Whether `requester` may see a catalog of `visibility`: the rule, spelled out. A key sees
    /// what its account sees (the signed-in account's).
    static func sees(_ requester: Requester, _ visibility: CatalogVisibility) -> Bool {
        if requester.isKey { return sees(.signedIn, visibility) }
        switch visibility {
        case .public: return true
        case .signedIn: return requester != .anonymous
        case .members: return requester != .anonymous && requester != .signedIn
        }
    }

    /// Routes about no one catalog. A new route lands here only on purpose: one that names a
    /// catalog some other way than `{id}` or `{catalog}` must be taught to the gate first.
    static let catalogFreeRoutes: Set<String> = [
        "GET /", "GET /api/v1/catalogs", "POST /api/v1/catalogs", "GET /api/v1/favorites", "POST /api/v1/signin",
        "POST /api/v1/signout", "GET /api/v1/imports/{job}", "GET /imports/{job}", "GET /api/v1/openapi.json",
        "GET /assets/{name}", "GET /assets/{name}/{file}", "GET /manifest.webmanifest", "GET /sw.js",
        "GET /offline/{language}", "GET /healthz", "GET /readyz", "GET /metrics", "GET /robots.txt",
        "GET /sitemap.xml", "GET /signin", "POST /signin", "POST /signout", "GET /new", "POST /new",
        // Keys name no catalog in their path; the search across catalogs searches only those the
        // visitor sees (WebPageTests, HomeSearch).
        "GET /api/v1/keys", "POST /api/v1/keys", "DELETE /api/v1/keys/{name}", "GET /search",
        // The audit log is administrators' (its events name catalogs, it is not one's).
        "GET /api/v1/audit",
    ]

    /// The policy's rule for reading, requester by requester, in the catalog of the role and in
    /// another one: a role counts in its own catalog only.
    @Test(arguments: Requester.people, CatalogVisibility.allCases)
    func thePolicyReadsByVisibility(requester: Requester, visibility: CatalogVisibility) {
        let user =
            requester == .anonymous
            ? nil : User(id: 7, name: requester.rawValue, isAdmin: requester == .admin, createdAt: "")
        let policy = AccessPolicy(user: user, roles: requester.role.map { ["cookbook": $0] } ?? [:])
        #expect(policy.allows(.read, catalog: "cookbook", visibility: visibility) == Self.sees(requester, visibility))
        let elsewhere = policy.allows(.read, catalog: "products", visibility: visibility)
        #expect(elsewhere == (visibility == .members ? requester == .admin : Self.sees(requester, visibility)))
        #expect(
            policy.sees(CatalogSummary(id: "cookbook", title: "", locale: "hu", count: 0, visibility: visibility))
                == Self.sees(requester, visibility))
    }

    @Test(arguments: engines)
    func everyRouteHidesWhatTheRequesterMayNotSee(engine: TemporaryDatabase.Engine) throws {
        let fixture = try VisibilityFixture(engine)
        let routes = fixture.application.router.routes
        var checked = 0
        for route in routes {
            let key = "\(route.method.rawValue) \(route.pattern)"
            let namesCatalog =
                route.pattern.contains("{id}") || route.pattern.contains("{catalog}")
                || route.pattern == "/images/{path...}" || CompatRoutes.cookbookEndpoints.contains(route.pattern)
            guard namesCatalog else {
                #expect(Self.catalogFreeRoutes.contains(key), "\(key) names no catalog the gate knows")
                continue
            }
            let authentication = fixture.application.router.options(of: route.method, route.pattern)?.authentication
            let needsCredentials = authentication == .signedIn || authentication == .admin
            for (catalog, visibility) in Self.visibilities.sorted(by: { $0.key < $1.key }) {
                if CompatRoutes.cookbookEndpoints.contains(route.pattern), catalog != "cookbook" { continue }
                for requester in Requester.allCases {
                    let seen = try fixture.ask(route.method, route.pattern, catalog: catalog, as: requester)
                    let missing = try fixture.ask(
                        route.method, route.pattern, catalog: catalog, as: requester, missing: true)
                    let context = "\(key) on \(catalog) (\(visibility)) as \(requester), \(engine)"
                    if requester.isKey {
                        Self.expectKeyAnswer(
                            seen, missing: missing, requester: requester, visible: Self.sees(requester, visibility),
                            requirement: APIKeyRoutes.requirement(route.method, route.pattern), context: context)
                    } else if Self.sees(requester, visibility) {
                        if route.method == .get {
                            #expect(seen.status != 404, "\(context): \(seen.body.prefix(300))")
                        }
                        if requester == .anonymous && needsCredentials {
                            // Asked to sign in whether the catalog exists or not.
                            #expect(seen.status == 401, "\(context): \(seen.status)")
                        } else if requester != .admin {
                            #expect(seen != missing, "\(context) answers as a missing catalog")
                        }
                    } else {
                        // Without credentials a route that needs them asks for them, as for any catalog.
                        let expected = requester == .anonymous && needsCredentials ? 401 : 404
                        #expect(seen.status == expected, "\(context): \(seen.status) \(seen.body.prefix(300))")
                        #expect(seen == missing, "\(context) differs from a missing catalog")
                    }
                    checked += 1
                }
            }
        }
        #expect(checked > 300, "every catalog route was asked (\(checked) answers)")
    }

    /// What a key gets: for a catalog its account may not see, exactly what a missing catalog
    /// gets (404, or 401 for a key that no longer works), whatever the key's actions; for one it
    /// sees, 401 if the key no longer works, 403 for a route keys may not use, an action it lacks
    /// or a filter the route cannot apply, and otherwise an answer that found the catalog.
    static func expectKeyAnswer(
        _ seen: VisibilityFixture.Answer, missing: VisibilityFixture.Answer, requester: Requester, visible: Bool,
        requirement: APIKeyRoutes.Requirement, context: String
    ) {
        guard visible else {
            #expect(
                seen.status == (requester.isValidKey ? 404 : 401), "\(context): \(seen.status) \(seen.body.prefix(200))"
            )
            #expect(seen == missing, "\(context) differs from a missing catalog")
            return
        }
        switch requirement {
        case .open:
            break
        case _ where !requester.isValidKey:
            #expect(seen.status == 401, "\(context): \(seen.status) \(seen.body.prefix(200))")
        case .refused:
            #expect(seen.status == 403, "\(context): \(seen.status) \(seen.body.prefix(200))")
        case .key(let action, _, let filtered):
            if !requester.keyActions.contains(action) || (requester == .keyFiltered && !filtered) {
                #expect(seen.status == 403, "\(context): \(seen.status) \(seen.body.prefix(200))")
            } else {
                // The catalog is found; what happens next is the account's and the route's
                // business (a record outside the key's filter is missing, a change the account
                // may not make is refused), never a missing catalog or a bad key.
                let missingCatalog = seen.status == 404 && seen.body.contains("no catalog named")
                #expect(seen.status != 401 && !missingCatalog, "\(context): \(seen.status) \(seen.body.prefix(200))")
            }
        }
    }

    @Test(arguments: engines)
    func listsHoldOnlyWhatTheRequesterMaySee(engine: TemporaryDatabase.Engine) throws {
        let fixture = try VisibilityFixture(engine)
        for requester in Requester.people {
            let expected = Self.visibilities.filter { Self.sees(requester, $0.value) }.keys.sorted()
            let list = try fixture.send(.get, "/api/v1/catalogs", as: requester)
            let catalogs = (list.object["catalogs"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(catalogs == expected, "\(requester), \(engine)")
            let visibilities = (list.object["catalogs"] as? [[String: Any]] ?? []).compactMap {
                $0["visibility"] as? String
            }
            #expect(visibilities == expected.map { Self.visibilities[$0]!.rawValue })
            if requester != .anonymous {
                #expect(list.headers["Cache-Control"] == "private, no-cache", "a list made for \(requester)")
            }
            // The web app's home page lists the same catalogs, by the session cookie.
            let home = try fixture.send(.get, "/", as: requester, bySession: true)
            #expect(home.status == 200)
            for catalog in Self.visibilities.keys {
                #expect(
                    home.text.contains("href=\"/c/\(catalog)\"") == expected.contains(catalog),
                    "\(catalog) on the home page of \(requester)")
            }
        }
        // The sitemap is for crawlers: public catalogs only, whoever asks.
        let sitemap = try fixture.send(.get, "/sitemap.xml", as: .admin)
        #expect(sitemap.text.contains("/sitemaps/products/0.xml"))
        #expect(!sitemap.text.contains("/sitemaps/cookbook/"))
        #expect(!sitemap.text.contains("/sitemaps/sequencers/"))
    }

    @Test(arguments: engines)
    func aMemberSignedInByCookieReadsWhatOthersCannotFind(engine: TemporaryDatabase.Engine) throws {
        let fixture = try VisibilityFixture(engine)
        let page = try fixture.send(.get, "/c/cookbook", as: .viewer, bySession: true)
        #expect(page.status == 200)
        #expect(page.headers["Cache-Control"] == "private, no-store")
        let api = try fixture.send(.get, "/api/v1/catalogs/cookbook/items", as: .viewer, bySession: true)
        #expect(api.status == 200)
        #expect(api.headers["Cache-Control"] == "private, no-cache")
        #expect(api.headers["Vary"]?.contains("Cookie") == true)
        // The server's response cache never serves a member's answer to anyone else.
        let anonymous = try fixture.send(.get, "/api/v1/catalogs/cookbook/items", as: .anonymous)
        #expect(anonymous.status == 404)
        // The 404 page offers the sign-in, and is the page of a catalog that does not exist.
        let hidden = try fixture.send(.get, "/c/cookbook", as: .anonymous)
        let missing = try fixture.send(.get, "/c/xxxxxxxx", as: .anonymous)
        #expect(hidden.status == 404)
        #expect(hidden.text.contains("href=\"/signin?next=%2Fc%2Fcookbook\""), "\(hidden.text)")
        #expect(
            hidden.text.replacingOccurrences(of: "cookbook", with: "{ID}")
                == missing.text.replacingOccurrences(of: "xxxxxxxx", with: "{ID}"))
        // Nor does the sign-in page name a hidden catalog it returns to.
        let signIn = try fixture.send(.get, "/signin?next=%2Fc%2Fcookbook", as: .anonymous)
        #expect(!signIn.text.contains("Szakácskönyv"))
        // The change feed's event stream is refused before it starts.
        let stream = try fixture.send(
            .get, "/api/v1/catalogs/cookbook/changes", as: .signedIn, headers: [("Accept", "text/event-stream")])
        #expect(stream.status == 404)
    }

    @Test(arguments: engines)
    func ownersSetTheVisibilityThroughTheAPI(engine: TemporaryDatabase.Engine) throws {
        let fixture = try VisibilityFixture(engine)
        let patch = [("Content-Type", "application/merge-patch+json")]
        let editor = try fixture.send(
            .patch, "/api/v1/catalogs/cookbook", as: .editor, headers: patch, body: #"{"visibility":"public"}"#)
        #expect(editor.status == 403)
        let wrong = try fixture.send(
            .patch, "/api/v1/catalogs/cookbook", as: .owner, headers: patch, body: #"{"visibility":"friends"}"#)
        #expect(wrong.status == 422)
        #expect(wrong.text.contains(#""pointer":"/visibility""#), "\(wrong.text)")
        let changed = try fixture.send(
            .patch, "/api/v1/catalogs/cookbook", as: .owner, headers: patch, body: #"{"visibility":"signed-in"}"#)
        #expect(changed.status == 200, "\(changed.text)")
        #expect(changed.object["visibility"] as? String == "signed-in")
        #expect(try fixture.send(.get, "/api/v1/catalogs/cookbook", as: .signedIn).status == 200)
        #expect(try fixture.send(.get, "/api/v1/catalogs/cookbook", as: .anonymous).status == 404)
        let opened = try fixture.send(
            .patch, "/api/v1/catalogs/cookbook", as: .admin, headers: patch, body: #"{"visibility":null}"#)
        #expect(opened.object["visibility"] as? String == "public")
        let shown = try fixture.send(.get, "/api/v1/catalogs/cookbook", as: .anonymous)
        #expect(shown.status == 200)
        #expect(shown.object["visibility"] as? String == "public")
    }

    @Test(arguments: engines)
    func favoritesInACatalogNoLongerSeenAreLeftOut(engine: TemporaryDatabase.Engine) throws {
        let fixture = try VisibilityFixture(engine)
        let item = try fixture.firstItem("cookbook")
        #expect(try fixture.send(.put, "/api/v1/favorites/cookbook/\(item)", as: .viewer).status == 204)
        #expect(try fixture.send(.put, "/api/v1/favorites/cookbook/\(item)", as: .signedIn).status == 404)
        let listed = try fixture.send(.get, "/api/v1/favorites", as: .viewer)
        #expect(listed.text.contains(#""catalog":"cookbook""#))
        try fixture.database { database in
            let users = try database.users()
            let viewer = try #require(try users.user(named: "viewer"))
            _ = try users.revoke(user: viewer.name, catalog: "cookbook")
        }
        let after = try fixture.send(.get, "/api/v1/favorites", as: .viewer)
        #expect(after.status == 200)
        #expect(!after.text.contains("cookbook"), "\(after.text)")
    }
}

/// The demo catalogs with their visibilities, five users with their roles, and the application.
final class VisibilityFixture {
    let temporary: TemporaryDatabase
    let application: CatalogApplication
    /// The same database served with `--compat-catalog` naming no catalog: what the original
    /// endpoints answer for a missing one.
    let missingCompat: CatalogApplication
    private var tokens: [CatalogVisibilityTests.Requester: String] = [:]
    private var cookies: [CatalogVisibilityTests.Requester: String] = [:]
    private var items: [String: String] = [:]
    private var categories: [String: String] = [:]
    private var categoryNumbers: [String: Int] = [:]
    private var images: [String: String] = [:]
    private var themes: [String: String] = [:]

    init(_ engine: TemporaryDatabase.Engine) throws {
        temporary = try TemporaryDatabase(engine: engine, prefix: "catalog-visibility")
        let database = temporary.database
        try ServerFixture.importDemos(into: database)
        let users = try database.users()
        let authenticator = Authenticator()
        for requester in CatalogVisibilityTests.Requester.people where requester != .anonymous {
            let added = try authenticator.addUser(
                name: requester.rawValue, isAdmin: requester == .admin, password: nil, in: users)
            tokens[requester] = added.token
            cookies[requester] = try authenticator.startSession(for: added.user, in: users)
            for catalog in CatalogVisibilityTests.visibilities.keys {
                if let role = requester.role {
                    _ = try users.grant(user: requester.rawValue, catalog: catalog, role: role)
                }
            }
        }
        for (catalog, visibility) in CatalogVisibilityTests.visibilities {
            let tint = RowTint(red: 180, green: 190, blue: 150)
            _ = try CatalogManagement.withICU.update(catalog, in: database) { current in
                var settings = current.settings
                settings.visibility = visibility
                settings.rowTint = tint
                return settings
            }
            let stored = try #require(try database.read { try $0.catalog(catalog) })
            let first = try #require(
                try database.read { try $0.items(of: stored, section: nil, after: nil, before: nil, limit: 1) }
                    .records().first)
            items[catalog] = first.id
            categories[catalog] = stored.categories.first?.name ?? "none"
            categoryNumbers[catalog] = stored.categories.first?.id ?? 0
            themes[catalog] = String(WebPaths.theme(catalog, tint: tint).split(separator: "/").last ?? "")
        }
        tokens.merge(try Self.makeKeys(in: database)) { _, key in key }
        var engineOptions = CatalogEngines.Options()
        engineOptions.server = true
        application = CatalogApplication(
            options: CatalogServerOptions(
                database: try CatalogEngines.open(temporary.location, options: engineOptions)),
            accessLog: nil, errorLog: { _ in })
        var missing = CatalogServerSettings()
        missing.compatCatalog = "xxxxxxxx"
        missingCompat = CatalogApplication(
            options: CatalogServerOptions(
                database: try CatalogEngines.open(temporary.location, options: engineOptions), missing),
            accessLog: nil, errorLog: { _ in })
        // A stored image in every catalog, for the image route.
        for catalog in CatalogVisibilityTests.visibilities.keys {
            let item = items[catalog] ?? ""
            let stored = try send(
                .put, "/api/v1/catalogs/\(catalog)/items/\(Self.encode(item))/image", as: .admin,
                headers: [("Content-Type", "image/png")], bytes: StoredImageAPITests.picture(.png))
            let path = try #require(stored.object["image"] as? String, "\(stored.text)")
            images[catalog] = String(path.dropFirst("/images/".count))
        }
    }

    deinit {
        application.close()
        missingCompat.close()
    }

    /// The keys of the signed-in account, for the three catalogs (the admin key for every one, as
    /// its action asks): one per action, one reading and searching German records only, one that
    /// expired an hour ago and one revoked.
    private static func makeKeys(in database: any CatalogDatabase) throws
        -> [CatalogVisibilityTests.Requester: String]
    {
        var tokens: [CatalogVisibilityTests.Requester: String] = [:]
        let users = try database.users()
        let catalogs = CatalogVisibilityTests.visibilities.keys.sorted()
        for requester in CatalogVisibilityTests.Requester.allCases where requester.isKey {
            let past = Date().addingTimeInterval(-3600)
            let authenticator = requester == .keyExpired ? Authenticator(clock: AuthClock { past }) : Authenticator()
            let actions = requester.isValidKey ? Array(requester.keyActions) : [.read]
            let made = try authenticator.addKey(
                name: requester.rawValue, user: CatalogVisibilityTests.Requester.signedIn.rawValue,
                catalogs: requester == .keyAdmin ? [StoredAPIKey.allCatalogs] : catalogs, actions: actions,
                lifetime: requester == .keyExpired ? .seconds(60) : nil,
                filter: requester == .keyFiltered ? "country = DE" : nil, in: users)
            tokens[requester] = made.text
            if requester == .keyRevoked { _ = try users.removeKey(named: requester.rawValue) }
        }
        return tokens
    }

    /// Runs `body` with a handle on the database of its own.
    func database<T>(_ body: (any CatalogDatabase) throws -> T) throws -> T {
        let database = try TemporaryDatabase.reopen(temporary)
        defer { database.close() }
        return try body(database)
    }

    func firstItem(_ catalog: String) throws -> String { Self.encode(items[catalog] ?? "") }

    /// A path segment, percent-encoded.
    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#%")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// What an answer shows, the catalog's id written `{ID}`: status, headers (but the `ETag`,
    /// which hashes the body, and the request's own id) and body.
    struct Answer: Equatable {
        var status: Int
        var headers: [String]
        var body: String
    }

    /// Asks the route `pattern` about `catalog` (or, `missing`, about a catalog of an id as long
    /// that does not exist) as `requester`, with parameters that exist for reads and change
    /// nothing for writes.
    func ask(
        _ method: HTTPMethod, _ pattern: String, catalog: String, as requester: CatalogVisibilityTests.Requester,
        missing: Bool = false
    ) throws -> Answer {
        let id = missing ? String(repeating: "x", count: catalog.count) : catalog
        let reads = method == .get
        var target = pattern
        let values: [String: String] = [
            "{id}": id, "{catalog}": id,
            "{item}": reads ? Self.encode(items[catalog] ?? "") : "no-such-item",
            // The web app names a category by its number, the API by its name.
            "{category}": pattern.hasPrefix("/c/")
                ? String(categoryNumbers[catalog] ?? 0) : Self.encode(categories[catalog] ?? ""),
            "{user}": reads ? "viewer" : "nobody", "{part}": "0.xml", "{file}": themes[catalog] ?? "",
            "{path...}": (images[catalog] ?? "").replacingOccurrences(of: "stored/\(catalog)/", with: "stored/\(id)/"),
        ]
        for (name, value) in values { target = target.replacingOccurrences(of: name, with: value) }
        switch pattern {
        case "/api/v1/catalogs/{id}/search": target += "?q=a"
        case "/getrecipesbycategory": target += "?catid=1"
        case "/getrecipe": target += "?recid=" + Self.encode(items[catalog] ?? "")
        default: break
        }
        var headers: [(String, String)] = []
        var body: [UInt8] = []
        if !reads {
            // A write that changes nothing: a condition no catalog or record meets, a body that
            // is no JSON.
            headers = [("If-Match", "\"visibility-test\""), ("Content-Type", "application/json")]
            body = Array("[".utf8)
        }
        let app = missing && CompatRoutes.cookbookEndpoints.contains(pattern) ? missingCompat : application
        let reply = try send(method, target, as: requester, headers: headers, bytes: body, application: app)
        let placeholder = { (text: String) in text.replacingOccurrences(of: id, with: "{ID}") }
        return Answer(
            status: reply.status,
            headers: reply.headers.filter { !["etag", "x-request-id"].contains($0.name.lowercased()) }.map {
                "\($0.name): \(placeholder($0.value))"
            },
            body: placeholder(reply.text))
    }

    /// Sends a request through the whole middleware chain, in process, with the requester's
    /// token (or, `bySession`, their web session cookie).
    func send(
        _ method: HTTPMethod, _ target: String, as requester: CatalogVisibilityTests.Requester,
        bySession: Bool = false, headers: [(String, String)] = [], body: String = "", bytes: [UInt8]? = nil,
        application: CatalogApplication? = nil
    ) throws -> ServerFixture.Reply {
        guard
            var request = Request(
                method: method, target: target, headers: HTTPHeaders(headers), body: bytes ?? Array(body.utf8))
        else { return ServerFixture.Reply(response: Response(status: .badRequest)) }
        if bySession, let cookie = cookies[requester] {
            request.headers.add("Cookie", "\(WebSession.sessionCookie)=\(cookie)")
        } else if let token = tokens[requester] {
            request.headers["Authorization"] = "Bearer \(token)"
        }
        let responder = (application ?? self.application).responder
        return ServerFixture.Reply(response: try responder.respond(to: request, context: RequestContext()))
    }
}
