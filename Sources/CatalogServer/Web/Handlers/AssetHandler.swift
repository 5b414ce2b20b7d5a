import CatalogCore
import CatalogHTTP
import CatalogModel
import CatalogStorage

/// The files that make the web app: its script and stylesheet assets, what makes it installable
/// and work offline (the manifest, the service worker, the offline pages), and the catalogs' own
/// stylesheets.
struct AssetHandler: WebHandler {
    let web: WebRoutes

    /// `GET /assets/{name}`.
    func asset(_ request: Request, _ context: RequestContext) throws -> Response {
        try Self.asset("/assets/" + context.require("name", as: String.self))
    }

    /// `GET /assets/{name}/{file}`: the script's modules, in the folder named after all of them
    /// (`{name}` is the folder's).
    func module(_ request: Request, _ context: RequestContext) throws -> Response {
        try Self.asset(
            "/assets/" + context.require("name", as: String.self) + "/" + context.require("file", as: String.self))
    }

    /// `GET /manifest.webmanifest?lang=hu`: in the page's language (the browser's without `lang`).
    func manifest(_ request: Request, _ context: RequestContext) throws -> Response {
        let language =
            request.query("lang").flatMap { WebStrings.supported.contains($0) ? $0 : nil }
            ?? WebStrings.negotiate(request.headers["Accept-Language"]).language
        var response = WebRoutes.file(
            WebAssets.manifest(language: language), type: "application/manifest+json",
            caching: "public, max-age=86400")
        if request.query("lang") == nil { response.headers.add("Vary", "Accept-Language") }
        return response
    }

    /// `GET /sw.js`: never cached by HTTP, since browsers compare it byte for byte to find a new
    /// version.
    func serviceWorker(_ request: Request, _ context: RequestContext) throws -> Response {
        var response = WebRoutes.file(
            WebAssets.serviceWorker, type: "text/javascript; charset=utf-8", caching: "no-cache")
        response.headers.add("Service-Worker-Allowed", "/")
        return response
    }

    /// `GET /offline/{language}`.
    func offline(_ request: Request, _ context: RequestContext) throws -> Response {
        let language = try context.require("language", as: String.self)
        guard WebStrings.supported.contains(language) else { throw HTTPError.notFound("no such language") }
        return OfflinePage.render(WebStrings.forLocale(language))
    }

    /// `GET /themes/{id}/{file}`: a catalog's row tint.
    func theme(_ request: Request, _ context: RequestContext) throws -> Response {
        let definition = try stores.read { try $0.catalogOr404(context.require("id", as: String.self)).definition }
        guard let tint = definition.rowTint,
            WebPaths.theme(definition.id, tint: tint).hasSuffix("/" + (try context.require("file", as: String.self)))
        else { throw HTTPError.notFound("no such stylesheet") }
        return Response(
            status: .ok,
            headers: HTTPHeaders([
                ("Content-Type", "text/css; charset=utf-8"),
                ("Cache-Control", "public, max-age=31536000, immutable"),
            ]), body: Array(ThemeStylesheet.css(tint: tint).utf8))
    }

    /// The asset served at `path`, cached for a year (its name changes with its content).
    static func asset(_ path: String) throws -> Response {
        guard let asset = WebAssets.byPath[path] else { throw HTTPError.notFound("no such asset") }
        return WebRoutes.file(asset.bytes, type: asset.contentType, caching: WebRoutes.immutable)
    }
}
