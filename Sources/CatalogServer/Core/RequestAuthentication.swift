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

    /// The user; 401 without valid credentials.
    func requireUser(_ request: Request) throws -> User {
        guard let user = try user(for: request) else { throw Self.unauthorized("sign in with a bearer token") }
        return user
    }

    /// An administrator; 401 without credentials, 403 for other users.
    func requireAdmin(_ request: Request) throws -> User {
        let user = try requireUser(request)
        guard user.isAdmin else { throw HTTPError(.forbidden, code: "forbidden", "only administrators may do this") }
        return user
    }

    static func unauthorized(_ message: String) -> HTTPError {
        HTTPError(
            .unauthorized, code: "unauthorized", message,
            headers: HTTPHeaders([("WWW-Authenticate", "Bearer realm=\"catalog\"")]))
    }
}
