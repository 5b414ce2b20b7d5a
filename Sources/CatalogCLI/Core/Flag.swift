/// A command-line option without a value, declared once; a command reads it with
/// `context.arguments[Self.quiet]`.
///
/// ```swift
/// static let quiet = Flag("quiet", help: "no progress display and no summary")
/// ```
struct Flag: OptionDeclaration {
    var spec: OptionSpec

    /// A flag named `name` (without `--`).
    init(_ name: String, help: String) {
        spec = OptionSpec(
            name: name, kind: .flag, valueName: "", help: help, defaultText: nil, isRepeatable: false,
            isRequired: false)
    }
}
