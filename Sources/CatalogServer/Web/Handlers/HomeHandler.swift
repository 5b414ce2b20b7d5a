import CatalogCore
import CatalogHTTP
import CatalogModel
import CatalogStorage

/// The catalog list (`/`): every catalog, in the browser's language.
struct HomeHandler: WebHandler {
    let web: WebRoutes

    /// `GET /`.
    func home(_ request: Request, _ context: RequestContext) throws -> Response {
        let store = try stores.reader()
        return HomePage(
            catalogs: try store.catalogs(), session: try session(request, context),
            strings: WebStrings.negotiate(request.headers["Accept-Language"])
        ).render()
    }
}
