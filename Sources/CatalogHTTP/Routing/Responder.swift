/// Anything that answers requests: a route's handler, a router, a middleware chain.
///
/// Responders are synchronous on purpose: they run on the server's own worker threads (never on
/// Swift's cooperative pool), where blocking in SQLite is the right thing to do, and a worker
/// answers the next request only after this one.
public protocol Responder: Sendable {
    /// Answers `request`.
    ///
    /// - Throws: ``HTTPError`` for answers such as 404; anything else becomes a bare 500.
    func respond(to request: Request, context: RequestContext) throws -> Response
}

/// What the router adds to a request: the values of the route's parameters.
public struct RequestContext: Sendable {
    /// Values of `{name}` segments of the matched route, decoded.
    public var parameters: [String: String] = [:]
    /// The segments matched by a trailing `{name...}` pattern, each decoded on its own.
    public var remainder: [String] = []
    /// The matched route's pattern (`/api/v1/catalogs/{id}`), for logs and metrics.
    public var route: String?
    /// The matched route's options (its authentication, lane, body limit and rate class);
    /// ``RouteOptions/standard`` before the router ran.
    public var options: RouteOptions = .standard
    /// For work offloaded from the event loop (``OffloadLane``): true once the client has gone
    /// or the server is stopping, so long work can give up.
    public var isCancelled: @Sendable () -> Bool = { false }
    /// What the request's handling learns for its log line and metrics (the route, the user),
    /// when an outer middleware (``ObservationMiddleware``) wants it; the router passes it on.
    public var notes: RequestNotes?

    /// Creates an empty context.
    public init() {}

}

/// A responder made from a closure.
public struct ClosureResponder: Responder {
    let body: @Sendable (Request, RequestContext) throws -> Response

    /// Wraps `body`.
    public init(_ body: @escaping @Sendable (Request, RequestContext) throws -> Response) {
        self.body = body
    }

    public func respond(to request: Request, context: RequestContext) throws -> Response {
        try body(request, context)
    }
}

/// Wraps a responder: logging, errors, caching headers, compression.
public protocol Middleware: Sendable {
    /// Answers `request`, usually by calling `next` and changing what it returns.
    func respond(to request: Request, context: RequestContext, next: any Responder) throws -> Response
}

extension Responder {
    /// This responder inside `middleware`, the first one outermost.
    public func wrapped(in middleware: [any Middleware]) -> any Responder {
        middleware.reversed().reduce(self as any Responder) { inner, outer in
            MiddlewareResponder(middleware: outer, next: inner)
        }
    }
}

struct MiddlewareResponder: Responder {
    let middleware: any Middleware
    let next: any Responder

    func respond(to request: Request, context: RequestContext) throws -> Response {
        try middleware.respond(to: request, context: context, next: next)
    }
}
