import CatalogHTTP

/// `GET /metrics`: the registry in the Prometheus text format, to the addresses allowed
/// (`--metrics-allow`, loopback unless configured); everyone else gets the 404 of a path that is
/// not there. Declared as a probe (``RateClass/probe``): never throttled, not in the access log.
struct MetricsRoute: Sendable {
    let registry: MetricsRegistry
    /// Who may read the metrics; nil: everyone (the metrics port, whose access the operator limits).
    let allowed: [AddressRange]?

    func register(in routes: inout RouterBuilder) {
        routes.get("/metrics", options: HealthRoutes.options) { request, _ in
            if let allowed, !allowed.contains(where: { $0.contains(request.clientAddress) }) {
                throw HTTPError.notFound("no such resource: \(request.rawPath)")
            }
            var response = Response(status: .ok, body: Array(registry.render().utf8))
            response.headers["Content-Type"] = MetricsRegistry.contentType
            response.headers["Cache-Control"] = "no-store"
            return response
        }
    }
}
