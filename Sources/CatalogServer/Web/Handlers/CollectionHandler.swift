import CatalogCore
import CatalogHTTP
import CatalogModel
import CatalogStorage

/// A catalog's tabs besides its list: the hot records, the categories and the visitor's
/// favorites.
struct CollectionHandler: WebHandler {
    let web: WebRoutes

    /// `GET /c/{id}/hot`.
    func hot(_ request: Request, _ context: RequestContext) throws -> Response {
        return try stores.read { store in
            let catalog = try store.catalogOr404(context.require("id", as: String.self))
            let definition = catalog.definition
            let strings = WebStrings.forLocale(definition.locale)
            let records = try store.featured(of: catalog, limit: CatalogLimits.maxFeatured).map { try $0.record() }
            return CollectionPages.records(
                records, title: strings[.hot], definition: definition, change: catalog.change,
                session: try session(request, context),
                tab: "hot",
                here: WebPaths.catalog(definition.id) + "/hot", via: "hot", empty: strings[.noResults])
        }
    }

    /// `GET /c/{id}/categories`.
    func categories(_ request: Request, _ context: RequestContext) throws -> Response {
        let catalog = try stores.read { try $0.catalogOr404(context.require("id", as: String.self)) }
        return CollectionPages.categories(
            catalog.categories, definition: catalog.definition, session: try session(request, context))
    }

    /// `GET /c/{id}/favorites`: the account's favorites, or (signed out) those kept in this
    /// browser, which the script shows.
    func favorites(_ request: Request, _ context: RequestContext) throws -> Response {
        return try stores.read { store in
            let catalog = try store.catalogOr404(context.require("id", as: String.self))
            let definition = catalog.definition
            let strings = WebStrings.forLocale(definition.locale)
            let session = try session(request, context)
            let here = WebPaths.catalog(definition.id) + "/favorites"
            guard let user = session.user else {
                return CollectionPages.records(
                    [], title: strings[.favorites], definition: definition, change: catalog.change, session: session,
                    tab: "favorites",
                    here: here, via: "favorites", empty: strings[.noFavorites], note: strings[.favoritesOnDevice],
                    local: true)
            }
            let records = try stores.users().favorites(ofUser: user.id).filter { $0.catalog == definition.id }
                .compactMap { try store.item(of: catalog, id: $0.item)?.record() }
            return CollectionPages.records(
                records, title: strings[.favorites], definition: definition, change: catalog.change, session: session,
                tab: "favorites",
                here: here, via: "favorites", empty: strings[.noFavorites])
        }
    }
}
