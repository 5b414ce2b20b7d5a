/// A command-line option taking a value, declared once: its name, value name, help and default,
/// and how its text becomes a `Value`. The parser learns its name from it, the help text its
/// row, and a command reads it typed with `try context.arguments[Self.port]`.
///
/// ```swift
/// static let port = Option<Int>("port", value: "N", in: 0...65535, default: 8080, help: "the port")
/// static let scope = Option<String?>("scope", value: "LABEL", help: "only records in this scope")
/// static let catalog = Option<String>(required: "catalog", value: "ID", help: "the catalog")
/// ```
///
/// The type says what a missing option gives: `nil` for an optional `Value?`, the default for a
/// defaulted one, a usage error ("missing required option '--catalog'") for a required one, every
/// value in order for a repeatable `[String]`. Given several times, the last value counts.
struct Option<Value: Sendable>: OptionDeclaration {
    var spec: OptionSpec
    /// Turns the values given, in order (none when the option is absent), into the value.
    let read: @Sendable (_ values: [String], _ spec: OptionSpec) throws(CLIError) -> Value

    /// An option from its spec and reader; the other initializers build both.
    init(
        spec: OptionSpec, read: @escaping @Sendable (_ values: [String], _ spec: OptionSpec) throws(CLIError) -> Value
    ) {
        self.spec = spec
        self.read = read
    }

    /// An option whose text `parse` turns into its value, with a default when absent.
    ///
    /// - Parameters:
    ///   - name: the name without `--`.
    ///   - value: the value's name in the help.
    ///   - defaultValue: the value when the option is absent.
    ///   - defaultText: the default as the help shows it (default: `defaultValue`).
    ///   - help: what the option does.
    ///   - parse: the value of a text, or a usage error.
    init(
        _ name: String, value: String, default defaultValue: Value, showing defaultText: String? = nil, help: String,
        parse: @escaping @Sendable (String) throws(CLIError) -> Value
    ) {
        self.init(spec: .option(name, value, help, default: defaultText ?? "\(defaultValue)")) {
            (values, _) throws(CLIError) in
            guard let text = values.last else { return defaultValue }
            return try parse(text)
        }
    }

    /// A required option whose text `parse` turns into its value; absent or empty, it is a
    /// usage error.
    init(
        required name: String, value: String, help: String,
        parse: @escaping @Sendable (String) throws(CLIError) -> Value
    ) {
        self.init(spec: .option(name, value, help, required: true)) { (values, spec) throws(CLIError) in
            try parse(try Self.requiredText(values, spec))
        }
    }

    /// An optional option whose text `parse` turns into its value; absent, it is nil.
    init<Wrapped>(
        _ name: String, value: String, showing defaultText: String? = nil, help: String,
        parse: @escaping @Sendable (String) throws(CLIError) -> Wrapped
    ) where Value == Wrapped? {
        self.init(spec: .option(name, value, help, default: defaultText)) { (values, _) throws(CLIError) in
            guard let text = values.last else { return nil }
            return try parse(text)
        }
    }

    /// An option that may be given several times, each text turned into an element by `parse`:
    /// every value, in order.
    init<Element>(
        _ name: String, value: String, showing defaultText: String? = nil, help: String,
        each parse: @escaping @Sendable (String) throws(CLIError) -> Element
    ) where Value == [Element] {
        var spec = OptionSpec.option(name, value, help, default: defaultText)
        spec.isRepeatable = true
        self.init(spec: spec) { (values, _) throws(CLIError) in
            var elements: [Element] = []
            for text in values { elements.append(try parse(text)) }
            return elements
        }
    }

    /// The last value given, which must not be empty.
    static func requiredText(_ values: [String], _ spec: OptionSpec) throws(CLIError) -> String {
        guard let text = values.last, !text.isEmpty else {
            throw CLIError.usage("missing required option '--\(spec.name)'")
        }
        return text
    }
}

extension Option where Value == String? {
    /// Text, nil when absent.
    init(_ name: String, value: String, showing defaultText: String? = nil, help: String) {
        self.init(spec: .option(name, value, help, default: defaultText)) { values, _ in values.last }
    }
}

extension Option where Value == String {
    /// Text that must be given and not be empty.
    init(required name: String, value: String, help: String) {
        self.init(spec: .option(name, value, help, required: true)) { (values, spec) throws(CLIError) in
            try Self.requiredText(values, spec)
        }
    }

    /// Text, `defaultValue` when absent.
    init(_ name: String, value: String, default defaultValue: String, help: String) {
        self.init(spec: .option(name, value, help, default: defaultValue)) { values, _ in
            values.last ?? defaultValue
        }
    }
}

extension Option where Value == [String] {
    /// Text that may be given several times: every value, in order.
    init(_ name: String, value: String, showing defaultText: String? = nil, help: String) {
        var spec = OptionSpec.option(name, value, help, default: defaultText)
        spec.isRepeatable = true
        self.init(spec: spec) { values, _ in values }
    }
}

extension Option where Value == Int? {
    /// A whole number in `range`, nil when absent.
    init(_ name: String, value: String, in range: ClosedRange<Int>, showing defaultText: String? = nil, help: String) {
        self.init(spec: .option(name, value, help, default: defaultText)) { (values, spec) throws(CLIError) in
            guard let text = values.last else { return nil }
            return try Self.integer(text, in: range, spec)
        }
    }
}

extension Option where Value == Int {
    /// A whole number in `range`, `defaultValue` when absent.
    init(_ name: String, value: String, in range: ClosedRange<Int>, default defaultValue: Int, help: String) {
        self.init(spec: .option(name, value, help, default: String(defaultValue))) { (values, spec) throws(CLIError) in
            guard let text = values.last else { return defaultValue }
            return try Self.integer(text, in: range, spec)
        }
    }

    /// A whole number in `range` that must be given.
    init(required name: String, value: String, in range: ClosedRange<Int>, help: String) {
        self.init(spec: .option(name, value, help, required: true)) { (values, spec) throws(CLIError) in
            guard let text = values.last else { throw CLIError.usage("missing required option '--\(spec.name)'") }
            return try Self.integer(text, in: range, spec)
        }
    }
}

extension Option {
    /// `text` as a whole number in `range`, or the usage error every such option gives.
    static func integer(_ text: String, in range: ClosedRange<Int>, _ spec: OptionSpec) throws(CLIError) -> Int {
        guard let number = Int(text), range.contains(number) else {
            throw CLIError.usage(
                "'--\(spec.name)' must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}

extension OptionSpec {
    /// The spec of an option taking a value.
    static func option(
        _ name: String, _ valueName: String, _ help: String, default defaultText: String? = nil,
        required: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            name: name, kind: .option, valueName: valueName, help: help, defaultText: defaultText,
            isRepeatable: false, isRequired: required)
    }
}
