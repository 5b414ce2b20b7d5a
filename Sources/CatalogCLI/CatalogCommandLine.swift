import CatalogSQLite
import CatalogStorage
import Foundation

/// The `catalog` command: parses the command line and runs one command.
///
/// ```swift
/// exit(CatalogCommandLine.main(Array(CommandLine.arguments.dropFirst())))
/// ```
public enum CatalogCommandLine {
    /// Every command, in the order `catalog --help` lists them.
    static let commands: [any Command.Type] = [
        ImportCommand.self, DemoCommand.self, CatalogsCommand.self, ListCommand.self, SectionsCommand.self,
        ShowCommand.self, SearchCommand.self, ExportCommand.self, RefreshCommand.self, GenerateCommand.self,
        ServeCommand.self, UserCommand.self,
    ]

    /// Options every command accepts.
    static let globalOptions: Set<String> = ["db"]
    static let globalFlags: Set<String> = ["help"]

    /// Runs the command line (without the program name) and returns the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        let output = Output.standardOutput()
        defer { output.flush() }
        guard let name = arguments.first(where: { !$0.hasPrefix("-") }) ?? arguments.first else {
            output.write(overview)
            return 64
        }
        if name == "--help" || name == "-h" || name == "help" {
            if name == "help", let topic = arguments.dropFirst().first,
                let command = commands.first(where: { $0.name == topic })
            {
                output.write(command.help)
                return 0
            }
            output.write(overview)
            return 0
        }
        if name == "--version" {
            output.line("catalog \(version)")
            return 0
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            printError("catalog: error: unknown command '\(name)'; see 'catalog --help'")
            return 64
        }
        var rest = arguments
        rest.remove(at: rest.firstIndex(of: name)!)
        do {
            let parsed = try Arguments(
                rest, options: command.options.union(globalOptions), flags: command.flags.union(globalFlags))
            if parsed.flag("help") {
                output.write(command.help)
                return 0
            }
            let context = CommandContext(arguments: parsed, output: output)
            if command.removesTemporaryFilesOnSignal { SignalCleanup.install() }
            try command.init().run(context)
            return 0
        } catch let error as CLIError {
            output.flush()
            printError("catalog \(name): error: \(error.message)")
            if error.status == 64 { printError("see 'catalog \(name) --help'") }
            return error.status
        } catch {
            output.flush()
            printError("catalog \(name): error: \(Self.describe(error))")
            return 1
        }
    }

    static func describe(_ error: any Error) -> String {
        String(describing: error)
    }

    static let version = "0.1.0"

    static var overview: String {
        var text = """
            catalog: import, browse, search and export catalogs.

            USAGE: catalog <command> [options]

            COMMANDS:

            """
        for command in commands {
            text += "  " + command.name.padding(toLength: 11, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        text += """

            GLOBAL OPTIONS:
              --db PATH   the catalog database (default: $CATALOG_DB, else ./catalog.sqlite)
              --help      help for a command: catalog <command> --help

            Exit status: 0 success, 1 failure, 64 usage error.

            """
        return text
    }
}

/// One `catalog` subcommand.
protocol Command: Sendable {
    /// The word after `catalog`.
    static var name: String { get }
    /// One line for the overview.
    static var summary: String { get }
    /// The full `--help` text.
    static var help: String { get }
    /// Options taking a value (without `--`).
    static var options: Set<String> { get }
    /// Options without a value.
    static var flags: Set<String> { get }
    /// Whether the command makes temporary files that SIGINT and SIGTERM must remove.
    static var removesTemporaryFilesOnSignal: Bool { get }

    init()
    func run(_ context: CommandContext) throws
}

extension Command {
    static var removesTemporaryFilesOnSignal: Bool { false }
}

/// What a command gets: its arguments, standard output, and the database it works on.
struct CommandContext {
    let arguments: Arguments
    let output: Output

    /// The database path: `--db`, else `$CATALOG_DB`, else `./catalog.sqlite`.
    var databasePath: String {
        if let path = arguments.value("db"), !path.isEmpty { return path }
        if let path = ProcessInfo.processInfo.environment["CATALOG_DB"], !path.isEmpty { return path }
        return "catalog.sqlite"
    }

    /// Opens the store for reading; the database must exist.
    func openExisting() throws -> SQLiteCatalogStore {
        let path = databasePath
        guard FileManager.default.fileExists(atPath: path) else {
            throw CLIError.failure("no database at \(path); create one with 'catalog demo' or 'catalog import'")
        }
        return try SQLiteCatalogStore(path: path)
    }

    /// Opens (creating when missing) the store for writing.
    func openForWriting() throws -> SQLiteCatalogStore {
        try SQLiteCatalogStore(path: databasePath)
    }

    /// Whether `--json` was given.
    var json: Bool { arguments.flag("json") }
}
