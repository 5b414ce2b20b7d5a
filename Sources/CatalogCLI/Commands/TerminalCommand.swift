import CatalogTerminal
import Foundation

/// `catalog browse`: the terminal app, on the client library.
struct TerminalCommand: Command {
    static let name = "browse"
    static let summary = "Browse and search a server's catalogs (or a downloaded snapshot) in the terminal."
    static let offline = Option<String?>(
        "offline", value: "FILE", help: "browse a snapshot downloaded from GET /api/v1/catalogs/ID/snapshot")
    static let token = Option<String?>(
        "token", value: "TOKEN", showing: "$CATALOG_TOKEN", help: "start signed in with this token")
    static let catalog = Option<String?>("catalog", value: "ID", help: "open this catalog at once")
    static let noColor = Flag("no-color", help: "no colours (also when NO_COLOR is set or TERM=dumb)")
    static let options: [any OptionDeclaration] = [offline, token, catalog, noColor]
    static let usage = [
        Usage("URL", .option(token), .option(catalog), .option(noColor)),
        Usage(.required(offline), .option(noColor)),
    ]
    static let discussion = """
        An interactive terminal app built only on the CatalogClient library: the server's catalogs,
        a catalog's list in index order with section headers, search as you type with scopes,
        every field of a record, the cookbook's Hot, Categories and Favorites, sign-in.

        KEYS:
          ↑ ↓ PgUp PgDn Home End   move              Enter   open
          a–z, 0–9                 jump to a section (letters typed together spell CS, DZS…)
          /                        search as you type; Tab and Shift-Tab switch the scope
          Tab                      the catalog's views: list, hot, categories, favorites
          *                        mark or unmark a favorite (signs in first)
          Esc                      back (the list keeps its place and its search)
          Ctrl-R                   try again after a failure      Ctrl-C   quit
        """

    func run(_ context: CommandContext) throws {
        let arguments = context.arguments
        var options = CatalogTerminal.Options()
        if let file = try arguments[Self.offline] {
            guard arguments.positionals.isEmpty else {
                throw CLIError.usage("give a server's URL or --offline FILE, not both")
            }
            options.offlineFile = URL(fileURLWithPath: file)
        } else {
            guard arguments.positionals.count == 1, let text = arguments.positionals.first else {
                throw CLIError.usage("give the server's URL (http://localhost:8080) or --offline FILE")
            }
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https",
                url.host != nil
            else {
                throw CLIError.usage("'\(text)' is not an http(s) URL")
            }
            options.server = url
        }
        options.token =
            try arguments[Self.token]
            ?? ProcessInfo.processInfo.environment["CATALOG_TOKEN"].flatMap {
                $0.isEmpty ? nil : $0
            }
        options.catalog = try arguments[Self.catalog]
        if arguments[Self.noColor] { options.colors = false }
        context.output.flush()
        do {
            try CatalogTerminal.run(options)
        } catch {
            throw CLIError(status: error.status, message: error.message)
        }
    }
}
