import CatalogAuth
import CatalogHTTP
import CatalogModel
import CatalogStorage
import Foundation

/// Sign-in for API clients (apps): `POST /api/v1/signin` with `{"name","password"}` answers
/// `{"token","user":{"name","admin"},"expires"}`. The token is a session (`cts_…`, what the web
/// app keeps in its cookie) that the API accepts as `Authorization: Bearer`; it lasts 30 days, and
/// `POST /api/v1/signout` with it ends it. The account's own API token is not touched, so signing
/// in on a phone never signs out the command line.
///
/// Failed sign-ins are throttled like the web app's (429 with `Retry-After`), and password checks
/// run on the password lane, never on an event-loop worker. Sign-ins, failed or not, and
/// sign-outs go to the audit log.
struct SignInAPI {
    let stores: any CatalogDatabase
    let authenticator: Authenticator
    let authentication: RequestAuthentication
    let throttle: SignInThrottle
    let audit: AuditLog

    /// How long a token from a sign-in lasts.
    static let lifetime: Duration = Authenticator.defaultSessionLifetime

    func register(in routes: inout RouterBuilder) {
        let stores = stores
        let authenticator = authenticator
        let authentication = authentication
        let throttle = throttle
        let audit = audit
        // Password checks run on the password lane, unless the throttle refuses the attempt.
        let signIn = RouteOptions(
            lane: RouteLane(ServerLanes.passwords) { Self.isPasswordCheck($0, throttle: throttle) }, rateClass: .signIn)
        routes.on(.post, "/api/v1/signin", options: signIn) { request, context in
            let body = try JSONResponse.decode(SignInRequest.self, from: request)
            func failed(_ reason: String) {
                audit.record(.signInFailed, of: request, context, target: body.name, detail: "\(reason) (api)")
            }
            guard !body.name.isEmpty, body.name.utf8.count <= 64, !body.password.isEmpty,
                body.password.utf8.count <= 1024
            else {
                failed("malformed")
                throw Self.failed
            }
            if case .locked(let seconds) = throttle.check(account: body.name, address: request.clientAddress) {
                throttle.noteRefused()
                failed("throttled")
                throw HTTPError(
                    .tooManyRequests, code: "too_many_attempts",
                    "too many failed sign-ins; try again in \(seconds) s",
                    headers: HTTPHeaders([("Retry-After", String(seconds))]))
            }
            let check = try authenticator.checkPassword(name: body.name, password: body.password, in: stores.users())
            guard case .signedIn(let user) = check else {
                throttle.recordFailure(account: body.name, address: request.clientAddress)
                failed(check.failure ?? "failed")
                throw Self.failed
            }
            audit.record(.signIn, of: request, context, actor: user.name, target: user.name, detail: "api")
            throttle.recordSuccess(account: body.name, address: request.clientAddress)
            let started = authenticator.clock.now()
            let token = try authenticator.startSession(for: user, in: stores.users(), lifetime: Self.lifetime)
            let expires = AuthClock.timestamp(
                started.addingTimeInterval(TimeInterval(Self.lifetime.components.seconds)))
            var response = try JSONResponse.make(
                SignInResponse(
                    token: token, user: SignInResponse.User(name: user.name, admin: user.isAdmin), expires: expires))
            response.headers["Cache-Control"] = "no-store"
            return response
        }
        routes.on(.post, "/api/v1/signout", options: RouteOptions(authentication: .signedIn)) { request, context in
            _ = try authentication.authorized(request, context)
            if let token = RequestAuthentication.bearerToken(request),
                token.hasPrefix(Authenticator.sessionCookiePrefix)
            {
                try authenticator.endSession(cookie: token, in: stores.users())
                audit.record(.signOut, of: request, context, detail: "api")
            }
            return Response(status: .noContent)
        }
    }

    /// The same answer for an unknown name and a wrong password.
    static let failed = HTTPError(.unauthorized, code: "sign_in_failed", "the name or the password is wrong")

    /// Whether an API sign-in may check a password now (it runs on the password lane); a
    /// throttled one is answered at once on its worker.
    static func isPasswordCheck(_ request: Request, throttle: SignInThrottle) -> Bool {
        let name = (try? JSONDecoder().decode(SignInRequest.self, from: Data(request.body)))?.name ?? ""
        return throttle.check(account: name, address: request.clientAddress) == .allowed
    }
}
