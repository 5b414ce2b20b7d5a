/// A command made of subcommands (`catalog user add`, `catalog key revoke`): its first positional
/// names the subcommand, and each subcommand takes some of the command's options only.
struct Subcommands {
    /// The command's name (`user`, `key`).
    let command: String
    /// The subcommands in the order the help lists them, each with the names of the options it
    /// takes.
    let options: KeyValuePairs<String, Set<String>>

    /// The subcommand `arguments` name, once every option `given` applies to it.
    ///
    /// - Throws: a usage error without a subcommand, for an unknown one (naming them all), or for
    ///   an option the subcommand does not take (`'--role' does not apply to 'user add'`).
    func action(_ arguments: Arguments, given: [String]) throws(CLIError) -> String {
        let names = options.map(\.key)
        guard let action = arguments.positionals.first else {
            throw CLIError.usage("name a subcommand: \(Self.list(names, lastJoinedBy: " or "))")
        }
        guard let allowed = options.first(where: { $0.key == action })?.value else {
            throw CLIError.usage(
                "unknown subcommand '\(UserCommand.printable(action))'; subcommands: \(names.joined(separator: ", "))")
        }
        for name in given where !allowed.contains(name) {
            throw CLIError.usage("'--\(name)' does not apply to '\(command) \(action)'")
        }
        return action
    }

    /// `a, b or c`.
    static func list(_ names: [String], lastJoinedBy last: String) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + last + names[names.count - 1]
    }
}
