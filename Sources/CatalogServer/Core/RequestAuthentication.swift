import CatalogAuth
import CatalogHTTP
import CatalogModel
import CatalogStorage

/// Who sent a request: the owner of its `Authorization: Bearer` token, which is an API token
/// (`ctk_…`), the session a sign-in through the API issued (`cts_…`) or an API key (`cak_…`),
/// which limits its account's rights (``AccessPolicy/key``).
struct RequestAuthentication: Sendable {
    let stores: any CatalogDatabase
    let authenticator: Authenticator

    /// The user, or nil when the request carries no credentials.
    ///
    /// - Throws: 401 for credentials that are present but malformed, unknown, expired or revoked.
    func user(for request: Request) throws -> User? {
        try credential(for: request)?.user
    }

    /// The user and, when the request came with an API key, the key; nil without credentials.
    ///
    /// - Throws: 401 for credentials that are present but malformed, unknown, expired or revoked.
    func credential(for request: Request) throws -> (user: User, key: StoredAPIKey?)? {
        guard request.headers["Authorization"] != nil else { return nil }
        guard let token = Self.bearerToken(request) else {
            throw Self.unauthorized("use 'Authorization: Bearer TOKEN'")
        }
        if token.hasPrefix(Authenticator.keyPrefix) {
            let (key, user) = try self.key(token)
            return (user, key)
        }
        let user =
            token.hasPrefix(Authenticator.sessionCookiePrefix)
            ? try authenticator.user(sessionCookie: token, in: stores.users())
            : try authenticator.user(bearerToken: token, in: stores.users())
        guard let user else { throw Self.unauthorized("the token is not valid") }
        return (user, nil)
    }

    /// A presented API key that works now, with its account as it is now.
    ///
    /// - Throws: 401 for a malformed, unknown, revoked or expired key (a deleted account's keys
    ///   are gone with it).
    func key(_ text: String) throws -> (key: StoredAPIKey, user: User) {
        switch try authenticator.key(bearerKey: text, in: stores.users()) {
        case .valid(let key, let user): return (key, user)
        case .expired(let key): throw Self.unauthorized("the API key \"\(key.name)\" has expired")
        case .invalid: throw Self.unauthorized("the API key is not valid")
        }
    }

    /// The API key a request came with, or nil for any other credentials or none.
    ///
    /// - Throws: 401 as ``key(_:)``.
    func key(for request: Request) throws -> StoredAPIKey? {
        guard let token = Self.bearerToken(request), token.hasPrefix(Authenticator.keyPrefix) else { return nil }
        return try key(token).key
    }

    /// The record filter of the request's API key, nil when there is none (or no key).
    ///
    /// - Throws: 401 as ``key(_:)``.
    func recordFilter(for request: Request) throws -> RecordFilter? {
        guard let text = try key(for: request)?.filter else { return nil }
        // Stored in canonical form when the key was made; a filter this version cannot read
        // lets nothing through rather than everything.
        guard let filter = try? RecordFilter(parsing: text) else {
            throw HTTPError(.forbidden, code: "forbidden", "this API key's record filter is not understood")
        }
        return filter
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
        guard try policy(for: user, key: key(for: request)).allows(action, catalog: catalog) else {
            throw AccessRefusal(action, catalog: catalog)
        }
        return user
    }

    /// The policy of the request's user (or of an anonymous request, on a route that reads
    /// credentials), with their roles loaded once, for a handler that asks it several things.
    ///
    /// - Throws: what ``authorized(_:_:)`` throws.
    func policy(_ request: Request, _ context: RequestContext) throws -> AccessPolicy {
        let user = try authorized(request, context)
        return try policy(for: user, key: user == nil ? nil : key(for: request))
    }

    /// Who reads: the user of the request's bearer token or key, else of the web app's session
    /// cookie (the pages' scripts read the API with it), else nil. What a catalog's visibility is
    /// checked against, on every route (``CatalogVisibilityGate``), whatever the route declared.
    ///
    /// - Throws: 401 for a bearer token that is malformed, unknown, expired or revoked.
    func reader(_ request: Request) throws -> User? {
        if let user = try user(for: request) { return user }
        guard let cookie = WebSession.cookies(request)[WebSession.sessionCookie], !cookie.isEmpty else { return nil }
        return try authenticator.user(sessionCookie: cookie, in: stores.users())
    }

    /// The policy of `user`, limited by the API key the request came with (nil: none):
    /// administrators need no roles, so theirs are not read.
    func policy(for user: User?, key: StoredAPIKey? = nil) throws -> AccessPolicy {
        try Self.policy(for: user, key: key, stores: stores)
    }

    /// The policy of `user` limited by `key`, with their roles as `stores` holds them (none read
    /// for administrators and anonymous requests).
    static func policy(for user: User?, key: StoredAPIKey? = nil, stores: any CatalogDatabase) throws -> AccessPolicy {
        guard let user, !user.isAdmin else { return AccessPolicy(user: user, roles: [:], key: key) }
        return AccessPolicy(user: user, roles: try stores.users().roles(ofUser: user.id), key: key)
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
