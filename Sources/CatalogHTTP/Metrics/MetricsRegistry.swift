import Synchronization

/// Metrics a server exposes in the Prometheus text format (version 0.0.4): counters and
/// histograms the code moves as it works, and gauges (or counters) read from their owner when
/// the metrics are asked for.
///
/// Written once for every metric: families are registered at start, each under a unique name;
/// moving one is a lock held for a dictionary update, and a reading costs nothing until
/// ``render()`` runs.
///
/// ```swift
/// let metrics = MetricsRegistry()
/// let requests = metrics.counter("catalog_http_requests_total", help: "Requests answered.", labels: ["route"])
/// requests.increment(["/api/v1/catalogs"])
/// metrics.gauge("catalog_http_connections_open", help: "Connections open now.") { [([], 3)] }
/// let text = metrics.render()
/// ```
public final class MetricsRegistry: Sendable {
    private let families = Mutex<[any MetricFamily]>([])

    /// The content type of ``render()``'s text: `text/plain; version=0.0.4; charset=utf-8`.
    public static let contentType = MetricsText.contentType

    /// An empty registry.
    public init() {}

    /// Registers a counter whose children are moved with ``CounterFamily/increment(_:by:)``.
    ///
    /// - Parameters:
    ///   - name: the metric's name (`[a-zA-Z_:][a-zA-Z0-9_:]*`, ending in `_total` by convention).
    ///   - help: one line saying what it counts.
    ///   - labels: the label names; every increment gives one value for each.
    /// - Returns: the counter.
    public func counter(_ name: String, help: String, labels: [String] = []) -> CounterFamily {
        let family = CounterFamily(name: name, help: help, labels: labels)
        register(family)
        return family
    }

    /// Registers a histogram with fixed bucket bounds.
    ///
    /// - Parameters:
    ///   - name: the metric's name (`_seconds` for durations).
    ///   - help: one line saying what it observes.
    ///   - labels: the label names; every observation gives one value for each.
    ///   - buckets: the upper bounds, ascending; `+Inf` is added.
    /// - Returns: the histogram.
    public func histogram(
        _ name: String, help: String, labels: [String] = [], buckets: [Double] = HistogramFamily.latencyBuckets
    ) -> HistogramFamily {
        let family = HistogramFamily(name: name, help: help, labels: labels, buckets: buckets)
        register(family)
        return family
    }

    /// Registers a gauge read from its owner each time the metrics are rendered.
    ///
    /// - Parameters:
    ///   - name: the metric's name.
    ///   - help: one line saying what it measures.
    ///   - labels: the label names; each reading gives one value for each.
    ///   - read: the current values, one per label combination.
    public func gauge(
        _ name: String, help: String, labels: [String] = [],
        read: @escaping @Sendable () -> [(labels: [String], value: Double)]
    ) {
        register(CollectedFamily(name: name, help: help, type: .gauge, labels: labels, read: read))
    }

    /// Registers a counter kept by its owner (an atomic it already has), read when rendered.
    public func counter(
        _ name: String, help: String, labels: [String] = [],
        read: @escaping @Sendable () -> [(labels: [String], value: Double)]
    ) {
        register(CollectedFamily(name: name, help: help, type: .counter, labels: labels, read: read))
    }

    private func register(_ family: any MetricFamily) {
        families.withLock { families in
            precondition(!families.contains { $0.name == family.name }, "metric \(family.name) registered twice")
            families.append(family)
        }
    }

    /// Every metric in the Prometheus text exposition format 0.0.4, in the order registered.
    public func render() -> String {
        var text = MetricsText()
        for family in families.withLock({ $0 }) {
            text.family(name: family.name, help: family.help, type: family.type, samples: family.samples())
        }
        return text.output
    }
}

/// A metric family: a name, its help and type, and its samples now.
protocol MetricFamily: Sendable {
    var name: String { get }
    var help: String { get }
    var type: MetricType { get }
    func samples() -> [MetricSample]
}

/// The types the registry writes.
enum MetricType: String, Sendable {
    case counter
    case gauge
    case histogram
}

/// One line of a family: a suffix of its name (`_bucket`, `_sum`, `_count`, or none), its labels
/// and its value.
struct MetricSample: Sendable {
    var suffix: String = ""
    var labels: [(name: String, value: String)]
    var value: Double
}
