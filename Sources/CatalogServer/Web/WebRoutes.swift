import CatalogAuth
import CatalogCore
import CatalogHTTP
import CatalogModel
import CatalogStorage
import Foundation

/// The web app's pages: home, catalog and category lists with search, detail, the cookbook's
/// tabs, sign-in and favorites, and what makes it an installable app that works offline (the
/// manifest, the service worker, the offline pages), the catalogs' own stylesheets, and the
/// sitemap. Pages are rendered here from the same store the API reads; the script (`Assets/`)
/// only enhances them.
struct WebRoutes {
    let stores: any CatalogDatabase
    let authenticator: Authenticator
    let settings: WebSessionSettings
    let throttle: SignInThrottle
    let baseURL: BaseURL

    func register(in routes: inout RouterBuilder) {
        let stores = stores
        let authenticator = authenticator
        let settings = settings
        let throttle = throttle
        let baseURL = baseURL
        @Sendable func session(_ request: Request) throws -> WebSession {
            try WebSession(request: request, stores: stores, authenticator: authenticator, settings: settings)
        }

        routes.get("/") { request, _ in
            return try stores.read { store in
                return HomePage(
                    catalogs: try store.catalogs(), session: try session(request),
                    strings: WebStrings.negotiate(request.headers["Accept-Language"])
                ).render()
            }
        }
        routes.get("/c/{id}") { request, context in
            return try stores.read { store in
                let catalog = try store.catalogOr404(context.parameter("id"))
                let strings = WebStrings.forLocale(catalog.definition.locale)
                let page = ListPage(
                    store: store, catalog: catalog, session: try session(request),
                    tabs: CollectionPages.tabs(for: catalog.definition, strings: strings, selected: "all"))
                return try page.render(try ListState(request))
            }
        }
        // The rows a list's script fetches, drawn by the same RowView as the pages' rows.
        routes.get("/c/{id}" + RowsFragment.suffix) { request, context in
            return try stores.read { store in
                return try RowsFragment(store: store, catalog: try store.catalogOr404(context.parameter("id")))
                    .render(request)
            }
        }
        routes.get("/c/{id}/categories/{category}" + RowsFragment.suffix) { request, context in
            return try stores.read { store in
                let catalog = try store.catalogOr404(context.parameter("id"))
                guard let number = Int(context.parameter("category")),
                    let category = catalog.categories.first(where: { $0.id == number })
                else { throw HTTPError.notFound("no such category") }
                return try RowsFragment(store: store, catalog: catalog, category: category).render(request)
            }
        }
        routes.get("/c/{id}/i/{item}") { request, context in
            return try stores.read { store in
                let catalog = try store.catalogOr404(context.parameter("id"))
                let definition = catalog.definition
                guard let record = try store.item(of: catalog, id: context.parameter("item"))?.record() else {
                    throw HTTPError.notFound("no such record")
                }
                let session = try session(request)
                let isFavorite =
                    try session.user.map { user in
                        try stores.users().favorites(ofUser: user.id).contains {
                            $0.catalog == definition.id && $0.item == record.id
                        }
                    } ?? false
                let origin = try DetailPage.Origin(request)
                let strings = WebStrings.forLocale(definition.locale)
                var back = (href: WebPaths.catalog(definition.id) + origin.list.backQuery, label: definition.title)
                switch origin.via {
                case "hot": back = (WebPaths.catalog(definition.id) + "/hot", strings[.hot])
                case "favorites": back = (WebPaths.catalog(definition.id) + "/favorites", strings[.favorites])
                case "categories": back = (WebPaths.catalog(definition.id) + "/categories", strings[.categories])
                default:
                    if let number = origin.category, let category = catalog.categories.first(where: { $0.id == number }) {
                        back = (WebPaths.category(definition.id, number) + origin.list.backQuery, category.name)
                    }
                }
                return DetailPage(
                    definition: definition, record: record, session: session, isFavorite: isFavorite,
                    tabs: CollectionPages.tabs(for: definition, strings: strings, selected: origin.tab), origin: origin,
                    back: back, url: baseURL.resolve(for: request) + WebPaths.item(definition.id, record.id)
                ).render()
            }
        }
        // The favorite button: a form (303 back to the page, for browsers without the script) or,
        // from the script, a fetch that is answered 204, so no history entry is added.
        routes.on(.post, "/c/{id}/i/{item}/favorite") { request, context in
            let fields = try WebSession.formFields(request)
            let session = try session(request)
            try session.checkForm(request, fields: fields)
            let id = context.parameter("id")
            let item = context.parameter("item")
            let here = WebPaths.item(id, item) + (try DetailPage.Origin(request)).query
            let fromScript = request.headers["Accept"]?.contains("application/json") == true
            guard let user = session.user else {
                if fromScript { throw HTTPError(.unauthorized, code: "unauthorized", "sign in first") }
                return Self.redirect("/signin?next=" + WebPaths.encode(here))
            }
            return try stores.read { reader in
                guard try reader.item(of: reader.catalogOr404(id), id: item) != nil else {
                    throw HTTPError.notFound("no such record")
                }
                let users = try stores.users()
                _ =
                    fields["favorite"] == "0"
                    ? try users.removeFavorite(userID: user.id, catalog: id, item: item)
                    : try users.addFavorite(userID: user.id, catalog: id, item: item)
                return fromScript ? Response(status: .noContent) : Self.redirect(here)
            }
        }
        routes.get("/c/{id}/hot") { request, context in
            return try stores.read { store in
                let catalog = try store.catalogOr404(context.parameter("id"))
                let definition = catalog.definition
                let strings = WebStrings.forLocale(definition.locale)
                let records = try store.featured(of: catalog, limit: 500).map { try $0.record() }
                return CollectionPages.records(
                    records, title: strings[.hot], definition: definition, session: try session(request), tab: "hot",
                    here: WebPaths.catalog(definition.id) + "/hot", via: "hot", empty: strings[.noResults])
            }
        }
        routes.get("/c/{id}/categories") { request, context in
            let catalog = try stores.read { try $0.catalogOr404(context.parameter("id")) }
            return CollectionPages.categories(
                catalog.categories, definition: catalog.definition, session: try session(request))
        }
        routes.get("/c/{id}/categories/{category}") { request, context in
            return try stores.read { store in
                let catalog = try store.catalogOr404(context.parameter("id"))
                let strings = WebStrings.forLocale(catalog.definition.locale)
                guard let number = Int(context.parameter("category")),
                    let category = catalog.categories.first(where: { $0.id == number })
                else { throw HTTPError.notFound("no such category") }
                let page = ListPage(
                    store: store, catalog: catalog, session: try session(request),
                    tabs: CollectionPages.tabs(for: catalog.definition, strings: strings, selected: "categories"),
                    category: category)
                return try page.render(try ListState(request))
            }
        }
        routes.get("/c/{id}/favorites") { request, context in
            return try stores.read { store in
                let catalog = try store.catalogOr404(context.parameter("id"))
                let definition = catalog.definition
                let strings = WebStrings.forLocale(definition.locale)
                let session = try session(request)
                let here = WebPaths.catalog(definition.id) + "/favorites"
                guard let user = session.user else {
                    // Signed out: the favorites kept in this browser, which the script shows.
                    return CollectionPages.records(
                        [], title: strings[.favorites], definition: definition, session: session, tab: "favorites",
                        here: here, via: "favorites", empty: strings[.noFavorites], note: strings[.favoritesOnDevice],
                        local: true)
                }
                let records = try stores.users().favorites(ofUser: user.id).filter { $0.catalog == definition.id }
                    .compactMap { try store.item(of: catalog, id: $0.item)?.record() }
                return CollectionPages.records(
                    records, title: strings[.favorites], definition: definition, session: session, tab: "favorites",
                    here: here, via: "favorites", empty: strings[.noFavorites])
            }
        }
        routes.get("/signin") { request, _ in
            let next = SignInPage.safeNext(request.query("next"))
            let (strings, catalog) = try Self.language(of: next, request: request, stores: stores)
            return SignInPage(
                session: try session(request), next: next, outcome: .form, strings: strings, catalog: catalog
            ).render()
        }
        // Password checks cost about 0.1 s of CPU each: CatalogApplication runs this route on the
        // HTTP server's offload threads, never on an event-loop worker, unless it is throttled.
        routes.on(.post, "/signin") { request, _ in
            let fields = try WebSession.formFields(request)
            let session = try session(request)
            try session.checkForm(request, fields: fields)
            let next = SignInPage.safeNext(fields["next"])
            let (strings, catalog) = try Self.language(of: next, request: request, stores: stores)
            func page(_ outcome: SignInPage.Outcome) -> Response {
                SignInPage(session: session, next: next, outcome: outcome, strings: strings, catalog: catalog).render()
            }
            let name = fields["name"] ?? ""
            let password = fields["password"] ?? ""
            guard !name.isEmpty, !password.isEmpty, password.utf8.count <= 1024 else { return page(.failed) }
            if case .locked(let seconds) = throttle.check(account: name, address: request.clientAddress) {
                return page(.locked(retryAfter: seconds))
            }
            guard let user = try authenticator.user(name: name, password: password, in: stores.users()) else {
                throttle.recordFailure(account: name, address: request.clientAddress)
                return page(.failed)
            }
            throttle.recordSuccess(account: name, address: request.clientAddress)
            try Self.mergeFavorites(fields["favorites"], user: user, stores: stores)
            let cookie = try authenticator.startSession(for: user, in: stores.users())
            var response = Self.redirect(next)
            // Whatever this browser kept from whoever used it before is dropped.
            response.headers.add("Clear-Site-Data", Self.clearSiteData)
            response.headers.add(
                "Set-Cookie",
                settings.cookie(WebSession.sessionCookie, cookie, sameSite: "Lax", maxAge: Int(WebSession.lifetime)))
            // Forms are bound to the new session from now on: the token from before is spent.
            response.headers.add(
                "Set-Cookie", settings.cookie(WebSession.csrfCookie, "", sameSite: "Strict", maxAge: 0))
            return response
        }
        routes.on(.post, "/signout") { request, _ in
            let fields = try WebSession.formFields(request)
            let session = try session(request)
            try session.checkForm(request, fields: fields)
            if let cookie = session.cookie {
                try authenticator.endSession(cookie: cookie, in: stores.users())
            }
            var response = Self.redirect("/")
            response.headers.add(
                "Set-Cookie", settings.cookie(WebSession.sessionCookie, "", sameSite: "Lax", maxAge: 0))
            // The browser's HTTP cache goes with the session; the service worker empties its own
            // page caches when it sees this form (and the page tells it too).
            response.headers.add("Clear-Site-Data", Self.clearSiteData)
            return response
        }
        routes.get("/assets/{name}") { _, context in
            try Self.asset("/assets/" + context.parameter("name"))
        }
        // The script's modules, in the folder named after all of them (`{name}` is the folder's).
        routes.get("/assets/{name}/{file}") { _, context in
            try Self.asset("/assets/" + context.parameter("name") + "/" + context.parameter("file"))
        }
        routes.get("/manifest.webmanifest") { _, _ in
            Self.file(WebAssets.manifest, type: "application/manifest+json", caching: "public, max-age=86400")
        }
        routes.get("/sw.js") { _, _ in
            // Never cached by HTTP: browsers compare it byte for byte to find a new version.
            var response = Self.file(
                WebAssets.serviceWorker, type: "text/javascript; charset=utf-8", caching: "no-cache")
            response.headers.add("Service-Worker-Allowed", "/")
            return response
        }
        routes.get("/offline/{language}") { _, context in
            let language = context.parameter("language")
            guard WebStrings.supported.contains(language) else { throw HTTPError.notFound("no such language") }
            return OfflinePage.render(WebStrings.forLocale(language))
        }
        routes.get("/themes/{id}/{file}") { _, context in
            let definition = try stores.read { try $0.catalogOr404(context.parameter("id")).definition }
            guard let tint = definition.rowTint,
                WebPaths.theme(definition.id, tint: tint).hasSuffix("/" + context.parameter("file"))
            else { throw HTTPError.notFound("no such stylesheet") }
            return Response(
                status: .ok,
                headers: HTTPHeaders([
                    ("Content-Type", "text/css; charset=utf-8"),
                    ("Cache-Control", "public, max-age=31536000, immutable"),
                ]), body: Array(ThemeStylesheet.css(tint: tint).utf8))
        }
        routes.get("/robots.txt") { request, _ in
            Response.text("User-agent: *\nAllow: /\nSitemap: \(baseURL.resolve(for: request))/sitemap.xml\n")
        }
        Sitemap(stores: stores, baseURL: baseURL).register(in: &routes)
    }

    /// The language of a sign-in page: that of the catalog it returns to, else the browser's; and
    /// that catalog, for its tabs.
    static func language(of next: String, request: Request, stores: any CatalogDatabase) throws -> (
        WebStrings, CatalogDefinition?
    ) {
        let segments = next.split(separator: "?", maxSplits: 1).first?.split(separator: "/") ?? []
        if segments.count >= 2, segments[0] == "c",
            let catalog = try stores.read({ try $0.catalog(String(segments[1]).removingPercentEncoding ?? "") })
        {
            return (WebStrings.forLocale(catalog.definition.locale), catalog.definition)
        }
        return (WebStrings.negotiate(request.headers["Accept-Language"]), nil)
    }

    /// Adds the favorites a browser kept while signed out (`[["catalog","item"],…]`, at most 500)
    /// to the account; entries whose record does not exist are left out.
    static func mergeFavorites(_ field: String?, user: User, stores: any CatalogDatabase) throws {
        guard let field, !field.isEmpty, field.utf8.count <= 200_000,
            let list = try? CatalogJSONDecoder().decode([[String]].self, from: Array(field.utf8))
        else { return }
        try stores.read { reader in
            let users = try stores.users()
            for entry in list.prefix(500) where entry.count == 2 {
                guard let catalog = try reader.catalog(entry[0]), try reader.item(of: catalog, id: entry[1]) != nil else {
                    continue
                }
                _ = try users.addFavorite(userID: user.id, catalog: entry[0], item: entry[1])
            }
        }
    }

    /// What sign-in and sign-out clear in the browser: its HTTP cache. Not `"storage"`, which
    /// would also remove the service worker (the app offline) and the favorites an anonymous
    /// visitor keeps; the worker and the page script clear what is personal there.
    static let clearSiteData = "\"cache\""

    /// A year, for files whose name changes with their content.
    static let immutable = "public, max-age=31536000, immutable"

    /// The asset served at `path`, cached for a year (its name changes with its content).
    static func asset(_ path: String) throws -> Response {
        guard let asset = WebAssets.byPath[path] else { throw HTTPError.notFound("no such asset") }
        return file(asset.bytes, type: asset.contentType, caching: immutable)
    }

    /// A file's bytes with its type and caching.
    static func file(_ bytes: [UInt8], type: String, caching: String) -> Response {
        Response(status: .ok, headers: HTTPHeaders([("Content-Type", type), ("Cache-Control", caching)]), body: bytes)
    }

    /// 303 See Other: after a form, the browser GETs `location`.
    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: HTTPHeaders([("Location", location), ("Cache-Control", "no-store")]))
    }
}
