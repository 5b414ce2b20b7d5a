/// Cross-origin access for the API: any origin may read it with a bearer token (no cookies are
/// involved, so `*` is safe), and preflight requests are answered from the router's methods.
public struct CORSMiddleware: Middleware {
    /// Paths starting with this get CORS headers.
    public var pathPrefix: String
    /// Answers which methods a path allows (the router's ``Router/allowedMethods(segments:)``).
    public var allowedMethods: @Sendable ([String]) -> [HTTPMethod]

    /// Creates the middleware.
    public init(pathPrefix: String, allowedMethods: @escaping @Sendable ([String]) -> [HTTPMethod]) {
        self.pathPrefix = pathPrefix
        self.allowedMethods = allowedMethods
    }

    public func respond(to request: Request, context: RequestContext, next: any Responder) throws -> Response {
        guard request.rawPath.hasPrefix(pathPrefix) else { return try next.respond(to: request, context: context) }
        if request.method == .options, request.headers["Access-Control-Request-Method"] != nil {
            let methods = allowedMethods(request.segments)
            guard !methods.isEmpty else { throw HTTPError.notFound("no such resource: \(request.rawPath)") }
            let list = methods.map(\.rawValue).joined(separator: ", ")
            return Response(
                status: .noContent,
                headers: HTTPHeaders([
                    ("Access-Control-Allow-Origin", "*"),
                    ("Access-Control-Allow-Methods", list),
                    ("Access-Control-Allow-Headers", "Authorization, Content-Type, If-None-Match, If-Match"),
                    ("Access-Control-Max-Age", "600"),
                    ("Allow", list),
                ]))
        }
        var response: Response
        do {
            response = try next.respond(to: request, context: context)
        } catch let error as any HTTPResponseError {
            // An error clients see carries the header too; the server's own failures stay bare.
            guard var answer = error.httpError else { throw error }
            answer.headers["Access-Control-Allow-Origin"] = "*"
            throw answer
        }
        response.headers.add("Access-Control-Allow-Origin", "*")
        response.headers.add("Access-Control-Expose-Headers", "ETag, Content-Length, Location")
        return response
    }
}
