import CatalogAuth
import CatalogHTTP
import CatalogModel
import CatalogStorage

/// API keys for apps and scripts, managed by their accounts (and every key by administrators):
///
/// - `GET /api/v1/keys` → `{"keys":[{"name","user","catalogs","actions","filter","expires",
///   "createdAt","lastUsed","lastUsedFrom"}]}`: the caller's keys, every key for administrators;
/// - `POST /api/v1/keys` with `{"name","catalogs":[ID…],"actions":["read",…],"expires":"90d",
///   "filter":"country = DE","user":NAME}` (`expires`, `filter` optional; `user` for
///   administrators making a key for another account) → 201 `{"token":"cak_…","key":{…}}`, the
///   key's text shown this once;
/// - `DELETE /api/v1/keys/{name}` revokes a key (204); someone else's key is a 404 unless the
///   caller is an administrator.
///
/// Keys cannot be managed with a key (``APIKeyRoutes``), only with a token or a session.
struct KeysAPI {
    let stores: any CatalogDatabase
    let authentication: RequestAuthentication
    /// Where keys made and revoked are recorded.
    var audit: AuditLog?

    /// The body of a `POST`.
    struct KeyRequest: Decodable {
        var name: String
        var user: String?
        var catalogs: [String]
        var actions: [String]
        var expires: String?
        var filter: String?
    }

    func register(in routes: inout RouterBuilder) {
        let stores = stores
        let authentication = authentication
        let signedIn = RouteOptions(authentication: .signedIn)
        routes.get("/api/v1/keys", options: signedIn) { request, context in
            let user = try authentication.signedIn(request, context)
            let keys = try stores.users().keys(ofUser: user.isAdmin ? nil : user.id)
            return MembersAPI.personal(try JSONResponse.make(KeyList(keys: keys)))
        }
        let audit = audit
        routes.on(.post, "/api/v1/keys", options: signedIn) { request, context in
            let user = try authentication.signedIn(request, context)
            let body = try JSONResponse.decode(KeyRequest.self, from: request)
            let owner = body.user ?? user.name
            guard user.isAdmin || owner.lowercased() == user.name.lowercased() else {
                throw HTTPError(.forbidden, code: "forbidden", "only administrators may make keys for other accounts")
            }
            let (key, text) = try authentication.authenticator.addKey(
                name: body.name, user: owner, catalogs: body.catalogs, actions: try Self.actions(body.actions),
                lifetime: try body.expires.map(Self.lifetime), filter: try body.filter.map(Self.filter),
                in: stores.users())
            audit?.record(
                .keyCreated, of: request, context, target: key.name,
                detail: "of \(key.user): \(key.actionsText) in \(key.catalogsText)")
            return MembersAPI.personal(try JSONResponse.make(CreatedKey(token: text, key: key), status: .created))
        }
        routes.on(.delete, "/api/v1/keys/{name}", options: signedIn) { request, context in
            let user = try authentication.signedIn(request, context)
            let name = try context.require("name", as: String.self)
            let store = try stores.users()
            guard let key = try store.key(named: name), user.isAdmin || key.user == user.name,
                try store.removeKey(named: key.name)
            else { throw HTTPError.notFound("no key named \"\(name.prefix(80))\"") }
            audit?.record(.keyRevoked, of: request, context, target: key.name, detail: "of \(key.user)")
            return Response(status: .noContent)
        }
    }

    /// The actions of a request, checked.
    static func actions(_ names: [String]) throws -> [KeyAction] {
        guard let actions = KeyAction.list(names.joined(separator: ",")) else {
            throw HTTPError.badParameter("\"actions\" lists one or more of \(KeyAction.names)")
        }
        return actions
    }

    /// A lifetime such as `90d`, checked.
    static func lifetime(_ text: String) throws -> Duration {
        guard let lifetime = Authenticator.keyLifetime(text) else {
            throw HTTPError.badParameter("\"expires\" takes a duration such as 12h, 30d or 90d")
        }
        return lifetime
    }

    /// A record filter in its canonical text, checked.
    static func filter(_ text: String) throws -> String {
        do {
            return try RecordFilter(parsing: text).description
        } catch {
            throw HTTPError.badParameter("\"filter\": \(error)")
        }
    }

    /// `{"keys":[…]}`.
    struct KeyList: Encodable {
        var keys: [StoredAPIKey]
    }

    /// A new key: its text (shown once) and the key as stored.
    struct CreatedKey: Encodable {
        var token: String
        var key: StoredAPIKey
    }
}
