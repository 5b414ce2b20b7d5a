import CatalogAuth
import CatalogHTTP
import CatalogModel
import CatalogCore
import CatalogStorage

/// The web app's pages: home, catalog list and search, detail, the cookbook's tabs, sign-in and
/// favorites, and the fingerprinted assets. Pages are rendered here from the same store the API
/// reads; the script (`Assets/`) only enhances them.
struct WebRoutes {
    let stores: any CatalogDatabase
    let authenticator: Authenticator
    let settings: WebSessionSettings
    let throttle: SignInThrottle

    func register(in routes: inout RouterBuilder) {
        let stores = stores
        let authenticator = authenticator
        let settings = settings
        let throttle = throttle
        @Sendable func session(_ request: Request) throws -> WebSession {
            try WebSession(request: request, stores: stores, authenticator: authenticator, settings: settings)
        }

        routes.get("/") { request, _ in
            let store = try stores.reader()
            return HomePage(catalogs: try store.catalogs(), session: try session(request)).render()
        }
        routes.get("/c/{id}") { request, context in
            let store = try stores.reader()
            let catalog = try store.catalogOr404(context.parameter("id"))
            let definition = catalog.definition
            let strings = WebStrings.forLocale(definition.locale)
            let page = ListPage(
                store: store, catalog: catalog, session: try session(request),
                tabs: CollectionPages.tabs(for: definition, strings: strings, selected: "all"))
            return try page.render(try ListPage.State(request))
        }
        routes.get("/c/{id}/i/{item}") { request, context in
            let store = try stores.reader()
            let catalog = try store.catalogOr404(context.parameter("id"))
            let definition = catalog.definition
            guard let record = try store.item(of: catalog, id: context.parameter("item"))?.record() else {
                throw HTTPError.notFound("no such record")
            }
            let session = try session(request)
            var isFavorite: Bool?
            if !definition.categories.isEmpty {
                isFavorite =
                    try session.user.map { user in
                        try stores.users().favorites(ofUser: user.id).contains {
                            $0.catalog == definition.id && $0.item == record.id
                        }
                    } ?? false
            }
            let origin = try DetailPage.Origin(request)
            let strings = WebStrings.forLocale(definition.locale)
            let base = WebPaths.catalog(definition.id)
            var back = (href: base + origin.query, label: definition.title)
            switch origin.via {
            case "hot": back = (base + "/hot", strings.hot)
            case "favorites": back = (base + "/favorites", strings.favorites)
            case "categories": back = (base + "/categories", strings.categories)
            default:
                if let number = origin.category,
                    let category = catalog.categories.first(where: { $0.id == number })
                {
                    back = (base + "/categories/\(number)", category.name)
                }
            }
            return DetailPage(
                definition: definition, record: record, session: session, isFavorite: isFavorite,
                tabs: CollectionPages.tabs(for: definition, strings: strings, selected: origin.tab), origin: origin,
                back: back
            ).render()
        }
        routes.on(.post, "/c/{id}/i/{item}/favorite") { request, context in
            let fields = try WebSession.formFields(request)
            let session = try session(request)
            try session.checkForm(request, fields: fields)
            let id = context.parameter("id")
            let item = context.parameter("item")
            let here = WebPaths.item(id, item) + (try DetailPage.Origin(request)).query
            guard let user = session.user else {
                return Self.redirect("/signin?next=" + WebPaths.encode(here))
            }
            let reader = try stores.reader()
            guard try reader.item(of: reader.catalogOr404(id), id: item) != nil else {
                throw HTTPError.notFound("no such record")
            }
            let users = try stores.users()
            _ =
                fields["favorite"] == "0"
                ? try users.removeFavorite(userID: user.id, catalog: id, item: item)
                : try users.addFavorite(userID: user.id, catalog: id, item: item)
            return Self.redirect(here)
        }
        routes.get("/c/{id}/hot") { request, context in
            let store = try stores.reader()
            let catalog = try store.catalogOr404(context.parameter("id"))
            let definition = catalog.definition
            let strings = WebStrings.forLocale(definition.locale)
            let records = try store.featured(of: catalog, limit: 500).map { try $0.record() }
            return CollectionPages.records(
                records, title: strings.hot, definition: definition, session: try session(request), tab: "hot",
                back: ("/", strings.catalogs), here: WebPaths.catalog(definition.id) + "/hot", via: "hot",
                empty: strings.noResults)
        }
        routes.get("/c/{id}/categories") { request, context in
            let catalog = try stores.reader().catalogOr404(context.parameter("id"))
            return CollectionPages.categories(
                catalog.categories, definition: catalog.definition, session: try session(request))
        }
        routes.get("/c/{id}/categories/{category}") { request, context in
            let store = try stores.reader()
            let catalog = try store.catalogOr404(context.parameter("id"))
            let definition = catalog.definition
            let strings = WebStrings.forLocale(definition.locale)
            guard let number = Int(context.parameter("category")),
                let category = catalog.categories.first(where: { $0.id == number })
            else { throw HTTPError.notFound("no such category") }
            let records = try store.records(of: catalog, category: category.name, limit: 2000)
            return CollectionPages.records(
                records, title: category.name, definition: definition, session: try session(request), tab: "categories",
                back: (WebPaths.catalog(definition.id) + "/categories", strings.categories),
                here: WebPaths.catalog(definition.id) + "/categories/\(number)", via: "categories/\(number)",
                empty: strings.noResults)
        }
        routes.get("/c/{id}/favorites") { request, context in
            let store = try stores.reader()
            let catalog = try store.catalogOr404(context.parameter("id"))
            let definition = catalog.definition
            let strings = WebStrings.forLocale(definition.locale)
            let session = try session(request)
            let here = WebPaths.catalog(definition.id) + "/favorites"
            guard let user = session.user else { return Self.redirect("/signin?next=" + WebPaths.encode(here)) }
            let records = try stores.users().favorites(ofUser: user.id).filter { $0.catalog == definition.id }
                .compactMap { try store.item(of: catalog, id: $0.item)?.record() }
            return CollectionPages.records(
                records, title: strings.favorites, definition: definition, session: session, tab: "favorites",
                back: ("/", strings.catalogs), here: here, via: "favorites", empty: strings.noFavorites)
        }
        routes.get("/signin") { request, _ in
            SignInPage(session: try session(request), next: SignInPage.safeNext(request.query("next")), outcome: .form)
                .render()
        }
        // Password checks cost about 0.1 s of CPU each: CatalogApplication runs this route on the
        // HTTP server's offload threads, never on an event-loop worker, unless it is throttled.
        routes.on(.post, "/signin") { request, _ in
            let fields = try WebSession.formFields(request)
            let session = try session(request)
            try session.checkForm(request, fields: fields)
            let next = SignInPage.safeNext(fields["next"])
            let name = fields["name"] ?? ""
            let password = fields["password"] ?? ""
            guard !name.isEmpty, !password.isEmpty, password.utf8.count <= 1024 else {
                return SignInPage(session: session, next: next, outcome: .failed).render()
            }
            if case .locked(let seconds) = throttle.check(account: name, address: request.clientAddress) {
                return SignInPage(session: session, next: next, outcome: .locked(retryAfter: seconds)).render()
            }
            guard let user = try authenticator.user(name: name, password: password, in: stores.users()) else {
                throttle.recordFailure(account: name, address: request.clientAddress)
                return SignInPage(session: session, next: next, outcome: .failed).render()
            }
            throttle.recordSuccess(account: name, address: request.clientAddress)
            let cookie = try authenticator.startSession(for: user, in: stores.users())
            var response = Self.redirect(next)
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
            return response
        }
        routes.get("/assets/{name}") { _, context in
            guard let asset = WebAssets.all.first(where: { $0.name == context.parameter("name") }) else {
                throw HTTPError.notFound("no such asset")
            }
            return Response(
                status: .ok,
                headers: HTTPHeaders([
                    ("Content-Type", asset.contentType), ("Cache-Control", "public, max-age=31536000, immutable"),
                ]), body: asset.bytes)
        }
    }

    /// 303 See Other: after a form, the browser GETs `location`.
    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: HTTPHeaders([("Location", location), ("Cache-Control", "no-store")]))
    }
}
