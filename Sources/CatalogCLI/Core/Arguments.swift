import Foundation

/// A parsed command line: positionals, options with values, flags.
///
/// Options take `--name value` or `--name=value`; a lone `--` ends options. The names and
/// whether each takes a value come from the command's declarations (``Option``, ``Flag``); every
/// other option is a usage error, so typos never pass silently. Values are read typed through
/// the same declarations: `try arguments[Self.limit]`.
struct Arguments {
    /// Values of each option, in order (options may repeat).
    private var options: [String: [String]] = [:]
    /// Flags that were given.
    private var flags: Set<String> = []
    /// Everything else, in order.
    private(set) var positionals: [String] = []
    /// The environment variable each option or flag was taken from, when it was not on the
    /// command line (``readEnvironment(_:accepting:)``).
    private var fromEnvironment: [String: String] = [:]

    /// Parses `arguments` against the options a command declares.
    ///
    /// - Parameters:
    ///   - arguments: the command line after the command's name.
    ///   - declared: every option the command accepts, its global ones included.
    /// - Throws: a usage error for an unknown option, a flag given a value, an option without one.
    init(_ arguments: [String], accepting declared: [OptionSpec]) throws(CLIError) {
        var kinds: [String: OptionSpec.Kind] = [:]
        for spec in declared { kinds[spec.name] = spec.kind }
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
                    flags.insert(CommonOptions.help.spec.name)
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
            switch kinds[name] {
            case .flag:
                guard inlineValue == nil else { throw CLIError.usage("option '--\(name)' takes no value") }
                flags.insert(name)
            case .option:
                if let inlineValue {
                    options[name, default: []].append(inlineValue)
                } else {
                    guard index < arguments.count else { throw CLIError.usage("option '--\(name)' needs a value") }
                    options[name, default: []].append(arguments[index])
                    index += 1
                }
            case nil:
                throw CLIError.usage("unknown option '--\(name)'")
            }
        }
    }

    /// The value of `option`, as its declaration reads it: its type says what an absent option
    /// gives (nil, the default, or a usage error when it is required).
    ///
    /// - Throws: the option's usage error for a value it does not take, naming the environment
    ///   variable when the value came from there.
    subscript<Value>(option: Option<Value>) -> Value {
        get throws(CLIError) {
            do {
                return try option.read(options[option.spec.name] ?? [], option.spec)
            } catch {
                guard let variable = fromEnvironment[option.spec.name] else { throw error }
                throw CLIError(status: error.status, message: "\(variable): \(error.message)")
            }
        }
    }

    /// The environment variable that may set option `name`: `CATALOG_` and the name in capitals,
    /// dashes as underscores (`max-connections` → `CATALOG_MAX_CONNECTIONS`).
    static func environmentVariable(for name: String) -> String {
        "CATALOG_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// Takes every declared option and flag that the command line did not give from its
    /// environment variable (``environmentVariable(for:)``), when that is set and not empty:
    /// the command line wins. A repeatable option's variable holds its values separated by commas;
    /// a flag's is `1`, `true`, `yes` (given) or `0`, `false`, `no` (not given), in any case.
    ///
    /// - Parameters:
    ///   - environment: the process's environment.
    ///   - declared: the options the command accepts (`--help` is never read from it).
    /// - Throws: a usage error naming the variable for a flag's value that is none of those.
    mutating func readEnvironment(_ environment: [String: String], accepting declared: [OptionSpec]) throws(CLIError) {
        for spec in declared where spec.name != CommonOptions.help.spec.name {
            let variable = Self.environmentVariable(for: spec.name)
            guard let text = environment[variable], !text.isEmpty else { continue }
            switch spec.kind {
            case .flag:
                guard !flags.contains(spec.name) else { continue }
                switch text.lowercased() {
                case "1", "true", "yes": flags.insert(spec.name)
                case "0", "false", "no": break
                default:
                    throw CLIError.usage("\(variable) must be 1, true, yes, 0, false or no, got '\(text)'")
                }
                fromEnvironment[spec.name] = variable
            case .option:
                guard options[spec.name] == nil else { continue }
                options[spec.name] =
                    spec.isRepeatable
                    ? text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                    : [text]
                fromEnvironment[spec.name] = variable
            }
        }
    }

    /// Whether `flag` was given.
    subscript(flag: Flag) -> Bool { flags.contains(flag.spec.name) }
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
