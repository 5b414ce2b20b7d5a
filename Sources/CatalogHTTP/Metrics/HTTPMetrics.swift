/// The request metrics every server keeps: requests by route pattern, method and status, and
/// their latency by route. The route label is the router's pattern
/// (`/api/v1/catalogs/{id}/search`), never the raw path, so the number of series stays bounded;
/// requests no route matched share ``unmatched``.
public struct HTTPMetrics: Sendable {
    /// The route label of requests no route matched.
    public static let unmatched = "unmatched"

    let requests: CounterFamily
    let latency: HistogramFamily

    /// Registers `catalog_http_requests_total` and `catalog_http_request_duration_seconds` in `registry`.
    public init(registry: MetricsRegistry) {
        requests = registry.counter(
            "catalog_http_requests_total", help: "Requests answered, by route pattern, method and status.",
            labels: ["route", "method", "status"])
        latency = registry.histogram(
            "catalog_http_request_duration_seconds", help: "Time to answer a request, by route pattern.",
            labels: ["route"])
    }

    /// Counts one answered request.
    public func record(route: String?, method: HTTPMethod, status: Int, elapsed: Duration) {
        let route = route ?? Self.unmatched
        requests.increment([route, method.rawValue, String(status)])
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        latency.observe(seconds, [route])
    }
}
