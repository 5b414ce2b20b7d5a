import Synchronization

/// A histogram with fixed buckets and labels (``MetricsRegistry/histogram(_:help:labels:buckets:)``):
/// each child keeps a count per bucket, the sum and the count of what it observed.
public final class HistogramFamily: Sendable, MetricFamily {
    /// Bounds for request latencies in seconds: 0.5 ms to 10 s.
    public static let latencyBuckets: [Double] = [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ]

    struct Child {
        /// Observations at or below each bound (not cumulative; summed when rendered), then +Inf.
        var counts: [UInt64]
        var sum: Double = 0
        var count: UInt64 = 0
    }

    let name: String
    let help: String
    let labels: [String]
    let buckets: [Double]
    var type: MetricType { .histogram }
    private let children = Mutex<[[String]: Child]>([:])

    init(name: String, help: String, labels: [String], buckets: [Double]) {
        precondition(zip(buckets, buckets.dropFirst()).allSatisfy { $0 < $1 }, "\(name): buckets must ascend")
        self.name = name
        self.help = help
        self.labels = labels
        self.buckets = buckets
    }

    /// Counts `value` in the child with these label values (one per label name, in order).
    public func observe(_ value: Double, _ labelValues: [String] = []) {
        precondition(labelValues.count == labels.count, "\(name) takes \(labels.count) label values")
        let index = buckets.firstIndex { value <= $0 } ?? buckets.count
        children.withLock { children in
            children[labelValues, default: Child(counts: Array(repeating: 0, count: buckets.count + 1))]
                .add(value, at: index)
        }
    }

    /// Observations of the child with these label values so far.
    public func count(_ labelValues: [String] = []) -> UInt64 {
        children.withLock { $0[labelValues]?.count ?? 0 }
    }

    func samples() -> [MetricSample] {
        let children = children.withLock { $0 }
        var samples: [MetricSample] = []
        for (key, child) in children.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            let base: [(name: String, value: String)] = Array(zip(labels, key)).map { ($0, $1) }
            var cumulative: UInt64 = 0
            for (index, count) in child.counts.enumerated() {
                cumulative += count
                let bound = index < buckets.count ? MetricsText.number(buckets[index]) : "+Inf"
                samples.append(
                    MetricSample(suffix: "_bucket", labels: base + [("le", bound)], value: Double(cumulative)))
            }
            samples.append(MetricSample(suffix: "_sum", labels: base, value: child.sum))
            samples.append(MetricSample(suffix: "_count", labels: base, value: Double(child.count)))
        }
        return samples
    }
}

extension HistogramFamily.Child {
    mutating func add(_ value: Double, at index: Int) {
        counts[index] += 1
        sum += value
        count += 1
    }
}
