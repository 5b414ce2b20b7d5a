import CatalogHTTP

/// Headers every response carries: no MIME sniffing, no referrer beyond the origin, no framing.
struct SecurityHeadersMiddleware: Middleware {
    func respond(to request: Request, context: RequestContext, next: any Responder) throws -> Response {
        var response = try next.respond(to: request, context: context)
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "strict-origin-when-cross-origin"
        if response.headers["X-Frame-Options"] == nil { response.headers["X-Frame-Options"] = "DENY" }
        return response
    }
}
