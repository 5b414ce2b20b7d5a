import CatalogCore
import CatalogHTTP
import CatalogModel
import CatalogStorage

/// The catalog list (`/`): every catalog the visitor may see (a signed-in member sees their
/// members catalogs too), in the browser's language.
struct HomeHandler: WebHandler {
    let web: WebRoutes

    /// `GET /`.
    func home(_ request: Request, _ context: RequestContext) throws -> Response {
        let session = try session(request, context)
        let policy = try session.policy(stores: stores)
        let canCreate = policy.allows(.createCatalog, catalog: nil)
        // After a deletion the settings page comes here with the id, which the page names.
        let deleted = request.query("deleted").flatMap { CatalogDefinition.isValidID($0) ? $0 : nil }
        return try stores.read { store in
            return HomePage(
                catalogs: try store.catalogs().filter(policy.sees), session: session,
                strings: WebStrings.negotiate(request.headers["Accept-Language"]), canCreate: canCreate,
                deleted: deleted
            ).render()
        }
    }
}
