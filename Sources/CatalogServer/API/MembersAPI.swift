import CatalogHTTP
import CatalogModel
import CatalogStorage

/// Who may change a catalog, managed by its owners and administrators:
///
/// - `GET /api/v1/catalogs/{id}/members` → `{"members":[{"user","role"}]}`, ordered by name;
/// - `GET /api/v1/catalogs/{id}/members/{user}` → `{"user","role"}` (404 without a role there);
/// - `PUT /api/v1/catalogs/{id}/members/{user}` with `{"role":"editor"}` gives the role (replacing
///   the one the user had there) and answers the member;
/// - `DELETE /api/v1/catalogs/{id}/members/{user}` takes it away (204, also when there was none).
///
/// The policy is asked before anything is read, so someone who may not manage the catalog is
/// told so (403) whether or not it exists; then an unknown catalog or user is a 404. Roles are
/// given here only in catalogs that exist (`catalog user grant` may give one beforehand). Every
/// role given or taken away goes to the audit log.
struct MembersAPI {
    let stores: any CatalogDatabase
    let authentication: RequestAuthentication
    let audit: AuditLog

    /// The body of a `PUT`: `{"role":"viewer"|"editor"|"owner"}`.
    struct RoleRequest: Decodable {
        var role: String
    }

    func register(in routes: inout RouterBuilder) {
        let stores = stores
        let authentication = authentication
        let audit = audit
        let signedIn = RouteOptions(authentication: .signedIn)
        routes.get("/api/v1/catalogs/{id}/members", options: signedIn) { request, context in
            let id = try Self.catalog(request, context, authentication, stores)
            return try Self.personal(JSONResponse.make(MemberList(members: stores.users().members(ofCatalog: id))))
        }
        routes.get("/api/v1/catalogs/{id}/members/{user}", options: signedIn) { request, context in
            let id = try Self.catalog(request, context, authentication, stores)
            let user = try Self.user(context, stores)
            guard let role = try stores.users().roles(ofUser: user.id)[id] else {
                throw HTTPError.notFound("\"\(user.name)\" has no role in catalog \"\(id)\"")
            }
            return try Self.personal(JSONResponse.make(CatalogMember(user: user.name, role: role)))
        }
        routes.on(.put, "/api/v1/catalogs/{id}/members/{user}", options: signedIn) { request, context in
            let id = try Self.catalog(request, context, authentication, stores)
            let body = try JSONResponse.decode(RoleRequest.self, from: request)
            guard let role = CatalogRole(rawValue: body.role) else {
                throw HTTPError.badParameter("unknown role \"\(body.role.prefix(40))\"; roles: \(CatalogRole.names)")
            }
            let user = try Self.user(context, stores)
            let previous = try stores.users().grant(user: user.name, catalog: id, role: role)
            if previous != role {
                audit.record(
                    .roleGranted, of: request, context, catalog: id, target: user.name,
                    detail: role.rawValue + (previous.map { " (was \($0.rawValue))" } ?? ""))
            }
            return try Self.personal(JSONResponse.make(CatalogMember(user: user.name, role: role)))
        }
        routes.on(.delete, "/api/v1/catalogs/{id}/members/{user}", options: signedIn) { request, context in
            let id = try Self.catalog(request, context, authentication, stores)
            let user = try Self.user(context, stores)
            let users = try stores.users()
            if let role = try users.roles(ofUser: user.id)[id], try users.revoke(user: user.name, catalog: id) {
                audit.record(.roleRevoked, of: request, context, catalog: id, target: user.name, detail: role.rawValue)
            }
            return Response(status: .noContent)
        }
    }

    /// The catalog of the route, once the policy allows the request's user to manage it and it
    /// is found to exist.
    ///
    /// - Throws: 401, 403 (``RequestAuthentication/require(_:catalog:_:_:)``), then 404.
    static func catalog(
        _ request: Request, _ context: RequestContext, _ authentication: RequestAuthentication,
        _ stores: any CatalogDatabase
    ) throws -> String {
        let id = try context.require("id", as: String.self)
        _ = try authentication.require(.manageCatalog, catalog: id, request, context)
        return try stores.read { reader in try reader.catalogOr404(id).definition.id }
    }

    /// The account the route's `{user}` names (ignoring case); 404 when there is none.
    static func user(_ context: RequestContext, _ stores: any CatalogDatabase) throws -> User {
        let name = try context.require("user", as: String.self)
        guard let user = try stores.users().user(named: name) else {
            throw HTTPError.notFound("no user named \"\(name.prefix(80))\"")
        }
        return user
    }

    /// One catalog's members are for its managers only: never stored by a browser or a proxy.
    static func personal(_ response: Response) -> Response {
        var response = response
        response.headers["Cache-Control"] = WebHeaders.personal
        response.headers["Vary"] = "Authorization"
        return response
    }

    /// `{"members":[{"user","role"}]}`.
    struct MemberList: Encodable {
        var members: [CatalogMember]
    }
}
