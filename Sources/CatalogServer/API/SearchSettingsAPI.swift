import CatalogCore
import CatalogHTTP
import CatalogModel
import CatalogStorage

/// A catalog's search settings (``SearchSettings``), for its owners and administrators:
///
/// - `GET /api/v1/catalogs/{id}/settings` → `{"synonyms":[…],"stopWords":[…],"typos":{…},
///   "searchableFields":[…],"filterableFields":[…],"facetFields":[…],"fields":[…]}` (the two
///   lists only when set; `fields`, read-only, every field of the records with its kind, bounds,
///   and whether it is filterable and a facet: ``CatalogField``);
/// - `PATCH /api/v1/catalogs/{id}/settings` with a JSON merge patch of that document
///   (``SearchSettingsDocument``) answers the settings as stored; problems are a 422 naming each
///   key (`/typos/oneTypoFrom`), and nothing changes. New searchable fields build the catalog's
///   index again, on the import lane like a new locale.
///
/// Both answer with the catalog's revision as `ETag`, which `If-Match` on a `PATCH` names. The
/// policy is asked before anything is read, so someone who may not manage the catalog is told so
/// (403) whether or not it exists.
struct SearchSettingsAPI {
    let stores: any CatalogDatabase
    let authentication: RequestAuthentication
    let management: CatalogManagement

    func register(in routes: inout RouterBuilder) {
        let stores = stores
        let authentication = authentication
        let management = management
        routes.get("/api/v1/catalogs/{id}/settings", options: RouteOptions(authentication: .signedIn)) {
            request, context in
            let id = try context.require("id", as: String.self)
            _ = try authentication.require(.manageCatalog, catalog: id, request, context)
            let (catalog, fields) = try stores.read { reader in
                let catalog = try reader.catalogOr404(id)
                return (catalog, try reader.fields(of: catalog))
            }
            return try Self.answer(
                ManagedSearchSettings(settings: catalog.definition.searchSettings, revision: catalog.revision),
                fields: fields)
        }
        routes.on(.patch, "/api/v1/catalogs/{id}/settings", options: CatalogManagementAPI.changeOptions) {
            request, context in
            let id = try context.require("id", as: String.self)
            _ = try authentication.require(.manageCatalog, catalog: id, request, context)
            try CatalogManagementAPI.requireJSON(
                request, accepting: ["application/merge-patch+json", "application/json"])
            let patch = try CatalogDocument.MergePatch(request.body)
            let updated = try management.updateSearchSettings(
                id, in: stores, ifRevision: CatalogManagementAPI.revisions(request),
                isCancelled: { context.isCancelled() }
            ) { current in
                try SearchSettingsDocument.merging(patch, into: current)
            }
            let fields = try stores.read { reader in try reader.fields(of: reader.catalogOr404(id)) }
            return try Self.answer(updated, fields: fields)
        }
    }

    /// The settings with the catalog's `ETag`, kept out of shared caches (they are its managers').
    static func answer(_ managed: ManagedSearchSettings, fields: [CatalogField]) throws -> Response {
        var response = MembersAPI.personal(
            try JSONResponse.make(SearchSettingsDocument.Shown(settings: managed.settings, fields: fields)))
        response.headers["ETag"] = CatalogManagementAPI.etag(managed.revision)
        return response
    }
}
