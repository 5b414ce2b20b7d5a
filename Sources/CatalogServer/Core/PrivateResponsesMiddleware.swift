import CatalogHTTP

/// Keeps what is personal out of every cache: browsers', proxies' and the web app's service
/// worker, which stores only what `Cache-Control` allows.
///
/// Routes that know a response is someone's mark it themselves (``WebHeaders/personal``: pages
/// made for a signed-in user, the favorites API). This is the rule for the whole class, written
/// once, outside the error pages too:
///
/// - a response that sets a cookie (a session, a form token) is `private, no-store`;
/// - a page (`text/html`) answered to a request that carries the session cookie is
///   `private, no-store` and varies on `Cookie`, whatever the route said.
struct PrivateResponsesMiddleware: Middleware {
    func respond(to request: Request, context: RequestContext, next: any Responder) throws -> Response {
        var response = try next.respond(to: request, context: context)
        if response.headers.contains("Set-Cookie") || isPage(response) && WebSession.carriesSession(request) {
            response.headers["Cache-Control"] = WebHeaders.personal
            let vary = response.headers["Vary"] ?? ""
            if !vary.lowercased().contains("cookie") {
                response.headers["Vary"] = vary.isEmpty ? "Cookie" : vary + ", Cookie"
            }
        }
        return response
    }

    private func isPage(_ response: Response) -> Bool {
        response.headers["Content-Type"]?.hasPrefix("text/html") == true
    }
}
