import CatalogHTTP
import CatalogStorage

/// What every web page handler shares: the web app's stores and settings (``WebRoutes``), and the
/// visitor's session.
protocol WebHandler: Sendable {
    /// The web app's stores, settings and throttle.
    var web: WebRoutes { get }
}

extension WebHandler {
    var stores: any CatalogDatabase { web.stores }

    /// The visitor's session, from the session cookie; only routes that declare they read it
    /// (`authentication: .optional`) ask for it.
    func session(_ request: Request, _ context: RequestContext) throws -> WebSession {
        assert(context.options.authentication == .optional, "\(context.route ?? "?") reads the session: declare it")
        let session = try WebSession(
            request: request, stores: stores, authenticator: web.authenticator, settings: web.settings)
        // The access log names the signed-in user (never the cookie).
        if let user = session.user { context.notes?.user = user.name }
        return session
    }
}
