import CatalogAuth
import CatalogHTTP
import CatalogModel
import CatalogStorage
import Foundation

/// Signing in and out of the web app: the form, the password check (on the password lane unless
/// the throttle refuses it: ``WebRoutes``'s table says so), and the end of a session.
struct SignInHandler: WebHandler {
    let web: WebRoutes

    /// `GET /signin`.
    func form(_ request: Request, _ context: RequestContext) throws -> Response {
        let next = SignInPage.safeNext(request.query("next"))
        let (strings, catalog) = try Self.language(of: next, request: request, stores: stores)
        return SignInPage(
            session: try session(request, context), next: next, outcome: .form, strings: strings, catalog: catalog
        ).render()
    }

    /// `POST /signin`: password checks cost about 0.1 s of CPU each.
    func signIn(_ request: Request, _ context: RequestContext) throws -> Response {
        let fields = try WebSession.formFields(request)
        let session = try session(request, context)
        try session.checkForm(request, fields: fields)
        let next = SignInPage.safeNext(fields["next"])
        let (strings, catalog) = try Self.language(of: next, request: request, stores: stores)
        let name = fields["name"] ?? ""
        func page(_ outcome: SignInPage.Outcome) -> Response {
            SignInPage(session: session, next: next, outcome: outcome, strings: strings, catalog: catalog, name: name)
                .render()
        }
        let password = fields["password"] ?? ""
        func failed(_ reason: String) {
            web.audit.record(.signInFailed, of: request, context, target: name, detail: "\(reason) (web)")
        }
        guard !name.isEmpty, !password.isEmpty, password.utf8.count <= 1024 else {
            failed("malformed")
            return page(.failed)
        }
        let throttle = web.throttle
        if case .locked(let seconds) = throttle.check(account: name, address: request.clientAddress) {
            throttle.noteRefused()
            failed("throttled")
            return page(.locked(retryAfter: seconds))
        }
        let check = try web.authenticator.checkPassword(name: name, password: password, in: stores.users())
        guard case .signedIn(let user) = check else {
            throttle.recordFailure(account: name, address: request.clientAddress)
            failed(check.failure ?? "failed")
            return page(.failed)
        }
        web.audit.record(.signIn, of: request, context, actor: user.name, target: user.name, detail: "web")
        throttle.recordSuccess(account: name, address: request.clientAddress)
        try Self.mergeFavorites(fields["favorites"], user: user, stores: stores)
        let cookie = try web.authenticator.startSession(for: user, in: stores.users())
        var response = WebRoutes.redirect(next)
        // Whatever this browser kept from whoever used it before is dropped.
        response.headers.add("Clear-Site-Data", WebRoutes.clearSiteData)
        response.headers.add(
            "Set-Cookie",
            web.settings.cookie(
                WebSession.sessionCookie, cookie, sameSite: "Lax", maxAge: Int(WebSession.lifetime), for: request))
        // Forms are bound to the new session from now on: the token from before is spent.
        response.headers.add(
            "Set-Cookie", web.settings.cookie(WebSession.csrfCookie, "", sameSite: "Strict", maxAge: 0, for: request))
        return response
    }

    /// `POST /signout`.
    func signOut(_ request: Request, _ context: RequestContext) throws -> Response {
        let fields = try WebSession.formFields(request)
        let session = try session(request, context)
        try session.checkForm(request, fields: fields)
        if let cookie = session.cookie {
            try web.authenticator.endSession(cookie: cookie, in: stores.users())
            web.audit.record(.signOut, of: request, context, detail: "web")
        }
        var response = WebRoutes.redirect("/")
        response.headers.add(
            "Set-Cookie", web.settings.cookie(WebSession.sessionCookie, "", sameSite: "Lax", maxAge: 0, for: request))
        // The browser's HTTP cache goes with the session; the service worker empties its own
        // page caches when it sees this form (and the page tells it too).
        response.headers.add("Clear-Site-Data", WebRoutes.clearSiteData)
        return response
    }

    /// Whether a web sign-in may check a password now (it runs on the password lane); a
    /// throttled one is answered at once on its worker.
    static func isPasswordCheck(_ request: Request, throttle: SignInThrottle) -> Bool {
        let name = (try? WebSession.formFields(request))?["name"] ?? ""
        return throttle.check(account: name, address: request.clientAddress) == .allowed
    }

    /// The language of a sign-in page: that of the public catalog it returns to, else the
    /// browser's; and that catalog, for its tabs. A catalog that is not public is not named (the
    /// page is the one of a missing catalog).
    static func language(of next: String, request: Request, stores: any CatalogDatabase) throws -> (
        WebStrings, CatalogDefinition?
    ) {
        let segments = next.split(separator: "?", maxSplits: 1).first?.split(separator: "/") ?? []
        if segments.count >= 2, segments[0] == "c",
            let catalog = try stores.read({ try $0.catalog(String(segments[1]).removingPercentEncoding ?? "") }),
            catalog.definition.visibility == .public
        {
            return (WebStrings.forLocale(catalog.definition.locale), catalog.definition)
        }
        return (WebStrings.negotiate(request.headers["Accept-Language"]), nil)
    }

    /// Adds the favorites a browser kept while signed out (`[["catalog","item"],…]`, at most 500)
    /// to the account; entries whose record does not exist, or whose catalog the user may not
    /// see, are left out.
    static func mergeFavorites(_ field: String?, user: User, stores: any CatalogDatabase) throws {
        guard let field, !field.isEmpty, field.utf8.count <= 200_000,
            let list = try? CatalogJSONDecoder().decode([[String]].self, from: Array(field.utf8))
        else { return }
        let policy = try RequestAuthentication.policy(for: user, stores: stores)
        // The records that exist, in one read that ends before the account is written.
        let kept = try stores.read { reader in
            try list.prefix(500).filter { entry in
                guard entry.count == 2, let catalog = try reader.catalog(entry[0]), policy.sees(catalog.summary) else {
                    return false
                }
                return try reader.item(of: catalog, id: entry[1]) != nil
            }
        }
        let users = try stores.users()
        for entry in kept { _ = try users.addFavorite(userID: user.id, catalog: entry[0], item: entry[1]) }
    }
}
