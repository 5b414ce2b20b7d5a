/// A parsed command line: positionals, options with values, flags.
///
/// Options take `--name value` or `--name=value`; a lone `--` ends options. Every option the
/// command does not declare is a usage error, so typos never pass silently.
struct Arguments {
    /// Values of each option, in order (options may repeat).
    private(set) var options: [String: [String]] = [:]
    /// Flags that were given.
    private(set) var flags: Set<String> = []
    /// Everything else, in order.
    private(set) var positionals: [String] = []

    /// Parses `arguments` against the declared option and flag names (without `--`).
    init(_ arguments: [String], options declared: Set<String>, flags declaredFlags: Set<String>) throws(CLIError) {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            guard argument.hasPrefix("--") else {
                if argument == "-h" {
                    flags.insert("help")
                    continue
                }
                throw CLIError.usage("unknown option '\(argument)'")
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if declaredFlags.contains(name) {
                guard inlineValue == nil else { throw CLIError.usage("option '--\(name)' takes no value") }
                flags.insert(name)
            } else if declared.contains(name) {
                if let inlineValue {
                    options[name, default: []].append(inlineValue)
                } else {
                    guard index < arguments.count else { throw CLIError.usage("option '--\(name)' needs a value") }
                    options[name, default: []].append(arguments[index])
                    index += 1
                }
            } else {
                throw CLIError.usage("unknown option '--\(name)'")
            }
        }
    }

    /// The last value of option `name`.
    func value(_ name: String) -> String? { options[name]?.last }

    /// Every value of option `name`.
    func values(_ name: String) -> [String] { options[name] ?? [] }

    /// Whether flag `name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The value of option `name`, which must be given.
    func required(_ name: String) throws(CLIError) -> String {
        guard let value = value(name), !value.isEmpty else {
            throw CLIError.usage("missing required option '--\(name)'")
        }
        return value
    }

    /// The value of option `name` as an integer in `range`.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(CLIError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw CLIError.usage("'--\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}

/// A command-line failure: a usage error (exit 64) or a failure (exit 1), with one line for stderr.
struct CLIError: Error {
    /// Exit status.
    var status: Int32
    /// One line a user can act on.
    var message: String

    static func usage(_ message: String) -> CLIError { CLIError(status: 64, message: message) }
    static func failure(_ message: String) -> CLIError { CLIError(status: 1, message: message) }
}

/// Thrown by a command that stops because its standard output was closed (the reader of a pipe
/// went away); ``CatalogCommandLine/main(_:)`` ends it quietly with status 0.
struct OutputClosed: Error {}
