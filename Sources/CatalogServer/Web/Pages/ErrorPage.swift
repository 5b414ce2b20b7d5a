import CatalogHTTP
import CatalogModel
import CatalogStorage

/// Errors of web pages as pages in the reader's language: the catalog's language under
/// `/c/{id}/` when the catalog is public, else the best match of `Accept-Language` (a hidden
/// catalog's page must be the page of a missing one); a 404 to a visitor who is not signed in
/// offers the sign-in, since a member may just not be signed in (the API and the original endpoints keep
/// their JSON errors). The page names the problem in general words; the server's own message,
/// which is English and may name internals, stays in the log and the API.
struct ErrorPage: Sendable {
    let stores: any CatalogDatabase

    func render(_ error: HTTPError, _ request: Request) -> Response {
        let path = request.rawPath
        if path.hasPrefix("/api/") || path.hasPrefix("/get") || path.hasPrefix("/catalogs/")
            || path.hasPrefix("/images/") || path.hasPrefix("/assets/") || path.hasPrefix("/sitemap")
            || Self.isScriptChange(request)
        {
            return ErrorMiddleware.json(error, request)
        }
        let catalog = Self.publicCatalog(for: request, stores: stores)
        let strings =
            catalog.map { WebStrings.forLocale($0.locale) }
            ?? WebStrings.negotiate(request.headers["Accept-Language"])
        let key: WebStrings.Key =
            switch error.status.rawValue {
            case 400: .error400
            case 401: .error401
            case 403: .error403
            case 404: .error404
            case 405: .error405
            case 413: .error413
            case 415: .error415
            case 429: .error429
            case 503: .error503
            default: .error500
            }
        // Inside a public catalog (a record or category that is not there), the page keeps the
        // catalog's tab bar and leads back to it.
        let inside = catalog != nil && request.segments.count > 2
        let back = inside ? catalog.map { (WebPaths.catalog($0.id), $0.title) } : nil
        let layout = PageLayout(
            title: strings[.errorTitle], strings: strings, back: back ?? ("/", strings[.catalogs]),
            catalog: inside ? catalog : nil,
            tabs: inside ? catalog.map { CollectionPages.tabs(for: $0, strings: strings, selected: "") } ?? [] : [])
        var response = layout.render(status: error.status) { html in
            html.open("div", ["class": "error-page"])
            html.element("p", ["class": "error-status"], text: String(error.status.rawValue))
            html.element("p", ["class": "error-text", "id": "error-text"], text: strings[key])
            if let back {
                html.element("p") { $0.element("a", ["href": back.0, "id": "error-back"], text: back.1) }
            }
            html.element("p") { $0.element("a", ["href": "/"], text: strings[.catalogs]) }
            if error.status == .notFound, !WebSession.carriesSession(request) {
                let next = WebPaths.encode(request.rawTarget)
                html.element("p") { $0.element("a", ["href": "/signin?next=" + next], text: strings[.signIn]) }
            }
            html.close("div")
        }
        for (name, value) in error.headers { response.headers.add(name, value) }
        return response
    }

    /// A change the page's script sent (the editor's `PUT` and `DELETE`, a favorite's `POST`
    /// asking for JSON): its error is JSON too, for the script to read (a 412's ETag, a 422's
    /// problems).
    static func isScriptChange(_ request: Request) -> Bool {
        request.method != .get && request.method != .head
            && request.headers["Accept"]?.contains("application/json") == true
    }

    /// The catalog's language for a path under `/c/{id}` of a public catalog, else the browser's.
    static func strings(for request: Request, stores: any CatalogDatabase) -> WebStrings {
        publicCatalog(for: request, stores: stores).map { WebStrings.forLocale($0.locale) }
            ?? WebStrings.negotiate(request.headers["Accept-Language"])
    }

    /// The definition of the public catalog a path under `/c/{id}` names, nil for any other path
    /// or catalog (a hidden catalog's page must be the page of a missing one).
    static func publicCatalog(for request: Request, stores: any CatalogDatabase) -> CatalogDefinition? {
        let segments = request.segments
        guard segments.count >= 2, segments[0] == "c",
            let catalog = try? stores.read({ try $0.catalog(segments[1]) }),
            catalog.definition.visibility == .public
        else { return nil }
        return catalog.definition
    }
}

/// `/offline/{language}`: what the service worker shows for a page that was not saved.
enum OfflinePage {
    static func render(_ strings: WebStrings) -> Response {
        let layout = PageLayout(title: strings[.offlineTitle], strings: strings, back: ("/", strings[.catalogs]))
        var response = layout.render { html in
            html.open("div", ["class": "error-page offline-page"])
            html.element("p", ["class": "error-text", "id": "offline-text"], text: strings[.offlineText])
            html.element("p") {
                $0.element(
                    "button", ["type": "button", "class": "retry", "id": "offline-retry"], text: strings[.retry])
            }
            html.close("div")
        }
        response.headers["Cache-Control"] = "no-cache"
        return response
    }
}
