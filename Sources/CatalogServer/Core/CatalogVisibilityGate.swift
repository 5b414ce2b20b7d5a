import CatalogHTTP
import CatalogModel
import CatalogStorage

/// Makes a catalog the requester may not see (``CatalogVisibility``, decided by ``AccessPolicy``)
/// not exist for them, on every route that names a catalog: every matched request passes it
/// (``RouterBuilder/build(routeMiddleware:)``, before ``APIKeyGate``, so that a catalog hidden
/// from a key's account is missing for the key too), and a new route is checked without asking.
///
/// A route names a catalog by its `{id}` or `{catalog}` parameter (`/api/v1/catalogs/{id}/…`,
/// `/c/{id}/…`, `/catalogs/{id}/feed.xml`, `/themes/{id}/…`, `/sitemaps/{catalog}/…`,
/// `/api/v1/favorites/{catalog}/…`), by the path of a stored image
/// (`/images/stored/{catalog}/…`), or, for the original endpoints, by the server's configuration
/// (``fixedCatalogs``).
///
/// A hidden catalog gets the very 404 of a missing one (``notFound(_:)``), after the same work:
/// the catalog is looked up, and unless it is public the requester's credentials are read, in
/// both cases. A missing catalog is a 404 here for everyone but administrators, whose handlers
/// may create it. A request without credentials to a route that needs them gets the 401 that
/// route would give, for a hidden catalog and a missing one alike. An answer about a catalog that is not public is marked `private` (no shared
/// cache, nor the server's ``ResponseCache``, keeps it) and varies on the credentials.
struct CatalogVisibilityGate: Middleware {
    let stores: any CatalogDatabase
    let authentication: RequestAuthentication
    /// The catalog of routes that answer for one catalog without naming it, by pattern (the
    /// original cookbook endpoints answer for `--compat-catalog`).
    let fixedCatalogs: [String: String]

    /// The route parameters that hold a catalog's id.
    static let catalogParameters = ["id", "catalog"]

    func respond(to request: Request, context: RequestContext, next: any Responder) throws -> Response {
        guard let id = Self.catalog(of: context, fixed: fixedCatalogs) else {
            return try next.respond(to: request, context: context)
        }
        let visibility = try stores.read { try $0.catalog(id)?.definition.visibility }
        if visibility == .public { return try next.respond(to: request, context: context) }
        let reader = try authentication.reader(request)
        if reader == nil, context.options.authentication == .signedIn || context.options.authentication == .admin {
            throw RequestAuthentication.unauthorized("sign in with a bearer token")
        }
        let policy = try authentication.policy(for: reader)
        if let visibility, policy.allows(.read, catalog: id, visibility: visibility) {
            var response = try next.respond(to: request, context: context)
            Self.keepPrivate(&response)
            return response
        }
        if visibility == nil, policy.user?.isAdmin == true { return try next.respond(to: request, context: context) }
        throw Self.notFound(id)
    }

    /// The catalog a matched route names, nil for a route about no one catalog.
    static func catalog(of context: RequestContext, fixed: [String: String]) -> String? {
        for name in catalogParameters {
            if let id = context.parameters[name] { return id }
        }
        if let location = StoredImageLocation(segments: context.remainder), context.route == "/images/{path...}" {
            return location.catalog
        }
        return context.route.flatMap { fixed[$0] }
    }

    /// The answer for a catalog that does not exist, or that the requester may not see: the
    /// same status, body and headers for both.
    static func notFound(_ id: String) -> HTTPError {
        HTTPError.notFound("no catalog named \"\(id.prefix(80))\"")
    }

    /// Marks an answer about a catalog not everyone may see as personal: `private` (kept by the
    /// reader's browser only, revalidated), varying on the credentials that decided it.
    static func keepPrivate(_ response: inout Response) {
        let cacheControl = response.headers["Cache-Control"] ?? ""
        if !cacheControl.contains("no-store") { response.headers["Cache-Control"] = "private, no-cache" }
        var vary = response.headers["Vary"] ?? ""
        for name in ["Authorization", "Cookie"] where !vary.lowercased().contains(name.lowercased()) {
            vary = vary.isEmpty ? name : vary + ", " + name
        }
        response.headers["Vary"] = vary
    }
}
