import CatalogAuth
import CatalogHTTP
import CatalogStorage

/// Who sent a request: the owner of its `Authorization: Bearer` token, which is an API token
/// (`ctk_…`) or the session a sign-in through the API issued (`cts_…`).
struct RequestAuthentication: Sendable {
    let stores: any CatalogDatabase
    let authenticator: Authenticator

    /// The user, or nil when the request carries no credentials.
    ///
    /// - Throws: 401 for credentials that are present but malformed, unknown, expired or revoked.
    func user(for request: Request) throws -> User? {
        guard request.headers["Authorization"] != nil else { return nil }
        guard let token = Self.bearerToken(request) else {
            throw Self.unauthorized("use 'Authorization: Bearer TOKEN'")
        }
        let user =
            token.hasPrefix(Authenticator.sessionCookiePrefix)
            ? try authenticator.user(sessionCookie: token, in: stores.users())
            : try authenticator.user(bearerToken: token, in: stores.users())
        guard let user else { throw Self.unauthorized("the token is not valid") }
        return user
    }

    /// The token of an `Authorization: Bearer TOKEN` header, nil without one.
    static func bearerToken(_ request: Request) -> String? {
        guard let header = request.headers["Authorization"] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1])
    }

    /// The user the route's declared authentication (``RouteOptions/authentication``, in
    /// `context`) asks for: nil for `.none` (credentials are not read), the user or nil for
    /// `.optional`, a user for `.signedIn` and an administrator for `.admin`.
    ///
    /// - Throws: 401 or 403 when the request does not meet the declaration.
    func authorized(_ request: Request, _ context: RequestContext) throws -> User? {
        let user: User?
        switch context.options.authentication {
        case .none: return nil
        case .optional: user = try self.user(for: request)
        case .signedIn, .admin: user = try requireUser(request)
        }
        // The access log and the audit log name who sent the request (a name, never the token),
        // a refused one too.
        if let user { context.notes?.user = user.name }
        if context.options.authentication == .admin, let user { try Self.requireAdmin(user) }
        return user
    }

    /// The signed-in user of a route that declares `.signedIn` (or `.admin`); a user is required
    /// whatever the route declared.
    ///
    /// - Throws: 401 without valid credentials, 403 when the route is for administrators.
    func signedIn(_ request: Request, _ context: RequestContext) throws -> User {
        if let user = try authorized(request, context) { return user }
        let user = try requireUser(request)
        context.notes?.user = user.name
        return user
    }

    /// The signed-in user, allowed to do `action` to `catalog` by ``AccessPolicy``: what a
    /// handler that changes something calls first.
    ///
    /// ```swift
    /// let user = try authentication.require(.editRecords, catalog: id, request, context)
    /// ```
    ///
    /// - Parameters:
    ///   - action: what the request wants to do.
    ///   - catalog: the catalog's id, nil for an action on no one catalog.
    /// - Returns: the user.
    /// - Throws: 401 without valid credentials (whatever the route declared), 403 when the
    ///   policy refuses (`you may not change catalog "cookbook"`).
    func require(_ action: CatalogAction, catalog: String?, _ request: Request, _ context: RequestContext) throws
        -> User
    {
        let user = try signedIn(request, context)
        guard try policy(for: user).allows(action, catalog: catalog) else {
            throw AccessRefusal(action, catalog: catalog)
        }
        return user
    }

    /// The policy of the request's user (or of an anonymous request, on a route that reads
    /// credentials), with their roles loaded once, for a handler that asks it several things.
    ///
    /// - Throws: what ``authorized(_:_:)`` throws.
    func policy(_ request: Request, _ context: RequestContext) throws -> AccessPolicy {
        try policy(for: authorized(request, context))
    }

    /// The policy of `user`: administrators need no roles, so theirs are not read.
    func policy(for user: User?) throws -> AccessPolicy {
        guard let user, !user.isAdmin else { return AccessPolicy(user: user, roles: [:]) }
        return AccessPolicy(user: user, roles: try stores.users().roles(ofUser: user.id))
    }

    /// The user; 401 without valid credentials.
    func requireUser(_ request: Request) throws -> User {
        guard let user = try user(for: request) else { throw Self.unauthorized("sign in with a bearer token") }
        return user
    }

    /// An administrator; 401 without credentials, 403 for other users.
    func requireAdmin(_ request: Request) throws -> User {
        let user = try requireUser(request)
        try Self.requireAdmin(user)
        return user
    }

    /// 403 unless `user` is an administrator.
    static func requireAdmin(_ user: User) throws {
        guard user.isAdmin else { throw HTTPError(.forbidden, code: "forbidden", "only administrators may do this") }
    }

    static func unauthorized(_ message: String) -> HTTPError {
        HTTPError(
            .unauthorized, code: "unauthorized", message,
            headers: HTTPHeaders([("WWW-Authenticate", "Bearer realm=\"catalog\"")]))
    }
}
