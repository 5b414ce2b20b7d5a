import CatalogHTTP
import CatalogModel
import CatalogCore
import CatalogStorage

/// Favorites per user: `GET /api/v1/favorites`, `PUT` and `DELETE /api/v1/favorites/{catalog}/{item}`.
/// Adding and removing are idempotent; a favorite whose record disappeared in a re-import is
/// still listed (with `record: null`) until the user removes it.
struct FavoritesAPI {
    let stores: any CatalogDatabase
    let authentication: RequestAuthentication

    func register(in routes: inout RouterBuilder) {
        let stores = stores
        let authentication = authentication
        let signedIn = RouteOptions(authentication: .signedIn)
        routes.get("/api/v1/favorites", options: signedIn) { request, context in
            let user = try authentication.signedIn(request, context)
            let reader = try stores.reader()
            let favorites = try stores.users().favorites(ofUser: user.id).map { favorite in
                FavoriteEntry(
                    catalog: favorite.catalog, item: favorite.item, added: favorite.added,
                    record: try? reader.catalog(favorite.catalog).flatMap {
                        try reader.item(of: $0, id: favorite.item)
                    }?
                    .record())
            }
            var response = try JSONResponse.make(FavoriteList(favorites: favorites))
            // One user's list: never stored by a browser, a proxy or the service worker.
            response.headers["Cache-Control"] = WebHeaders.personal
            response.headers["Vary"] = "Authorization"
            return response
        }
        routes.on(.put, "/api/v1/favorites/{catalog}/{item}", options: signedIn) { request, context in
            let user = try authentication.signedIn(request, context)
            let catalog = try context.require("catalog", as: String.self)
            let item = try context.require("item", as: String.self)
            func find() throws -> StoredHit? {
                let reader = try stores.reader()
                return try reader.item(of: reader.catalogOr404(catalog), id: item)
            }
            // This thread's snapshot may be a moment older than what the client just saw (through
            // another thread, or another server on the same database): look again in a new one.
            var record = try find()
            if record == nil {
                stores.endSnapshot()
                record = try find()
            }
            guard record != nil else { throw HTTPError.notFound("catalog \"\(catalog)\" has no item \"\(item)\"") }
            _ = try stores.users().addFavorite(userID: user.id, catalog: catalog, item: item)
            return Response(status: .noContent)
        }
        routes.on(.delete, "/api/v1/favorites/{catalog}/{item}", options: signedIn) { request, context in
            let user = try authentication.signedIn(request, context)
            let catalog = try context.require("catalog", as: String.self)
            guard CatalogDefinition.isValidID(catalog) else {
                throw HTTPError.notFound("no catalog named \"\(catalog)\"")
            }
            _ = try stores.users().removeFavorite(
                userID: user.id, catalog: catalog, item: try context.require("item", as: String.self))
            return Response(status: .noContent)
        }
    }
}
