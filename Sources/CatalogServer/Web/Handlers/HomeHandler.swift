import CatalogCore
import CatalogHTTP
import CatalogModel
import CatalogStorage

/// The catalog list (`/`): every catalog, in the browser's language.
struct HomeHandler: WebHandler {
    let web: WebRoutes

    /// `GET /`.
    func home(_ request: Request, _ context: RequestContext) throws -> Response {
        let session = try session(request, context)
        let canCreate = try session.policy(stores: stores).allows(.createCatalog, catalog: nil)
        // After a deletion the settings page comes here with the id, which the page names.
        let deleted = request.query("deleted").flatMap { CatalogDefinition.isValidID($0) ? $0 : nil }
        return try stores.read { store in
            return HomePage(
                catalogs: try store.catalogs(), session: session,
                strings: WebStrings.negotiate(request.headers["Accept-Language"]), canCreate: canCreate,
                deleted: deleted
            ).render()
        }
    }
}
