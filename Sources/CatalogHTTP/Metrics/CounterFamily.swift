import Synchronization

/// A counter with labels, moved by the code that counts (``MetricsRegistry/counter(_:help:labels:)``).
public final class CounterFamily: Sendable, MetricFamily {
    let name: String
    let help: String
    let labels: [String]
    var type: MetricType { .counter }
    private let values = Mutex<[[String]: Double]>([:])

    init(name: String, help: String, labels: [String]) {
        self.name = name
        self.help = help
        self.labels = labels
    }

    /// Adds `amount` to the child with these label values (one per label name, in order).
    public func increment(_ labelValues: [String] = [], by amount: Double = 1) {
        precondition(labelValues.count == labels.count, "\(name) takes \(labels.count) label values")
        values.withLock { $0[labelValues, default: 0] += amount }
    }

    /// The value of the child with these label values (0 when it never moved).
    public func value(_ labelValues: [String] = []) -> Double {
        values.withLock { $0[labelValues] ?? 0 }
    }

    func samples() -> [MetricSample] {
        let children = values.withLock { $0 }
        return children.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { key, value in
            MetricSample(labels: Array(zip(labels, key)).map { ($0, $1) }, value: value)
        }
    }
}
