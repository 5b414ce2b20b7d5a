import CatalogAuth
import CatalogHTTP
import CatalogStorage
import Foundation

/// Who is signed in to the web app, and the CSRF token of their forms.
///
/// The session is an HttpOnly, SameSite=Lax cookie (`catalog_session`) made by
/// ``Authenticator/startSession(for:in:lifetime:)``, `Secure` when the public URL is https. The
/// token of every form that changes state is derived from that cookie (``FormTokens``), so it
/// changes with each session and a page from elsewhere cannot know it. Before sign-in (the
/// sign-in form itself) the token is one this server signed, kept in an HttpOnly,
/// SameSite=Strict cookie (`catalog_csrf`) that the form must match. A POST whose `Origin` names
/// another site is refused as well.
struct WebSession {
    static let sessionCookie = "catalog_session"
    static let csrfCookie = "catalog_csrf"
    static let lifetime: TimeInterval = 30 * 24 * 3600

    /// The signed-in user, if any.
    let user: User?
    /// The session cookie, when it signs `user` in.
    let cookie: String?
    /// The CSRF token for forms on this page.
    let csrf: String
    /// True when the CSRF cookie must be set with the response.
    let isNewCSRF: Bool
    let settings: WebSessionSettings
    /// The request the session was read from: its cookies are set for its scheme.
    let request: Request

    init(request: Request, stores: any CatalogDatabase, authenticator: Authenticator, settings: WebSessionSettings)
        throws
    {
        self.settings = settings
        self.request = request
        let cookies = Self.cookies(request)
        if let value = cookies[Self.sessionCookie],
            let user = try authenticator.user(sessionCookie: value, in: stores.users())
        {
            self.user = user
            cookie = value
            csrf = settings.tokens.token(forSession: value)
            isNewCSRF = false
            return
        }
        user = nil
        cookie = nil
        if let token = cookies[Self.csrfCookie], settings.tokens.isIssued(token) {
            csrf = token
            isNewCSRF = false
        } else {
            csrf = settings.tokens.anonymousToken()
            isNewCSRF = true
        }
    }

    /// Adds the CSRF cookie when it is new.
    func decorate(_ response: inout Response) {
        if isNewCSRF {
            response.headers.add(
                "Set-Cookie", settings.cookie(Self.csrfCookie, csrf, sameSite: "Strict", maxAge: nil, for: request))
        }
    }

    /// Checks a state-changing form: it comes from our own pages, and its token is this
    /// session's (signed in), or the one this server signed and set as the CSRF cookie (not yet).
    func checkForm(_ request: Request, fields: [String: String]) throws {
        try checkOrigin(request)
        let expired = HTTPError(.forbidden, code: "forbidden", "the form has expired; reload the page and try again")
        guard let field = fields["csrf"] else { throw expired }
        if let cookie {
            guard settings.tokens.matches(field, session: cookie) else { throw expired }
        } else {
            guard let token = Self.cookies(request)[Self.csrfCookie], settings.tokens.isIssued(token),
                ConstantTime.equal(Array(field.utf8), Array(token.utf8))
            else { throw expired }
        }
    }

    /// What the signed-in visitor may do, by ``AccessPolicy`` (the API's rules): an anonymous
    /// visitor's policy when no one is signed in.
    func policy(stores: any CatalogDatabase) throws -> AccessPolicy {
        try RequestAuthentication.policy(for: user, stores: stores)
    }

    /// Checks a change the page's script sends (a JSON body, not a form): it comes from our own
    /// pages (`Origin`, when the browser sends one, names this site), carries this session's CSRF
    /// token in the ``csrfHeader`` header, and a user is signed in.
    ///
    /// - Returns: the signed-in user.
    /// - Throws: 403 for another site or a missing or wrong token, 401 without a session.
    func checkScript(_ request: Request) throws -> User {
        try checkOrigin(request)
        guard let cookie, let user else { throw HTTPError(.unauthorized, code: "unauthorized", "sign in first") }
        guard let token = request.headers[Self.csrfHeader], settings.tokens.matches(token, session: cookie) else {
            throw HTTPError(.forbidden, code: "forbidden", "the page has expired; reload it and try again")
        }
        return user
    }

    /// The header that carries the CSRF token of a change the script sends.
    static let csrfHeader = "X-CSRF-Token"

    /// 403 when the request's `Origin` names another site than this one (or a trusted origin).
    private func checkOrigin(_ request: Request) throws {
        guard let origin = request.headers["Origin"]?.lowercased() else { return }
        let host = request.headers["Host"]?.lowercased() ?? ""
        guard origin == "http://\(host)" || origin == "https://\(host)" || settings.trustedOrigins.contains(origin)
        else {
            throw HTTPError(.forbidden, code: "forbidden", "the form came from another site")
        }
    }

    /// Whether a request carries a session cookie (valid or not): its answer may be that user's.
    static func carriesSession(_ request: Request) -> Bool {
        cookies(request)[sessionCookie].map { !$0.isEmpty } ?? false
    }

    /// `name=value` pairs of the Cookie header.
    static func cookies(_ request: Request) -> [String: String] {
        var result: [String: String] = [:]
        for header in request.headers.values("Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                let name = parts[0].trimmingCharacters(in: .whitespaces)
                if result[name] == nil { result[name] = parts[1].trimmingCharacters(in: .whitespaces) }
            }
        }
        return result
    }

    /// A form body (`application/x-www-form-urlencoded`) as fields.
    static func formFields(_ request: Request) throws -> [String: String] {
        let type = request.headers["Content-Type"]?.lowercased() ?? ""
        guard type.hasPrefix("application/x-www-form-urlencoded") else {
            throw HTTPError(.unsupportedMediaType, code: "unsupported_media_type", "send a form")
        }
        guard let parsed = Request(method: .post, target: "/?" + String(decoding: request.body, as: UTF8.self)) else {
            throw HTTPError.badParameter("the form is malformed")
        }
        var fields: [String: String] = [:]
        for (name, value) in parsed.query where fields[name] == nil { fields[name] = value }
        return fields
    }
}
