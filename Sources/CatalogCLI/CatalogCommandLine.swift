import CatalogConsole
import CatalogEngines
import CatalogModel
import CatalogStorage
import CatalogSupport
import Foundation

/// The `catalog` command: parses the command line and runs one command.
///
/// ```swift
/// exit(CatalogCommandLine.main(Array(CommandLine.arguments.dropFirst())))
/// ```
public enum CatalogCommandLine {
    /// Every command, in the order `catalog --help` lists them.
    static let commands: [any Command.Type] = [
        ImportCommand.self, CreateCommand.self, SetCatalogCommand.self, SettingsCommand.self, DeleteCommand.self,
        DemoCommand.self,
        CatalogsCommand.self, ListCommand.self, SectionsCommand.self, ShowCommand.self, SearchCommand.self,
        PutCommand.self, SetCommand.self, RemoveCommand.self, ImageCommand.self, HistoryCommand.self,
        RestoreCommand.self,
        ExportCommand.self, RefreshCommand.self, CopyCommand.self, BackupCommand.self,
        GenerateCommand.self, ServeCommand.self, UserCommand.self, KeyCommand.self, AuditCommand.self,
        TerminalCommand.self,
    ]

    /// The names of the global options that take a value, which may come before the command's name.
    static let globalValueOptions: Set<String> = Set(
        CommonOptions.global.map(\.spec).filter { $0.kind == .option }.map(\.name))

    /// Runs the command line (without the program name) and returns the exit status.
    ///
    /// SIGPIPE is ignored first: a write to a pipe whose reader went away then fails with
    /// `EPIPE` instead of killing the process, and every write goes through ``StandardStream``,
    /// which never traps. A command whose standard output closes stops printing and ends with
    /// status 0 (`catalog list … | head -1`); the server keeps serving.
    public static func main(_ arguments: [String]) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let output = Output.standardOutput()
        defer { output.flush() }
        guard let name = commandName(in: arguments) else {
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
        if let position = commandPosition(in: arguments) { rest.remove(at: position) }
        do {
            var parsed = try Arguments(rest, accepting: command.acceptedOptions)
            if parsed[CommonOptions.help] {
                output.write(command.help)
                return 0
            }
            // Read after --help, so that a bad variable never hides the help.
            if command.readsEnvironment {
                try parsed.readEnvironment(ProcessInfo.processInfo.environment, accepting: command.acceptedOptions)
            }
            let context = CommandContext(arguments: parsed, output: output)
            if command.removesTemporaryFilesOnSignal { SignalCleanup.install() }
            if command.buildsIndexes { HeapPolicy.returnLargeBlocksAtOnce() }
            try command.init().run(context)
            return 0
        } catch is OutputClosed {
            // The reader of standard output went away (`| head`): nothing more to say.
            return 0
        } catch let error as CLIError {
            output.flush()
            printError("catalog \(name): error: \(Credentials.scrubbed(error.message))")
            if error.status == 64 { printError("see 'catalog \(name) --help'") }
            return error.status
        } catch {
            output.flush()
            printError("catalog \(name): error: \(Credentials.scrubbed(Self.describe(error)))")
            return 1
        }
    }

    /// Where the command's name is: the first argument that is neither an option nor the value
    /// of a global option given before it (`catalog --db x.sqlite catalogs`).
    static func commandPosition(in arguments: [String]) -> Int? {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if !argument.hasPrefix("-") { return index }
            let option = argument.drop(while: { $0 == "-" })
            if globalValueOptions.contains(String(option)) { index += 1 }
            index += 1
        }
        return nil
    }

    static func commandName(in arguments: [String]) -> String? {
        commandPosition(in: arguments).map { arguments[$0] } ?? arguments.first
    }

    static func describe(_ error: any Error) -> String {
        String(describing: error)
    }

    static let version = "0.1.0"

    /// `catalog --help`: every command's summary and the global options, from their declarations.
    static var overview: String {
        HelpFormatter.overview(commands: commands, global: CommonOptions.global.map(\.spec))
    }
}

/// One `catalog` subcommand. It declares each of its options once, as an ``Option`` or a
/// ``Flag``; the parser, the typed reads in `run` and the `--help` text all come from
/// ``options``, ``usage`` and ``discussion``.
protocol Command: Sendable {
    /// The word after `catalog`.
    static var name: String { get }
    /// One line for the overview.
    static var summary: String { get }
    /// The forms the help's USAGE shows.
    static var usage: [Usage] { get }
    /// What the help says between USAGE and OPTIONS: paragraphs as they are printed.
    static var discussion: String { get }
    /// Every option the command declares, in the order its OPTIONS table lists them; the parser
    /// accepts the global ones (``CommonOptions/global``) besides.
    static var options: [any OptionDeclaration] { get }
    /// Whether the command makes temporary files that SIGINT and SIGTERM must remove.
    static var removesTemporaryFilesOnSignal: Bool { get }
    /// Whether each of its options may also come from the environment (`CATALOG_PORT` for
    /// `--port`, ``Arguments/readEnvironment(_:accepting:)``), the command line winning; its help
    /// says so.
    static var readsEnvironment: Bool { get }
    /// Whether it builds a catalog's index (an import): its large arrays go back to the system
    /// as soon as they are freed (``HeapPolicy``).
    static var buildsIndexes: Bool { get }

    init()
    func run(_ context: CommandContext) throws
}

extension Command {
    static var removesTemporaryFilesOnSignal: Bool { false }
    static var buildsIndexes: Bool { false }
    static var readsEnvironment: Bool { false }

    /// The full `--help` text, drawn from the declarations.
    static var help: String { HelpFormatter.help(for: self) }

    /// Every option the parser accepts for this command: its own and the global ones.
    static var acceptedOptions: [OptionSpec] { (options + CommonOptions.global).map(\.spec) }
}

/// What a command gets: its arguments, standard output, and the database it works on.
struct CommandContext {
    let arguments: Arguments
    let output: Output

    /// The database location: `--db`, else `$CATALOG_DB`, else `./catalog.sqlite`. A file path
    /// (SQLite) or a `postgres://` URL.
    var databaseLocation: String {
        // A text option's read never throws.
        if let location = try? arguments[CommonOptions.db], !location.isEmpty { return location }
        if let location = ProcessInfo.processInfo.environment["CATALOG_DB"], !location.isEmpty { return location }
        return "catalog.sqlite"
    }

    /// Opens the database for reading; a file must exist.
    func openExisting() throws -> any CatalogDatabase {
        let location = databaseLocation
        if !CatalogEngines.isPostgres(location) && !FileManager.default.fileExists(atPath: location) {
            throw CLIError.failure("no database at \(location); create one with 'catalog demo' or 'catalog import'")
        }
        var options = engineOptions
        options.mustExist = true
        return try CatalogEngines.open(location, options: options)
    }

    /// Opens (creating when missing) the database for writing.
    func openForWriting() throws -> any CatalogDatabase {
        try open(databaseLocation)
    }

    /// Opens (creating when missing) the database at another location.
    func open(_ location: String) throws -> any CatalogDatabase {
        try CatalogEngines.open(location, options: engineOptions)
    }

    /// Writers wait for each other and say so; `--users-db` names the accounts file.
    var engineOptions: CatalogEngines.Options {
        var options = CatalogEngines.Options()
        options.waitingForLock = { printError("catalog: waiting for another import to finish…") }
        if let users = try? arguments[CommonOptions.usersDB], !users.isEmpty { options.usersLocation = users }
        return options
    }

    /// Whether `--json` was given.
    var json: Bool { arguments[CommonOptions.json] }
}
