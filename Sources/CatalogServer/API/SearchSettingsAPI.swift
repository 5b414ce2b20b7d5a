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
///   index again, on the import lane like a new locale; with `Prefer: respond-async` such a
///   change runs as a background job instead (202, `Location: /api/v1/imports/{job}`, whose
///   `recordsRead` grows as the index is built), readers keeping the old settings until it
///   commits. A change that builds nothing applies at once either way.
///
/// Both answer with the catalog's revision as `ETag`, which `If-Match` on a `PATCH` names. The
/// policy is asked before anything is read, so someone who may not manage the catalog is told so
/// (403) whether or not it exists.
struct SearchSettingsAPI {
    let stores: any CatalogDatabase
    let authentication: RequestAuthentication
    let management: CatalogManagement
    /// The background jobs imports run as; a rebuilding change asked for with
    /// `Prefer: respond-async` is one.
    let jobs: ImportJobs
    /// Told of each change, so that what the new settings need is made ready off the request path.
    let maintainer: SegmentMaintainer

    func register(in routes: inout RouterBuilder) {
        let stores = stores
        let authentication = authentication
        let management = management
        let jobs = jobs
        let maintainer = maintainer
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
            let user = try authentication.require(.manageCatalog, catalog: id, request, context)
            try CatalogManagementAPI.requireJSON(
                request, accepting: ["application/merge-patch+json", "application/json"])
            let patch = try CatalogDocument.MergePatch(request.body)
            let revisions = CatalogManagementAPI.revisions(request)
            if ImportAPI.prefersAsync(request),
                let records = try management.rebuildSize(
                    id, in: stores, ifRevision: revisions,
                    change: { current in
                        try SearchSettingsDocument.merging(patch, into: current)
                    })
            {
                return try Self.startRebuild(
                    id, records: records, patch: patch, revisions: revisions, owner: user.id, jobs: jobs,
                    management: management, stores: stores)
            }
            let updated = try management.updateSearchSettings(
                id, in: stores, ifRevision: CatalogManagementAPI.revisions(request),
                isCancelled: { context.isCancelled() }
            ) { current in
                try SearchSettingsDocument.merging(patch, into: current)
            }
            maintainer.notify(id)
            let fields = try stores.read { reader in try reader.fields(of: reader.catalogOr404(id)) }
            return try Self.answer(updated, fields: fields)
        }
    }

    /// Runs a settings change that builds the index again as a job of `owner`'s: 202 with the
    /// job's state and `Location`, as a background import answers.
    static func startRebuild(
        _ id: String, records: Int, patch: CatalogDocument.MergePatch, revisions: Set<String>?, owner: Int64,
        jobs: ImportJobs, management: CatalogManagement, stores: any CatalogDatabase
    ) throws -> Response {
        let job = try jobs.start(catalog: id, owner: owner) { progress in
            progress.report(.size(nil))
            _ = try management.updateSearchSettings(
                id, in: stores, ifRevision: revisions, isCancelled: progress.isStopped,
                recordsRead: { progress.report(.records($0)) }
            ) { current in
                try SearchSettingsDocument.merging(patch, into: current)
            }
            return ImportSummary(
                read: records, total: records, added: 0, updated: 0, removed: 0,
                notes: ["the search settings changed: the index was built again from \(records) records"])
        }
        return try ImportJobs.accepted(job)
    }

    /// The settings with the catalog's `ETag`, kept out of shared caches (they are its managers').
    static func answer(_ managed: ManagedSearchSettings, fields: [CatalogField]) throws -> Response {
        var response = MembersAPI.personal(
            try JSONResponse.make(SearchSettingsDocument.Shown(settings: managed.settings, fields: fields)))
        response.headers["ETag"] = CatalogManagementAPI.etag(managed.revision)
        return response
    }
}
