import CatalogHTTP

/// Headers every response carries: no MIME sniffing, no referrer beyond the origin, no framing.
struct SecurityHeadersMiddleware: Middleware {
    func respond(to request: Request, context: RequestContext, next: any Responder) throws -> Response {
        var response = try next.respond(to: request, context: context)
        // Routes never set these, so they are appended without a lookup.
        response.headers.add("X-Content-Type-Options", "nosniff")
        response.headers.add("Referrer-Policy", "strict-origin-when-cross-origin")
        response.headers.add("X-Frame-Options", "DENY")
        return response
    }
}
