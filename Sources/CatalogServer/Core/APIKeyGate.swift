import CatalogAuth
import CatalogHTTP
import CatalogStorage

/// Checks a request that carries an API key (`Authorization: Bearer cak_…`) against the key's
/// catalogs and actions before the route's handler runs (``APIKeyRoutes``), and records the
/// key's use. Runs between the router and the handler, so it sees the matched route.
///
/// Answers to a key are `private, no-store` and vary on `Authorization`.
///
/// - a key that is malformed, unknown, revoked or expired, or whose account is gone: 401;
/// - a catalog the key is not for: 404, as for a catalog that does not exist;
/// - an action the key lacks: 403 naming it; a route that does not honour a record filter, for
///   a key with one: 403.
///
/// What the key's account may do now is the handler's question to ``AccessPolicy``, which the
/// key narrows further.
struct APIKeyGate: Middleware {
    let authentication: RequestAuthentication
    let uses: KeyUseRecorder

    func respond(to request: Request, context: RequestContext, next: any Responder) throws -> Response {
        guard let token = RequestAuthentication.bearerToken(request), token.hasPrefix(Authenticator.keyPrefix) else {
            return try next.respond(to: request, context: context)
        }
        let requirement = APIKeyRoutes.requirement(request.method, context.route ?? "")
        if requirement == .open { return try next.respond(to: request, context: context) }
        let (key, user) = try authentication.key(token)
        uses.used(key, from: request.clientAddress, in: authentication.stores)
        context.notes?.user = user.name
        switch requirement {
        case .open:
            break
        case .refused(let reason):
            throw HTTPError(.forbidden, code: "forbidden", reason)
        case .key(let action, let parameter, let filtered):
            if let parameter {
                let id = try context.require(parameter, as: String.self)
                guard key.covers(catalog: id) else { throw HTTPError.notFound("no catalog named \"\(id.prefix(80))\"") }
            } else if action == .admin && key.catalogs != [StoredAPIKey.allCatalogs] {
                throw HTTPError(
                    .forbidden, code: "forbidden",
                    "this API key is for some catalogs only; this needs a key for every catalog ('*')")
            }
            guard key.actions.contains(action) else {
                throw HTTPError(.forbidden, code: "forbidden", "this API key lacks the \"\(action.rawValue)\" action")
            }
            guard key.filter == nil || filtered else {
                throw HTTPError(
                    .forbidden, code: "forbidden",
                    "this API key has a record filter, which this route cannot apply (a change may reach "
                        + "records outside it); browse, search or follow the changes instead")
            }
        }
        // What a key sees depends on the key (its catalogs, its filter): no shared cache keeps it.
        var response = try next.respond(to: request, context: context)
        response.headers["Cache-Control"] = WebHeaders.personal
        let vary = response.headers["Vary"] ?? ""
        if !vary.lowercased().contains("authorization") {
            response.headers["Vary"] = vary.isEmpty ? "Authorization" : vary + ", Authorization"
        }
        return response
    }
}
