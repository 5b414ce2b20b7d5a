/// Sees every request: gives it an id (``RequestID``), answered in `X-Request-Id` and passed to
/// the handlers in the request's own `X-Request-Id` header (so error lines can name it), counts
/// it in the metrics by route pattern and status (``HTTPMetrics``), and writes its access-log
/// line (``AccessLog``), except for probes (``RateClass/probe``), which are only counted.
///
/// Outermost, so what it measures is the whole answer.
public struct ObservationMiddleware: Middleware {
    let log: AccessLog?
    let metrics: HTTPMetrics?
    let requestID: RequestID
    let router: Router?

    /// Creates the middleware.
    ///
    /// - Parameters:
    ///   - log: where request lines go; nil for none.
    ///   - metrics: the request counters and latency histograms; nil for none.
    ///   - requestID: makes fresh ids.
    ///   - router: names the route of an answer that did not reach the router (a cached one).
    public init(log: AccessLog?, metrics: HTTPMetrics?, requestID: RequestID = .random, router: Router? = nil) {
        self.log = log
        self.metrics = metrics
        self.requestID = requestID
        self.router = router
    }

    public func respond(to request: Request, context: RequestContext, next: any Responder) throws -> Response {
        let start = ContinuousClock.now
        let id = requestID.id(for: request)
        var request = request
        request.headers["X-Request-Id"] = id
        let notes = RequestNotes()
        var context = context
        context.notes = notes
        var response: Response
        do {
            response = try next.respond(to: request, context: context)
        } catch {
            // Nothing inside turned it into an answer: the server answers a bare 500.
            notes.error = notes.error ?? "unexpected error"
            finish(request, id: id, notes: notes, status: 500, bytes: nil, start: start)
            throw error
        }
        response.headers["X-Request-Id"] = id
        var bytes = response.bytes?.count
        if case .file(let file) = response.body { bytes = Int(file.length) }
        finish(request, id: id, notes: notes, status: response.status.rawValue, bytes: bytes, start: start)
        return response
    }

    private func finish(
        _ request: Request, id: String, notes: RequestNotes, status: Int, bytes: Int?, start: ContinuousClock.Instant
    ) {
        let elapsed = ContinuousClock.now - start
        if notes.route == nil,
            let (pattern, options) = router?.route(method: request.method, segments: request.segments)
        {
            notes.matched(route: pattern, options: options)
        }
        let route = notes.route
        metrics?.record(route: route, method: request.method, status: status, elapsed: elapsed)
        guard let log, notes.options.rateClass != .probe else { return }
        let micros =
            Int(elapsed.components.seconds) * 1_000_000 + Int(elapsed.components.attoseconds / 1_000_000_000_000)
        log.write(
            AccessLogEntry(
                requestID: id, client: request.clientAddress, method: request.method.rawValue, route: route,
                path: request.rawPath, status: status, bytes: bytes, micros: micros, user: notes.user,
                error: notes.error))
    }
}
