import CatalogHTTP
import CatalogStorage

/// `GET /healthz` and `GET /readyz`, for load balancers and orchestrators: plain text, cheap,
/// never throttled and left out of the access log (``RateClass/probe``).
///
/// - `/healthz`: 200 `ok` while the process answers at all.
/// - `/readyz`: 200 `ready` when the database answers a read and the server is not draining;
///   503 `draining` once a stop (SIGTERM) has begun, 503 `database unavailable` when the read
///   fails, so traffic moves elsewhere first.
struct HealthRoutes: Sendable {
    let stores: any CatalogDatabase
    /// Whether the server is stopping.
    let isDraining: @Sendable () -> Bool

    static let options = RouteOptions(rateClass: .probe)

    func register(in routes: inout RouterBuilder) {
        routes.get("/healthz", options: Self.options) { _, _ in Self.plain("ok\n", status: .ok) }
        routes.get("/readyz", options: Self.options) { _, _ in
            if isDraining() { return Self.plain("draining\n", status: .serviceUnavailable) }
            do {
                _ = try stores.read { try $0.catalogs().count }
            } catch {
                return Self.plain("database unavailable\n", status: .serviceUnavailable)
            }
            return Self.plain("ready\n", status: .ok)
        }
    }

    static func plain(_ text: String, status: HTTPStatus) -> Response {
        var response = Response.text(text, status: status)
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
