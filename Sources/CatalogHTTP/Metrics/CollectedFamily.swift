/// A gauge or counter whose values its owner keeps and the registry reads at render time
/// (connections open, cache sizes, a throttle's atomic count).
struct CollectedFamily: MetricFamily {
    let name: String
    let help: String
    let type: MetricType
    let labels: [String]
    let read: @Sendable () -> [(labels: [String], value: Double)]

    func samples() -> [MetricSample] {
        read().map { reading in
            MetricSample(labels: Array(zip(labels, reading.labels)).map { ($0, $1) }, value: reading.value)
        }
    }
}
