import Testing

@testable import CatalogHTTP

/// The registry's text is the Prometheus exposition format 0.0.4: HELP and TYPE per family,
/// labels quoted and escaped, histograms with cumulative buckets, `+Inf`, `_sum` and `_count`.
/// (scripts/metrics-check.sh parses a live server's text with the Prometheus client library too.)
@Suite struct MetricsRegistryTests {
    @Test func countersAndGaugesAreWrittenWithTheirHelpAndType() {
        let registry = MetricsRegistry()
        let requests = registry.counter("test_requests_total", help: "Requests.", labels: ["route", "status"])
        requests.increment(["/b/{id}", "200"])
        requests.increment(["/a", "404"], by: 2)
        requests.increment(["/b/{id}", "200"])
        registry.gauge("test_open", help: "Open now.") { [([], 3)] }
        #expect(
            registry.render() == """
                # HELP test_requests_total Requests.
                # TYPE test_requests_total counter
                test_requests_total{route="/a",status="404"} 2
                test_requests_total{route="/b/{id}",status="200"} 2
                # HELP test_open Open now.
                # TYPE test_open gauge
                test_open 3

                """)
        #expect(requests.value(["/b/{id}", "200"]) == 2)
    }

    @Test func histogramBucketsAreCumulative() {
        let registry = MetricsRegistry()
        let latency = registry.histogram("test_seconds", help: "Time.", labels: ["route"], buckets: [0.1, 1])
        latency.observe(0.05, ["/x"])
        latency.observe(0.5, ["/x"])
        latency.observe(7, ["/x"])
        #expect(latency.count(["/x"]) == 3)
        #expect(
            registry.render() == """
                # HELP test_seconds Time.
                # TYPE test_seconds histogram
                test_seconds_bucket{route="/x",le="0.1"} 1
                test_seconds_bucket{route="/x",le="1"} 2
                test_seconds_bucket{route="/x",le="+Inf"} 3
                test_seconds_sum{route="/x"} 7.55
                test_seconds_count{route="/x"} 3

                """)
    }

    @Test func labelValuesAndHelpAreEscaped() {
        let registry = MetricsRegistry()
        registry.gauge("test_escaped", help: "A \\ and a\nnew line.", labels: ["catalog"]) {
            [(["a\"b\\c\nd"], 1.5)]
        }
        #expect(registry.render().contains(#"# HELP test_escaped A \\ and a\nnew line."#))
        #expect(registry.render().contains(#"test_escaped{catalog="a\"b\\c\nd"} 1.5"#))
    }

    /// A quote or line feed that is part of a larger character (`"` with a combining mark, CR LF)
    /// is still a quote or a line feed to a scraper: it is escaped all the same.
    @Test func escapesSeeScalarsNotCharacters() {
        let registry = MetricsRegistry()
        registry.gauge("test_scalars", help: "Line\r\nbreak.", labels: ["catalog"]) {
            [(["q\"\u{301}x\r\ny"], 1)]
        }
        let text = registry.render()
        #expect(text.contains("# HELP test_scalars Line\r\\nbreak.\n"))
        #expect(text.contains("test_scalars{catalog=\"q\\\"\u{301}x\r\\ny\"} 1\n"))
    }

    @Test func numbersAreSpelledAsTheFormatSays() {
        #expect(MetricsText.number(3) == "3")
        #expect(MetricsText.number(0.25) == "0.25")
        #expect(MetricsText.number(.infinity) == "+Inf")
        #expect(MetricsText.number(-.infinity) == "-Inf")
        #expect(MetricsText.number(.nan) == "NaN")
    }

    @Test func requestMetricsLabelRoutesAndCountUnmatchedTogether() {
        let registry = MetricsRegistry()
        let metrics = HTTPMetrics(registry: registry)
        metrics.record(route: "/api/v1/catalogs/{id}", method: .get, status: 200, elapsed: .milliseconds(3))
        metrics.record(route: nil, method: .get, status: 404, elapsed: .milliseconds(1))
        metrics.record(route: nil, method: .get, status: 404, elapsed: .milliseconds(1))
        #expect(metrics.requests.value(["/api/v1/catalogs/{id}", "GET", "200"]) == 1)
        #expect(metrics.requests.value([HTTPMetrics.unmatched, "GET", "404"]) == 2)
        #expect(metrics.latency.count([HTTPMetrics.unmatched]) == 2)
    }
}
