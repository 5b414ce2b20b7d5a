import CatalogAuth
import CatalogCore
import CatalogHTTP
import CatalogModel
import CatalogStorage
import Foundation

/// The catalog owner's screens of the web app: a new catalog from a file or a URL (`GET /new`,
/// the preview `POST /c/{id}/import/preview`, the import `POST /c/{id}/import` and its progress
/// `GET /imports/{job}`), and a catalog's settings (`GET`, `PATCH` and `DELETE /c/{id}/settings`).
///
/// Every change is the API's own operation (``ImportAPI``'s preview and job,
/// ``CatalogManagementAPI``'s change and deletion) for the user of the web session, checked as
/// ``EditHandler`` checks the editor's: not under `/api/` (no CORS), the session's CSRF token in
/// a header, our own `Origin`, and the ``AccessPolicy``: `.createCatalog` for a new catalog,
/// `.manageCatalog` for its settings, `.deleteCatalog` to delete it.
struct OwnerHandler: WebHandler {
    let web: WebRoutes

    /// Uploads: the API import's lane and limit, for the web session.
    static func upload(maxBytes: Int) -> RouteOptions {
        RouteOptions(
            lane: RouteLane(ServerLanes.imports), bodyLimit: maxBytes, authentication: .optional, rateClass: .expensive)
    }

    /// Changes of a catalog's settings: the API's lane, for the web session.
    static let change = RouteOptions(
        lane: RouteLane(ServerLanes.imports), authentication: .optional, rateClass: .expensive)

    /// Locales offered for a catalog, when the server's collation knows them.
    static let candidateLocales = [
        "en", "en-GB", "de", "de-AT", "de-CH", "fr", "es", "it", "pt", "pt-BR", "nl", "sv", "da", "nb", "fi", "is",
        "hu", "cs", "sk", "pl", "sl", "hr", "ro", "bg", "el", "ru", "uk", "tr", "et", "lv", "lt", "ja", "zh", "ko",
    ]

    /// The locales a catalog may have (those the management's locale check accepts), named in
    /// the page's language.
    func locales(_ strings: WebStrings) -> [(tag: String, name: String)] {
        let names = Locale(identifier: strings.language)
        return Self.candidateLocales.filter { web.catalogManagement.localeProblem($0) == nil }.map { tag in
            (tag, names.localizedString(forIdentifier: tag) ?? tag)
        }
    }

    // MARK: - A new catalog

    /// `GET /new`.
    func newCatalog(_ request: Request, _ context: RequestContext) throws -> Response {
        let session = try session(request, context)
        guard session.user != nil else { return WebRoutes.redirect("/signin?next=" + WebPaths.encode("/new")) }
        guard try session.policy(stores: stores).allows(.createCatalog, catalog: nil) else {
            throw AccessRefusal(.createCatalog, catalog: nil)
        }
        let strings = WebStrings.negotiate(request.headers["Accept-Language"])
        return NewCatalogPage(session: session, strings: strings, locales: locales(strings)).render()
    }

    /// `POST /c/{id}/import/preview`: the API's preview of a new catalog's source.
    func preview(_ request: Request, _ context: RequestContext) throws -> Response {
        let id = try creatable(request, context).id
        return try web.imports.preview(request, catalog: id) { context.isCancelled() }
    }

    /// `POST /c/{id}/import`: the API's import as a job of the session's user; 202 with where its
    /// progress is (`/imports/{job}`).
    func startImport(_ request: Request, _ context: RequestContext) throws -> Response {
        let (id, user) = try creatable(request, context)
        var response = try web.imports.start(request, catalog: id, user: user)
        if let location = response.headers["Location"] {
            response.headers["Location"] = "/imports/" + location.split(separator: "/").last.map(String.init)!
        }
        return response
    }

    /// `GET /imports/{job}`: the job, for the user who started it.
    func job(_ request: Request, _ context: RequestContext) throws -> Response {
        guard let user = try session(request, context).user else {
            throw HTTPError(.unauthorized, code: "unauthorized", "sign in first")
        }
        return try web.imports.status(try context.require("job", as: String.self), user: user)
    }

    /// The new catalog's id and who makes it: the session's user, whose page sent the request,
    /// whom the policy lets create catalogs; an id no catalog has (a problem at `/id` otherwise).
    private func creatable(_ request: Request, _ context: RequestContext) throws -> (id: String, user: User) {
        let session = try session(request, context)
        let user = try session.checkScript(request)
        guard try session.policy(stores: stores).allows(.createCatalog, catalog: nil) else {
            throw AccessRefusal(.createCatalog, catalog: nil)
        }
        let id = try context.require("id", as: String.self)
        let strings = WebStrings.negotiate(request.headers["Accept-Language"])
        var problem = HTTPError(.unprocessableContent, code: "invalid_catalog", "choose another id")
        problem.problems = [HTTPError.Problem(pointer: "/id", message: strings[.problemCatalogID])]
        guard CatalogDefinition.isValidID(id), try stores.read({ try $0.catalog(id) }) == nil else { throw problem }
        return (id, user)
    }

    // MARK: - A catalog's settings

    /// `GET /c/{id}/settings`.
    func settings(_ request: Request, _ context: RequestContext) throws -> Response {
        let id = try context.require("id", as: String.self)
        let session = try session(request, context)
        guard session.user != nil else {
            return WebRoutes.redirect("/signin?next=" + WebPaths.encode(WebPaths.catalog(id) + "/settings"))
        }
        let policy = try session.policy(stores: stores)
        guard policy.allows(.manageCatalog, catalog: id) else {
            throw AccessRefusal(.manageCatalog, catalog: id)
        }
        let catalog = try stores.read { try $0.catalogOr404(id) }
        return CatalogSettingsPage(
            catalog: catalog, session: session, locales: locales(WebStrings.forLocale(catalog.definition.locale)),
            canDelete: policy.allows(.deleteCatalog, catalog: id)
        ).render()
    }

    /// `PATCH /c/{id}/settings`: the API's change of the catalog, its problems in the catalog's
    /// language.
    func changeSettings(_ request: Request, _ context: RequestContext) throws -> Response {
        let id = try allowed(.manageCatalog, request, context)
        do {
            return try web.management.change(request, context, catalog: id)
        } catch let error as any HTTPResponseError {
            guard var http = error.httpError, http.status == .unprocessableContent else { throw error }
            let strings = try stores.read { try $0.catalogOr404(id) }.definition.locale
            http.problems = http.problems.map { problem in
                HTTPError.Problem(
                    pointer: problem.pointer,
                    message: Self.problemKey(problem.pointer).map { WebStrings.forLocale(strings)[$0] }
                        ?? problem.message)
            }
            throw http
        }
    }

    /// `DELETE /c/{id}/settings`: the API's deletion of the catalog.
    func deleteCatalog(_ request: Request, _ context: RequestContext) throws -> Response {
        let id = try allowed(.deleteCatalog, request, context)
        return try web.management.delete(request, context, catalog: id)
    }

    /// The catalog of a change the settings page's script sends, once the session and the
    /// policy allow `action` on it.
    private func allowed(_ action: CatalogAction, _ request: Request, _ context: RequestContext) throws -> String {
        let session = try session(request, context)
        _ = try session.checkScript(request)
        let id = try context.require("id", as: String.self)
        guard try session.policy(stores: stores).allows(action, catalog: id) else {
            throw AccessRefusal(action, catalog: id)
        }
        return id
    }

    /// The words for a problem of a catalog's settings at `pointer`; nil keeps the API's.
    static func problemKey(_ pointer: String) -> WebStrings.Key? {
        switch pointer.split(separator: "/", omittingEmptySubsequences: true).first {
        case "id": .problemCatalogID
        case "title": .problemCatalogTitle
        case "description": .problemCatalogDescription
        case "locale": .problemLocale
        case "labels": .problemLabel
        default: nil
        }
    }
}
