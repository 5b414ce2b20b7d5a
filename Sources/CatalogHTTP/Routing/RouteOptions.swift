/// What the server must know about a route before its handler runs, declared with the route
/// (``RouterBuilder/add(_:_:options:_:)``) so that a renamed or re-spelled path keeps it.
///
/// The server asks the router for a request's options once its head is in
/// (``ServerConfiguration/routeOptions``), matching segments as the router does (empty segments
/// dropped, so `/api/v1/catalogs/x/import/` and `//api/v1/catalogs/x/import` are the import
/// route): the body limit and the offload lane come from here, never from tests on the path.
///
/// ```swift
/// routes.on(.post, "/api/v1/catalogs/{id}/import",
///     options: RouteOptions(lane: RouteLane("imports"), bodyLimit: 64 << 20, authentication: .admin,
///         rateClass: .expensive)
/// ) { request, context in … }
/// ```
public struct RouteOptions: Sendable {
    /// The offload lane the route's requests run on (``ServerConfiguration/offloadLanes``); nil:
    /// they run on the event-loop worker that read them.
    public var lane: RouteLane?
    /// The largest request body accepted (413 beyond it); nil: the server's
    /// ``ServerConfiguration/maxBodyBytes``.
    public var bodyLimit: Int?
    /// Who may call the route; the handlers ask for it through their context, which enforces it.
    public var authentication: RouteAuthentication
    /// Which limit on the rate of requests applies.
    public var rateClass: RateClass

    /// Options for a route.
    ///
    /// - Parameters:
    ///   - lane: the offload lane, nil for the worker.
    ///   - bodyLimit: the largest body, nil for the server's default.
    ///   - authentication: who may call it.
    ///   - rateClass: which rate limit applies.
    public init(
        lane: RouteLane? = nil, bodyLimit: Int? = nil, authentication: RouteAuthentication = .none,
        rateClass: RateClass = .standard
    ) {
        self.lane = lane
        self.bodyLimit = bodyLimit
        self.authentication = authentication
        self.rateClass = rateClass
    }

    /// No lane, the server's body limit, no credentials read, the client's CPU budget: what a
    /// route gets unless it says otherwise, and what a path no route matches gets.
    public static let standard = RouteOptions()
}

/// The offload lane a route runs on, by the name of a ``OffloadLane`` of the server's
/// configuration, and when the choice depends on more than the route (a sign-in that the throttle
/// refuses is answered at once; a thumbnail already made is sent by the worker), the request's own
/// test.
public struct RouteLane: Sendable {
    /// The lane's ``OffloadLane/name``. A name the configuration has no lane for runs on the
    /// worker.
    public var name: String
    /// Whether this request runs on the lane; nil: every request of the route does.
    public var admits: (@Sendable (Request) -> Bool)?

    /// The lane `name`, for every request of the route or for those `admits` accepts.
    public init(_ name: String, admits: (@Sendable (Request) -> Bool)? = nil) {
        self.name = name
        self.admits = admits
    }
}

/// Who may call a route. The router puts it in the ``RequestContext`` of the request; the
/// application's authentication reads it from there, so a handler cannot ask for less than its
/// route declares.
public enum RouteAuthentication: String, Sendable, CaseIterable {
    /// Credentials are not read (public data).
    case none
    /// A signed-in user changes the answer (the web app's pages, by their session cookie), an
    /// anonymous one is served too.
    case optional
    /// A signed-in user only: 401 without valid credentials.
    case signedIn
    /// An administrator only: 401 without valid credentials, 403 for other users.
    case admin
}

/// Which limit on the rate of a client's requests applies to a route.
public enum RateClass: String, Sendable, CaseIterable {
    /// The client's CPU budget (``ClientCostLedger``): what the request costs is charged to its
    /// address, and over the budget its requests wait on the slow lane.
    case standard
    /// Sign-ins: failed attempts are throttled per account and address (the application's
    /// throttle, checked by the handler and by the route's lane test); the password checks run on
    /// their lane, whose CPU time is not charged to the client's budget.
    case signIn
    /// Costly work on a lane of its own (imports, snapshots, thumbnails): the lane's short queue
    /// limits it (503 beyond), and the lane's CPU time is not charged to the client's budget.
    case expensive
    /// Health probes and metrics (`/healthz`, `/readyz`, `/metrics`): cheap, so never slowed or
    /// charged to the client's CPU budget, and left out of the access log (a prober asks every
    /// few seconds); the metrics still count them.
    case probe

    /// Whether offloaded work of this class is charged to the client's CPU budget (work answered
    /// on a worker always is).
    public var chargesLaneWork: Bool { self == .standard }
}
