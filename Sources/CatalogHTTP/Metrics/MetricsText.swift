import CatalogSupport

/// Writes the Prometheus text exposition format, version 0.0.4: `# HELP` and `# TYPE` lines,
/// then `name{label="value"} number` per sample, label values and help escaped.
struct MetricsText {
    /// The content type of the format.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    private(set) var output = ""

    /// Appends a family and its samples.
    mutating func family(name: String, help: String, type: MetricType, samples: [MetricSample]) {
        output += "# HELP \(name) \(Self.escapedHelp(help))\n# TYPE \(name) \(type.rawValue)\n"
        for sample in samples {
            output += name + sample.suffix
            if !sample.labels.isEmpty {
                output += "{"
                output += sample.labels.map { "\($0.name)=\"\(Self.escapedLabel($0.value))\"" }.joined(separator: ",")
                output += "}"
            }
            output += " " + Self.number(sample.value) + "\n"
        }
    }

    /// A number as the format spells it: whole numbers without a fraction, `+Inf`, `-Inf`, `NaN`.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// A help text with `\` and newlines escaped.
    static func escapedHelp(_ text: String) -> String {
        text.replacingScalars(of: "\\", with: "\\\\").replacingScalars(of: "\n", with: "\\n")
    }

    /// A label value with `\`, `"` and newlines escaped.
    static func escapedLabel(_ text: String) -> String {
        text.replacingScalars(of: "\\", with: "\\\\").replacingScalars(of: "\"", with: "\\\"")
            .replacingScalars(of: "\n", with: "\\n")
    }
}
