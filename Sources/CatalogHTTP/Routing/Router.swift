/// Maps method and path to a handler. Built once with ``RouterBuilder``, then immutable.
///
/// Patterns are literal segments, `{name}` for one segment, and a final `{name...}` for the
/// rest of the path. A literal beats a parameter at the same position. A path that exists with
/// other methods answers 405 with `Allow`; HEAD runs the GET handler (the server drops the body).
///
/// Each route carries its ``RouteOptions`` (lane, body limit, authentication, rate class): the
/// server asks ``options(method:segments:)`` at head time, and the handler finds them in its
/// context.
///
/// ```swift
/// var routes = RouterBuilder()
/// routes.get("/api/v1/catalogs/{id}") { request, context in … }
/// let router = routes.build()
/// ```
public struct Router: Responder {
    /// One path segment's position in the tree as ``RouterBuilder`` builds it; ``RouterBuilder/build(routeMiddleware:)``
    /// freezes the tree into ``Branch``es.
    struct Node: Sendable {
        var literals: [String: Node] = [:]
        /// The `{name}` child: its name, and the node in a one-element array (a struct cannot
        /// hold itself directly).
        var parameterName: String?
        var parameterNode: [Node] = []
        var remainder: (name: String, handlers: [HTTPMethod: Route])?
        var handlers: [HTTPMethod: Route] = [:]

        /// Adds `route` for `method` under the pattern's remaining `pieces`.
        mutating func insert(_ pieces: ArraySlice<String>, method: HTTPMethod, route: Route) {
            let pattern = route.pattern
            guard let piece = pieces.first else {
                precondition(handlers[method] == nil, "duplicate route \(method) \(pattern)")
                handlers[method] = route
                return
            }
            let rest = pieces.dropFirst()
            if piece.hasPrefix("{") && piece.hasSuffix("...}") {
                precondition(rest.isEmpty, "\(pattern): {name...} must come last")
                var handlers = remainder?.handlers ?? [:]
                precondition(handlers[method] == nil, "duplicate route \(method) \(pattern)")
                handlers[method] = route
                remainder = (String(piece.dropFirst().dropLast(4)), handlers)
            } else if piece.hasPrefix("{") && piece.hasSuffix("}") {
                let name = String(piece.dropFirst().dropLast())
                if let existing = parameterName {
                    precondition(existing == name, "\(pattern): parameter {\(name)} clashes with {\(existing)}")
                } else {
                    parameterName = name
                    parameterNode = [Node()]
                }
                parameterNode[0].insert(rest, method: method, route: route)
            } else {
                literals[piece, default: Node()].insert(rest, method: method, route: route)
            }
        }
    }

    /// A position of the built tree: a class whose tables are never changed, so that matching a
    /// request walks references instead of copying each node's tables on the way (twice a
    /// request: its options at head time, its handler after).
    final class Branch: Sendable {
        let literals: [String: Branch]
        let parameter: (name: String, branch: Branch)?
        let remainder: (name: String, handlers: [HTTPMethod: Route])?
        let handlers: [HTTPMethod: Route]

        /// The tree `node` was built into.
        init(_ node: Node) {
            literals = node.literals.mapValues(Branch.init)
            parameter = node.parameterName.flatMap { name in node.parameterNode.first.map { (name, Branch($0)) } }
            remainder = node.remainder
            handlers = node.handlers
        }
    }

    struct Route: Sendable {
        let pattern: String
        let options: RouteOptions
        let responder: any Responder
    }

    let root: Branch

    /// Every route as method and pattern, in the order they were added (for documentation
    /// checks and listings).
    public let routes: [(method: HTTPMethod, pattern: String)]

    /// The options of each route, by method and pattern.
    let declared: [String: RouteOptions]

    /// Middleware that runs after a route matched and before its handler, seeing the route's
    /// pattern, options and parameters in the context (outermost first).
    let routeMiddleware: [any Middleware]

    /// The outcome of matching a path.
    enum Match {
        case found(Route, RequestContext)
        case methodNotAllowed(allowed: [HTTPMethod])
        case notFound
    }

    func match(method: HTTPMethod, segments: [String]) -> Match {
        var context = RequestContext()
        guard let handlers = find(root, segments[...], &context) else { return .notFound }
        let effective = method == .head && handlers[.head] == nil ? HTTPMethod.get : method
        if let route = handlers[effective] {
            context.route = route.pattern
            context.options = route.options
            return .found(route, context)
        }
        return .methodNotAllowed(allowed: Self.allowed(handlers))
    }

    /// The methods of a path's handlers, HEAD included wherever GET is, sorted by name.
    private static func allowed(_ handlers: [HTTPMethod: Route]) -> [HTTPMethod] {
        var allowed = Set(handlers.keys)
        if allowed.contains(.get) { allowed.insert(.head) }
        return allowed.sorted { $0.rawValue < $1.rawValue }
    }

    /// The handlers of the path `segments` leads to from `branch`, nil when none; the context
    /// gets the parameters of the way that led there (of a name used twice, the later segment's),
    /// and is left alone when none did.
    private func find(_ branch: Branch, _ segments: ArraySlice<String>, _ context: inout RequestContext)
        -> [HTTPMethod: Route]?
    {
        guard let segment = segments.first else { return branch.handlers.isEmpty ? nil : branch.handlers }
        let rest = segments.dropFirst()
        if let next = branch.literals[segment], let found = find(next, rest, &context) { return found }
        if let (name, next) = branch.parameter, let found = find(next, rest, &context) {
            // Set on the way back up: a name the path below set already keeps its later segment.
            if context.parameters[name] == nil { context.parameters[name] = segment }
            return found
        }
        if let (name, handlers) = branch.remainder {
            context.parameters[name] = segments.joined(separator: "/")
            context.remainder = Array(segments)
            return handlers
        }
        return nil
    }

    public func respond(to request: Request, context: RequestContext) throws -> Response {
        switch match(method: request.method, segments: request.segments) {
        case .found(let route, var matched):
            // The route's parameters, with what the server put in the context (cancellation).
            matched.isCancelled = context.isCancelled
            matched.notes = context.notes
            context.notes?.matched(route: route.pattern, options: route.options)
            guard !routeMiddleware.isEmpty else { return try route.responder.respond(to: request, context: matched) }
            return try route.responder.wrapped(in: routeMiddleware).respond(to: request, context: matched)
        case .methodNotAllowed(let allowed):
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            if request.method == .options {
                return Response(status: .noContent, headers: HTTPHeaders([("Allow", allow)]))
            }
            throw HTTPError(
                .methodNotAllowed, code: "method_not_allowed",
                "\(request.method.rawValue) is not allowed here; allowed: \(allow)",
                headers: HTTPHeaders([("Allow", allow)]))
        case .notFound:
            throw HTTPError.notFound("no such resource: \(request.rawPath)")
        }
    }

    /// The options of the route a request with `method` and `segments` reaches (HEAD: the GET
    /// route's, unless there is a HEAD route); ``RouteOptions/standard`` when no route does.
    ///
    /// `segments` are those of ``Request/segments``: empty segments dropped, so every spelling of
    /// a path has its route's options.
    public func options(method: HTTPMethod, segments: [String]) -> RouteOptions {
        if case .found(let route, _) = match(method: method, segments: segments) { return route.options }
        return .standard
    }

    /// The pattern and options of the route a request with `method` and `segments` reaches (HEAD:
    /// the GET route's), nil when none does: for logs and metrics of answers that did not pass
    /// the router (a cached answer).
    public func route(method: HTTPMethod, segments: [String]) -> (pattern: String, options: RouteOptions)? {
        if case .found(let route, _) = match(method: method, segments: segments) {
            return (route.pattern, route.options)
        }
        return nil
    }

    /// The options declared with the route of `method` and `pattern` (as in ``routes``), nil
    /// when there is no such route.
    public func options(of method: HTTPMethod, _ pattern: String) -> RouteOptions? {
        declared[Self.key(method, pattern)]
    }

    static func key(_ method: HTTPMethod, _ pattern: String) -> String { method.rawValue + " " + pattern }

    /// The methods `path` answers to, for CORS preflights; empty when nothing is there.
    public func allowedMethods(segments: [String]) -> [HTTPMethod] {
        var context = RequestContext()
        return find(root, segments[...], &context).map(Self.allowed) ?? []
    }
}

/// Collects routes, then builds an immutable ``Router``.
public struct RouterBuilder {
    private var root = Router.Node()
    private var built = false
    private var added: [(method: HTTPMethod, pattern: String)] = []
    private var declared: [String: RouteOptions] = [:]

    /// Creates an empty builder.
    public init() {}

    /// Adds `responder` for `method` at `pattern`, with what the server must know about it.
    ///
    /// - Parameters:
    ///   - method: the method.
    ///   - pattern: literal segments, `{name}`, and a final `{name...}`.
    ///   - options: lane, body limit, authentication and rate class; the defaults unless given.
    ///   - responder: answers the route's requests.
    public mutating func add(
        _ method: HTTPMethod, _ pattern: String, options: RouteOptions = .standard, _ responder: any Responder
    ) {
        precondition(!built, "routes cannot change after build()")
        added.append((method, pattern))
        declared[Router.key(method, pattern)] = options
        let pieces = pattern.split(separator: "/").map(String.init)
        root.insert(
            pieces[...], method: method, route: Router.Route(pattern: pattern, options: options, responder: responder))
    }

    /// Adds a closure for `method` at `pattern`, with its options.
    public mutating func on(
        _ method: HTTPMethod, _ pattern: String, options: RouteOptions = .standard,
        _ handler: @escaping @Sendable (Request, RequestContext) throws -> Response
    ) {
        add(method, pattern, options: options, ClosureResponder(handler))
    }

    /// Adds a GET route (HEAD runs it too), with its options.
    public mutating func get(
        _ pattern: String, options: RouteOptions = .standard,
        _ handler: @escaping @Sendable (Request, RequestContext) throws -> Response
    ) {
        on(.get, pattern, options: options, handler)
    }

    /// The finished router; the builder cannot be used afterwards.
    ///
    /// - Parameter routeMiddleware: middleware every matched request passes between the router
    ///   and the route's handler (outermost first). It runs after the match, so it sees the
    ///   route's pattern, parameters and options in its context: a check that every route of a
    ///   kind must pass is written once, and a new route is checked without asking.
    public mutating func build(routeMiddleware: [any Middleware] = []) -> Router {
        built = true
        return Router(root: Router.Branch(root), routes: added, declared: declared, routeMiddleware: routeMiddleware)
    }
}
