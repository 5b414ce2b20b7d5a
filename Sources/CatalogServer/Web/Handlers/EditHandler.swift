import CatalogAuth
import CatalogCore
import CatalogHTTP
import CatalogImages
import CatalogModel
import CatalogStorage
import Foundation

/// The record editor of the web app: its pages (`GET /c/{id}/i/{item}/edit`, `GET /c/{id}/new`)
/// and the changes its script sends (`PUT` and `DELETE /c/{id}/i/{item}`, `PUT /c/{id}/i/{item}/image`).
///
/// The changes are the API's own (``RecordsAPI``: the same reader of the body, `If-Match`,
/// `If-None-Match: *`, ETags, 412 and 422, the same ``CatalogEditor`` and change feed), for the
/// user of the web session. The API itself stays bearer-only: its CORS policy lets any origin
/// call it, which is safe only as long as no ambient credential (a cookie) counts there. These
/// routes are not under `/api/`, so they send no CORS headers and a cross-site page can neither
/// read their answers nor pass a preflight; each change must carry the session's CSRF token in
/// a header (``WebSession/checkScript(_:)``), a JSON body and, when the browser names one, our
/// own `Origin`; and the ``AccessPolicy`` decides as for the API (`.editRecords`).
struct EditHandler: WebHandler {
    let web: WebRoutes

    /// The editor's changes: the API's limits for one record, on the edits lane.
    static let change = RouteOptions(
        lane: RouteLane(ServerLanes.edits), bodyLimit: RecordChangeLimits.maxRecordBytes, authentication: .optional,
        rateClass: .standard)

    /// An image from the editor: the API's limit for an upload, on the edits lane.
    static let image = RouteOptions(
        lane: RouteLane(ServerLanes.edits), bodyLimit: ImageReader.maxBytes, authentication: .optional,
        rateClass: .expensive)

    /// `GET /c/{id}/i/{item}/edit`.
    func edit(_ request: Request, _ context: RequestContext) throws -> Response {
        try page(request, context, item: try context.require("item", as: String.self))
    }

    /// `GET /c/{id}/new`.
    func new(_ request: Request, _ context: RequestContext) throws -> Response {
        try page(request, context, item: nil)
    }

    private func page(_ request: Request, _ context: RequestContext, item: String?) throws -> Response {
        let id = try context.require("id", as: String.self)
        let session = try session(request, context)
        let origin = try DetailPage.Origin(request)
        guard session.user != nil else {
            let here = (item.map { WebPaths.item(id, $0) + "/edit" } ?? WebPaths.catalog(id) + "/new") + origin.query
            return WebRoutes.redirect("/signin?next=" + WebPaths.encode(here))
        }
        guard try session.policy(stores: stores).allows(.editRecords, catalog: id) else {
            throw AccessRefusal(.editRecords, catalog: id)
        }
        return try stores.read { store in
            let catalog = try store.catalogOr404(id)
            var stored: (record: Record, json: [UInt8], etag: String)?
            if let item {
                guard let hit = try store.item(of: catalog, id: item) else {
                    throw HTTPError.notFound("no such record")
                }
                stored = (try hit.record(), hit.json, CatalogEditor.etag(of: hit.json))
            }
            let strings = WebStrings.forLocale(catalog.definition.locale)
            return EditPage(
                catalog: catalog, stored: stored, session: session, origin: origin,
                tabs: CollectionPages.tabs(for: catalog.definition, strings: strings, selected: origin.tab)
            ).render()
        }
    }

    /// `PUT /c/{id}/i/{item}`: the record from the editor, as `PUT` of the API takes it.
    func save(_ request: Request, _ context: RequestContext) throws -> Response {
        let (catalog, user) = try editable(request, context)
        do {
            return try web.records.put(request, context, catalog: catalog, actor: user.name)
        } catch let error as HTTPError where error.status == .unprocessableContent {
            throw Self.localized(error, strings: WebStrings.forLocale(catalog.definition.locale))
        }
    }

    /// `PUT /c/{id}/i/{item}/image`: the record's image chosen in the editor, stored as `PUT` of
    /// the API stores it (after the record's own save, with its new ETag in `If-Match`). The body
    /// must be sent as an image type, which no cross-site form can send without a preflight.
    func saveImage(_ request: Request, _ context: RequestContext) throws -> Response {
        let (catalog, user) = try editable(request, context)
        let type = request.headers["Content-Type"]?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard type.hasPrefix("image/") else {
            throw HTTPError(.unsupportedMediaType, code: "unsupported_media_type", "send the image as an image type")
        }
        return try web.records.putImage(request, context, catalog: catalog, actor: user.name)
    }

    /// `DELETE /c/{id}/i/{item}`.
    func delete(_ request: Request, _ context: RequestContext) throws -> Response {
        let (catalog, user) = try editable(request, context)
        return try web.records.delete(request, context, catalog: catalog, actor: user.name)
    }

    /// The catalog a change is for and who makes it: the session's user, whose page sent it and
    /// whom the policy lets change the catalog.
    private func editable(_ request: Request, _ context: RequestContext) throws -> (StoredCatalog, User) {
        let session = try session(request, context)
        let user = try session.checkScript(request)
        let id = try context.require("id", as: String.self)
        guard try session.policy(stores: stores).allows(.editRecords, catalog: id) else {
            throw AccessRefusal(.editRecords, catalog: id)
        }
        return (try stores.read { try $0.catalogOr404(id) }, user)
    }

    /// A 422 whose problems say, in the catalog's language, what each field needs: the page
    /// shows them beside the fields their pointers name. (The API's English words stay the
    /// API's.)
    static func localized(_ error: HTTPError, strings: WebStrings) -> HTTPError {
        var localized = error
        localized.problems = error.problems.map { problem in
            HTTPError.Problem(pointer: problem.pointer, message: strings[problemKey(problem.pointer)])
        }
        return localized
    }

    /// The words for a problem at `pointer` (`/price`, `/categories/2`, `/fields/Zeit`).
    static func problemKey(_ pointer: String) -> WebStrings.Key {
        let first = pointer.split(separator: "/", omittingEmptySubsequences: true).first.map(String.init) ?? ""
        switch first {
        case "id": return .problemID
        case "title": return .problemTitle
        case "price": return .problemPrice
        case "currency": return .problemCurrency
        case "quantity", "featured": return .problemQuantity
        case "country": return .problemCountry
        case "categories": return .problemCategory
        case "subtitle", "description", "image", "fields": return .problemText
        default: return .problemRecord
        }
    }
}
