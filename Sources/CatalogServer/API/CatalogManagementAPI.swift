import CatalogCore
import CatalogHTTP
import CatalogModel
import CatalogStorage
import Foundation

/// `POST /api/v1/catalogs`, `PATCH` and `DELETE /api/v1/catalogs/{id}`: administrators create,
/// change and delete catalogs, through the same operations as `catalog create`, `set-catalog`
/// and `delete` (``CatalogManagement``).
///
/// The bodies are the catalog as `GET /api/v1/catalogs/{id}` shows it (``CatalogDocument``): a new
/// catalog is posted whole, a change is a JSON merge patch of it. `If-Match` with the catalog's
/// `ETag` makes a change or a deletion conditional (412 when the catalog changed meanwhile).
/// They run on the import lane, one at a time beside imports: a change of locale, roles or types
/// builds the catalog again from its records, in time proportional to its size. Every creation,
/// change and deletion goes to the audit log.
struct CatalogManagementAPI {
    let stores: any CatalogDatabase
    let authentication: RequestAuthentication
    let management: CatalogManagement
    /// The offline snapshots, of which a deleted catalog's are removed.
    let snapshots: SnapshotCache
    /// The thumbnails, of which a deleted catalog's images' are forgotten.
    let thumbnails: ThumbnailCache
    /// Where creations, changes and deletions are recorded.
    let audit: AuditLog

    /// Creating and deleting: administrators only, on the import lane.
    static let options = RouteOptions(
        lane: RouteLane(ServerLanes.imports), authentication: .admin, rateClass: .expensive)
    /// Changing a catalog: its owners too (the access policy decides, ``CatalogAction/manageCatalog``).
    static let changeOptions = RouteOptions(
        lane: RouteLane(ServerLanes.imports), authentication: .signedIn, rateClass: .expensive)

    func register(in routes: inout RouterBuilder) {
        let stores = stores
        let authentication = authentication
        let management = management
        let audit = audit
        routes.on(.post, "/api/v1/catalogs", options: Self.options) { request, context in
            _ = try authentication.authorized(request, context)
            try Self.requireJSON(request, accepting: ["application/json"])
            let (id, settings) = try CatalogDocument.creation(request.body, localeProblem: management.localeProblem)
            let created = try management.create(id, settings: settings, in: stores)
            audit.record(.catalogCreated, of: request, context, catalog: id)
            var response = try Self.answer(created, status: .created)
            response.headers["Location"] = "/api/v1/catalogs/\(id)"
            return response
        }
        let api = self
        routes.on(.patch, "/api/v1/catalogs/{id}", options: Self.changeOptions) { request, context in
            let id = try context.require("id", as: String.self)
            _ = try authentication.require(.manageCatalog, catalog: id, request, context)
            return try api.change(request, context, catalog: id)
        }
        routes.on(.delete, "/api/v1/catalogs/{id}", options: Self.options) { request, context in
            _ = try authentication.authorized(request, context)
            return try api.delete(request, context, catalog: try context.require("id", as: String.self))
        }
    }

    /// `PATCH` of catalog `id` by a user the access policy lets manage it: the API's route, and
    /// the web app's settings page (``OwnerHandler``).
    func change(_ request: Request, _ context: RequestContext, catalog id: String) throws -> Response {
        let isCancelled = context.isCancelled
        try Self.requireJSON(request, accepting: ["application/merge-patch+json", "application/json"])
        // The body is read first: one that cannot be a patch is a 400 (or 422) whatever the catalog.
        let patch = try CatalogDocument.MergePatch(request.body)
        var before: CatalogVisibility?
        let updated = try management.update(
            id, in: stores, ifRevision: Self.revisions(request), isCancelled: isCancelled
        ) { current in
            before = current.visibility
            return try CatalogDocument.merging(patch, into: current, localeProblem: management.localeProblem)
        }
        if updated.change != CatalogSettings.Change.none {
            audit.record(.catalogChanged, of: request, context, catalog: id, detail: "\(updated.change)")
        }
        if let before, before != updated.detail.visibility {
            audit.record(
                .visibilityChanged, of: request, context, catalog: id,
                detail: "\(before.rawValue) => \(updated.detail.visibility.rawValue)")
        }
        return try Self.answer(updated, status: .ok)
    }

    /// `DELETE` of catalog `id` by a user the access policy lets delete it, with its snapshots
    /// and thumbnails: the API's route, and the web app's settings page.
    func delete(_ request: Request, _ context: RequestContext, catalog id: String) throws -> Response {
        let deleted = try management.delete(
            id, in: stores, ifRevision: Self.revisions(request), collectingImages: true)
        audit.record(.catalogDeleted, of: request, context, catalog: id)
        snapshots.remove(catalog: id)
        thumbnails.remove(paths: Set(deleted.images.compactMap(Self.imagePath)))
        return Response(status: .noContent)
    }

    /// The catalog as `GET` shows it, with its `ETag`.
    static func answer(_ catalog: ManagedCatalog, status: HTTPStatus) throws -> Response {
        var response = try JSONResponse.make(catalog.detail, status: status)
        response.headers["ETag"] = etag(catalog.revision)
        return response
    }

    /// The strong `ETag` of a catalog's revision (``StoredCatalog/revision``).
    static func etag(_ revision: String) -> String { "\"\(revision)\"" }

    /// The revisions `If-Match` names, nil without the header or for `*` (any). Strong
    /// comparison: a weak tag (`W/"…"`) names none; the gzip variant's tag names its revision.
    static func revisions(_ request: Request) -> Set<String>? {
        guard let header = request.headers["If-Match"] else { return nil }
        var revisions: Set<String> = []
        for candidate in header.split(separator: ",") {
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return nil }
            guard tag.count >= 2, tag.hasPrefix("\""), tag.hasSuffix("\"") else { continue }
            var revision = String(tag.dropFirst().dropLast())
            if revision.hasSuffix(ConditionalGetMiddleware.gzipSuffix) {
                revision.removeLast(ConditionalGetMiddleware.gzipSuffix.count)
            }
            revisions.insert(revision)
        }
        return revisions
    }

    /// 415 unless the body is sent as one of `types` (or without a type).
    static func requireJSON(_ request: Request, accepting types: [String]) throws {
        guard let header = request.headers["Content-Type"] else { return }
        let type = header.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let type, types.contains(type) else {
            throw HTTPError(
                .unsupportedMediaType, code: "unsupported_media_type", "send " + types.joined(separator: " or "))
        }
    }

    /// The image-store path of an image a record names (`/images/shop/p1.png` → `shop/p1.png`),
    /// as the thumbnail cache keys it; nil for a URL elsewhere.
    static func imagePath(_ image: String) -> String? {
        guard image.hasPrefix("/images/") else { return nil }
        let path = image.dropFirst("/images/".count).split(separator: "?").first ?? ""
        let segments = path.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) }
        return segments.isEmpty ? nil : segments.joined(separator: "/")
    }
}
