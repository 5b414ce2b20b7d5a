import CatalogHTTP
import CatalogModel
import CatalogCore
import CatalogStorage

/// Favorites per user: `GET /api/v1/favorites`, `PUT` and `DELETE /api/v1/favorites/{catalog}/{item}`.
/// Adding and removing are idempotent; a favorite whose record disappeared in a re-import is
/// still listed (with `record: null`) until the user removes it. A favorite in a catalog the user
/// may no longer see (its visibility, their role) is left out, as if that catalog did not exist;
/// so is, for an API key with a record filter, a favorite whose record the filter does not pass.
struct FavoritesAPI {
    let stores: any CatalogDatabase
    let authentication: RequestAuthentication

    func register(in routes: inout RouterBuilder) {
        let stores = stores
        let authentication = authentication
        let signedIn = RouteOptions(authentication: .signedIn)
        routes.get("/api/v1/favorites", options: signedIn) { request, context in
            let user = try authentication.signedIn(request, context)
            let policy = try authentication.policy(for: user)
            let filter = try authentication.recordFilter(for: request)
            return try stores.read(narrowedBy: filter) { reader in
                let favorites = try stores.users().favorites(ofUser: user.id).compactMap { favorite -> FavoriteEntry? in
                    let catalog = try? reader.catalog(favorite.catalog)
                    if let catalog, !policy.sees(catalog.summary) { return nil }
                    let record = try? catalog.flatMap { try reader.item(of: $0, id: favorite.item) }?.record()
                    if filter != nil, record == nil { return nil }
                    return FavoriteEntry(
                        catalog: favorite.catalog, item: favorite.item, added: favorite.added, record: record)
                }
                var response = try JSONResponse.make(FavoriteList(favorites: favorites))
                // One user's list: never stored by a browser, a proxy or the service worker.
                response.headers["Cache-Control"] = WebHeaders.personal
                response.headers["Vary"] = "Authorization"
                return response
            }
        }
        routes.on(.put, "/api/v1/favorites/{catalog}/{item}", options: signedIn) { request, context in
            let user = try authentication.signedIn(request, context)
            let catalog = try context.require("catalog", as: String.self)
            let item = try context.require("item", as: String.self)
            // A new read sees the newest data: a record the client just saw through another thread,
            // or another server on the same database, is found.
            let record = try stores.read { reader in try reader.item(of: reader.catalogOr404(catalog), id: item) }
            guard record != nil else { throw HTTPError.notFound("catalog \"\(catalog)\" has no item \"\(item)\"") }
            _ = try stores.users().addFavorite(userID: user.id, catalog: catalog, item: item)
            return Response(status: .noContent)
        }
        routes.on(.delete, "/api/v1/favorites/{catalog}/{item}", options: signedIn) { request, context in
            let user = try authentication.signedIn(request, context)
            let catalog = try context.require("catalog", as: String.self)
            guard CatalogDefinition.isValidID(catalog) else { throw CatalogVisibilityGate.notFound(catalog) }
            _ = try stores.users().removeFavorite(
                userID: user.id, catalog: catalog, item: try context.require("item", as: String.self))
            return Response(status: .noContent)
        }
    }
}
