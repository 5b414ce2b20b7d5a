import CatalogTestSupport
import Foundation
import Testing

/// `catalog serve --metrics-port` (here from `CATALOG_METRICS_PORT`): a second listener that
/// serves only `/metrics`, while the main port has none.
@Suite struct ServeMetricsPortTests {
    @Test func metricsOnAPortOfTheirOwn() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)
        let server = try ServeProcess(
            database: cli.database, environment: ["CATALOG_METRICS_PORT": "0"],
            log: cli.directory.appendingPathComponent("serve.log"))
        defer { server.stop() }
        // The port is announced on standard error once it listens.
        var metricsPort: Int?
        #expect(
            waitUntil {
                let log = (try? String(contentsOf: server.log, encoding: .utf8)) ?? ""
                guard let match = log.firstMatch(of: /metrics on http:\/\/127\.0\.0\.1:(\d+)\/metrics/) else {
                    return false
                }
                metricsPort = Int(match.1)
                return true
            })
        let port = try #require(metricsPort)
        #expect(try server.client.request("GET", "/healthz").status == 200)
        #expect(try server.client.request("GET", "/metrics").status == 404)
        let metrics = try RawClient(port: port).request("GET", "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.text.contains(#"catalog_http_requests_total{route="/healthz",method="GET",status="200"} 1"#))
        #expect(try RawClient(port: port).request("GET", "/healthz").status == 404)
    }
}
