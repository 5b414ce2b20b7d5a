/// Draws help text from declarations: a command's `--help` (USAGE, its description, an OPTIONS
/// table from its ``Option`` and ``Flag`` declarations) and the `catalog --help` overview.
///
/// Lines fit ``width`` columns: a usage form wraps between options, under the command's name;
/// a table's descriptions wrap in their column, and a `(default: …)` moves whole to the next line
/// rather than break when it fits there.
enum HelpFormatter {
    /// The widest line, in characters.
    static let width = 100
    /// Spaces between a table's first column and its descriptions.
    static let gap = 3

    /// A command's full help.
    static func help(for command: any Command.Type) -> String {
        var lines = usage(command.usage, command: "catalog \(command.name)")
        lines.append("")
        lines += command.discussion.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last == "" { lines.removeLast() }
        let options = command.options.map(\.spec)
        if !options.isEmpty {
            lines += ["", "OPTIONS:"]
            lines += table(options.map { ($0.synopsis, $0.help, $0.defaultText) })
        }
        if command.readsEnvironment {
            lines += ["", "ENVIRONMENT:"]
            lines += fill(
                environmentHelp.split(separator: " ").map(String.init), width: width - 2
            ).map { "  " + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What the help of a command that reads its options from the environment says about it.
    static let environmentHelp =
        "Every option may also be set in the environment: CATALOG_ and the option's name in capitals, "
        + "dashes as underscores (CATALOG_PORT=8080, CATALOG_DB, CATALOG_MAX_CONNECTIONS). A repeatable "
        + "option takes its values separated by commas (CATALOG_METRICS_ALLOW=10.0.0.0/8,192.0.2.7); a flag "
        + "takes 1, true or yes, or 0, false or no (CATALOG_QUIET=1). An option given on the command line "
        + "wins over its variable; a bad value is an error naming the variable."

    /// The overview: every command's summary, the global options, the exit statuses.
    static func overview(commands: [any Command.Type], global: [OptionSpec]) -> String {
        var lines = [
            "catalog: import, browse, search and export catalogs.", "", "USAGE: catalog <command> [options]", "",
            "COMMANDS:",
        ]
        lines += table(commands.map { ($0.name, $0.summary, nil) })
        lines += ["", "GLOBAL OPTIONS:"]
        lines += table(global.map { ($0.synopsis, $0.help, $0.defaultText) })
        lines += [
            "",
            "Exit status: 0 success, 1 failure, 64 usage error. A command whose standard",
            "output is closed (`catalog list … | head -1`) stops quietly with 0.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The USAGE lines: the first form after `USAGE: `, the others under it.
    static func usage(_ forms: [Usage], command: String) -> [String] {
        var lines: [String] = []
        for (index, form) in forms.enumerated() {
            let prefix = (index == 0 ? "USAGE: " : "       ") + command
            let indent = String(repeating: " ", count: prefix.count + 1)
            var line = prefix
            for piece in form.items.flatMap(\.pieces) {
                if line.count + 1 + piece.count > width && line != prefix {
                    lines.append(line)
                    line = indent + piece
                } else {
                    line += " " + piece
                }
            }
            lines.append(line)
        }
        return lines
    }

    /// Rows of a first column and a description with an optional default, aligned.
    static func table(_ rows: [(name: String, help: String, defaultText: String?)]) -> [String] {
        let column = 2 + (rows.map(\.name.count).max() ?? 0) + gap
        var lines: [String] = []
        for row in rows {
            let text = wrap(row.help, default: row.defaultText, width: width - column)
            let first = "  " + row.name
            for (index, line) in text.enumerated() {
                let start = index == 0 ? first + String(repeating: " ", count: column - first.count) : ""
                lines.append((index == 0 ? start : String(repeating: " ", count: column)) + line)
            }
        }
        return lines
    }

    /// `text` in lines of at most `width` characters (longer words stay whole), a line break at
    /// each `\n`, and `(default: …)` at the end.
    static func wrap(_ text: String, default defaultText: String?, width: Int) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lines += fill(paragraph.split(separator: " ").map(String.init), width: width)
        }
        guard let defaultText else { return lines }
        let suffix = "(default: \(defaultText))"
        if let last = lines.last, last.count + 1 + suffix.count <= width {
            lines[lines.count - 1] = last + " " + suffix
        } else if suffix.count <= width {
            lines.append(suffix)
        } else {
            let last = lines.popLast() ?? ""
            lines += fill(
                last.split(separator: " ").map(String.init) + suffix.split(separator: " ").map(String.init),
                width: width)
        }
        return lines
    }

    /// Words in lines of at most `width` characters.
    static func fill(_ words: [String], width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in words {
            if line.isEmpty {
                line = word
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = word
            }
        }
        lines.append(line)
        return lines
    }
}
