import Synchronization

/// What a request's handling learns that its log line and metrics need: the route pattern the
/// router matched (`/api/v1/catalogs/{id}`, never the raw path), that route's options, the name
/// of the user or API token owner who sent it, and the description of an unexpected error.
///
/// One per request, made by ``ObservationMiddleware`` and carried in ``RequestContext/notes``;
/// the router and the handlers write to it, the middleware reads it once the answer is back.
public final class RequestNotes: Sendable {
    private struct State {
        var route: String?
        var options = RouteOptions.standard
        var user: String?
        var error: String?
    }

    private let state = Mutex(State())

    /// Empty notes.
    public init() {}

    /// The router matched `route` (its pattern), whose options are `options`.
    public func matched(route: String, options: RouteOptions) {
        state.withLock {
            $0.route = route
            $0.options = options
        }
    }

    /// The route pattern matched; nil when no route matched.
    public var route: String? { state.withLock { $0.route } }

    /// The matched route's options (``RouteOptions/standard`` when none matched).
    public var options: RouteOptions { state.withLock { $0.options } }

    /// The name of the user (or token owner) the request was authenticated as; never a token.
    public var user: String? {
        get { state.withLock { $0.user } }
        set { state.withLock { $0.user = newValue } }
    }

    /// What went wrong, for a request answered with a bare 500 (credentials already hidden).
    public var error: String? {
        get { state.withLock { $0.error } }
        set { state.withLock { $0.error = newValue } }
    }
}
