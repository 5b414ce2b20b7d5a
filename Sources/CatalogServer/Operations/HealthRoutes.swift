import Foundation
import CatalogHTTP
import CatalogStorage

/// `GET /healthz` and `GET /readyz`, for load balancers and orchestrators: plain text, cheap,
/// never throttled and left out of the access log (``RateClass/probe``).
///
/// - `/healthz`: 200 `ok` while the process answers at all.
/// - `/readyz`: 200 `ready` when the database answers a read and the server is not draining;
///   503 `draining` once a stop (SIGTERM) has begun, 503 `database unavailable` when the read
///   fails, so traffic moves elsewhere first. With read replicas (`--db-read`) a line per replica
///   follows (`replica URL: up, lag 0.012 s, 0 versions behind` or `replica URL: down`); a replica
///   that is down does not make the server unready, since its reads go to the primary.
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
            return Self.plain("ready\n" + Self.lines(stores.readReplicaReport()), status: .ok)
        }
    }

    /// A line per replica of `report`.
    static func lines(_ report: ReadReplicaReport?) -> String {
        guard let report else { return "" }
        return report.replicas.map { replica in
            guard replica.isUp else { return "replica \(replica.name): down\n" }
            var line = "replica \(replica.name): up"
            if let lag = replica.lagSeconds { line += ", lag \(String(format: "%.3f", lag)) s" }
            if let behind = replica.versionsBehind { line += ", \(behind) versions behind" }
            return line + "\n"
        }.joined()
    }

    static func plain(_ text: String, status: HTTPStatus) -> Response {
        var response = Response.text(text, status: status)
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
