/// What one command-line option is, whatever its type: the facts the parser, the help text and
/// the tests read from a declaration (``Option`` or ``Flag``).
struct OptionSpec: Sendable, Equatable {
    /// Whether the option takes a value.
    enum Kind: Sendable, Equatable {
        /// `--name`, no value.
        case flag
        /// `--name VALUE` or `--name=VALUE`.
        case option
    }

    /// The name without the leading `--`.
    var name: String
    var kind: Kind
    /// What the value is called in the help (`ID`, `PATH`); empty for a flag.
    var valueName: String
    /// What the option does, for the OPTIONS table; `\n` starts a new line there.
    var help: String
    /// The default as the help shows it, `(default: …)` after the help; nil when there is none
    /// or the help says it.
    var defaultText: String?
    /// Whether the option may be given several times, every value counting.
    var isRepeatable: Bool
    /// Whether the command needs the option (the USAGE line shows it without brackets).
    var isRequired: Bool

    /// `--name VALUE`, or `--name` for a flag.
    var synopsis: String { kind == .flag ? "--\(name)" : "--\(name) \(valueName)" }
}

/// A declared option of any type: ``Option`` or ``Flag``.
protocol OptionDeclaration: Sendable {
    var spec: OptionSpec { get set }
}

extension OptionDeclaration {
    /// The same option with the help this command gives it (a shared option such as `--json`
    /// prints different things in different commands).
    ///
    /// - Parameters:
    ///   - text: the help for the OPTIONS table.
    ///   - defaultText: the default it shows, when it differs from the declaration's.
    /// - Returns: a copy of the declaration, parsed and read the same way.
    func help(_ text: String, default defaultText: String? = nil) -> Self {
        var copy = self
        copy.spec.help = text
        if let defaultText { copy.spec.defaultText = defaultText }
        return copy
    }
}
