import CatalogAuth
import CatalogCore
import CatalogHTTP
import CatalogStorage

/// The web app's pages: home, catalog and category lists with search, detail, the record
/// editor, the cookbook's tabs, sign-in and favorites, and what makes it an installable app that works offline (the
/// manifest, the service worker, the offline pages), the catalogs' own stylesheets, and the
/// sitemap. Pages are rendered by the handlers in `Handlers/` from the same store the API reads;
/// the script (`Assets/`) only enhances them.
struct WebRoutes: Sendable {
    let stores: any CatalogDatabase
    let authenticator: Authenticator
    let settings: WebSessionSettings
    let throttle: SignInThrottle
    /// Where sign-ins, sign-outs and refusals are recorded.
    let audit: AuditLog
    let baseURL: BaseURL
    /// The API's record changes, which the editor's changes are (``EditHandler``).
    let records: RecordsAPI
    /// The API's import preview and jobs, which a new catalog's are (``OwnerHandler``).
    let imports: ImportAPI
    /// The API's changes and deletions of catalogs, which the settings page's are.
    let management: CatalogManagementAPI
    /// The home page's catalog pictures, kept per catalog version.
    let covers = CatalogCovers()
    /// The locales catalogs may have.
    var catalogManagement: CatalogManagement { management.management }

    /// Pages read the visitor's session: a signed-in visitor sees their name and favorites.
    static let page = RouteOptions(authentication: .optional)

    /// Every route of the web app, with its handler and its options.
    func register(in routes: inout RouterBuilder) {
        let page = Self.page
        let home = HomeHandler(web: self)
        routes.get("/", options: page, home.home)
        routes.get("/search", options: page, home.search)

        let lists = CatalogPageHandler(web: self)
        routes.get("/c/{id}", options: page, lists.catalog)
        routes.get("/c/{id}" + RowsFragment.suffix, lists.catalogRows)
        routes.get("/c/{id}/categories/{category}", options: page, lists.category)
        routes.get("/c/{id}/categories/{category}" + RowsFragment.suffix, lists.categoryRows)

        let items = ItemPageHandler(web: self)
        routes.get("/c/{id}/i/{item}", options: page, items.item)
        routes.on(.post, "/c/{id}/i/{item}/favorite", options: page, items.favorite)

        let editor = EditHandler(web: self)
        routes.get("/c/{id}/i/{item}/edit", options: page, editor.edit)
        routes.get("/c/{id}/new", options: page, editor.new)
        routes.on(.put, "/c/{id}/i/{item}", options: EditHandler.change, editor.save)
        routes.on(.delete, "/c/{id}/i/{item}", options: EditHandler.change, editor.delete)
        routes.on(.put, "/c/{id}/i/{item}/image", options: EditHandler.image, editor.saveImage)

        let owner = OwnerHandler(web: self)
        let upload = OwnerHandler.upload(maxBytes: imports.maxUploadBytes)
        routes.get("/new", options: page, owner.newCatalog)
        routes.on(.post, "/c/{id}/import/preview", options: upload, owner.preview)
        routes.on(.post, "/c/{id}/import", options: upload, owner.startImport)
        routes.get("/imports/{job}", options: page, owner.job)
        routes.get("/c/{id}/settings", options: page, owner.settings)
        routes.on(.patch, "/c/{id}/settings", options: OwnerHandler.change, owner.changeSettings)
        routes.on(.delete, "/c/{id}/settings", options: OwnerHandler.change, owner.deleteCatalog)

        let collections = CollectionHandler(web: self)
        routes.get("/c/{id}/hot", options: page, collections.hot)
        routes.get("/c/{id}/categories", options: page, collections.categories)
        routes.get("/c/{id}/favorites", options: page, collections.favorites)

        let signIn = SignInHandler(web: self)
        let throttle = throttle
        routes.get("/signin", options: page, signIn.form)
        // Password checks run on the password lane, never on an event-loop worker, unless the
        // throttle refuses the attempt (then the page says so at once).
        let passwordCheck = RouteOptions(
            lane: RouteLane(ServerLanes.passwords) { SignInHandler.isPasswordCheck($0, throttle: throttle) },
            authentication: .optional, rateClass: .signIn)
        routes.on(.post, "/signin", options: passwordCheck, signIn.signIn)
        routes.on(.post, "/signout", options: page, signIn.signOut)

        let assets = AssetHandler(web: self)
        routes.get("/assets/{name}", assets.asset)
        routes.get("/assets/{name}/{file}", assets.module)
        routes.get("/manifest.webmanifest", assets.manifest)
        routes.get("/sw.js", assets.serviceWorker)
        routes.get("/offline/{language}", assets.offline)
        routes.get("/themes/{id}/{file}", assets.theme)

        let sitemap = Sitemap(stores: stores, baseURL: baseURL)
        routes.get("/robots.txt", sitemap.robots)
        routes.get("/sitemap.xml", sitemap.index)
        routes.get("/sitemaps/{catalog}/{part}", sitemap.part)
    }

    /// What sign-in and sign-out clear in the browser: its HTTP cache. Not `"storage"`, which
    /// would also remove the service worker (the app offline) and the favorites an anonymous
    /// visitor keeps; the worker and the page script clear what is personal there.
    static let clearSiteData = "\"cache\""

    /// A year, for files whose name changes with their content.
    static let immutable = "public, max-age=31536000, immutable"

    /// A file's bytes with its type and caching.
    static func file(_ bytes: [UInt8], type: String, caching: String) -> Response {
        Response(status: .ok, headers: HTTPHeaders([("Content-Type", type), ("Cache-Control", caching)]), body: bytes)
    }

    /// 303 See Other: after a form, the browser GETs `location`.
    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: HTTPHeaders([("Location", location), ("Cache-Control", "no-store")]))
    }
}
