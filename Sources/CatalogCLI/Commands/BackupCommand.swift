import CatalogEngines
import CatalogStorage
import Foundation

/// `catalog backup`: a checked copy of a live SQLite catalog database (and its accounts), taken
/// while servers read and write it.
struct BackupCommand: Command {
    static let name = "backup"
    static let summary = "Write a consistent copy of the database (and accounts) while servers use it."
    static let to = Option<String>(required: "to", value: "FILE", help: "the backup file to write")
    static let users = Flag(
        "users", help: "back up the accounts file too, beside FILE (backup.sqlite → backup-users.sqlite)")
    static let replace = Flag("replace", help: "overwrite FILE (and its accounts file) when it exists")
    static let usersDB = CommonOptions.usersDB.help("the accounts file to back up with --users")
    static let options: [any OptionDeclaration] = [to, users, replace, usersDB]
    static let usage = [
        Usage(.option(to), .option(CommonOptions.db), .option(users), .option(replace))
    ]
    static let discussion = """
        Copies the SQLite database with SQLite's online backup API, a few megabytes at a time,
        while servers keep reading and writing it, into a temporary file beside FILE; checks the
        copy with PRAGMA integrity_check and renames it to FILE, so a failed backup leaves
        nothing behind. The copy is one self-contained file (no write-ahead log). With --users
        the accounts file is copied too, to FILE's name with -users (backup.sqlite →
        backup-users.sqlite), where 'catalog restore --users' looks for it. A PostgreSQL
        database is backed up with pg_dump, or copied to a SQLite file with 'catalog copy'.
        """

    func run(_ context: CommandContext) throws {
        let arguments = context.arguments
        let target = try arguments[Self.to]
        guard !target.isEmpty else { throw CLIError.usage("--to needs a file") }
        let location = context.databaseLocation
        guard !CatalogEngines.isPostgres(location) else { throw CLIError.usage(DatabaseBackup.postgresAdvice) }
        guard !CopyCommand.sameDatabase(location, target) else {
            throw CLIError.usage("--to names the database being backed up")
        }
        let started = Date()
        do {
            let written = try DatabaseBackup.backUp(
                location, to: target, withAccounts: arguments[Self.users],
                usersLocation: context.engineOptions.usersLocation, replace: arguments[Self.replace])
            printError(
                "backed up \(location) to \(written.catalogFile)"
                    + (written.accountsFile.map { " and its accounts to \($0)" } ?? "")
                    + String(format: " in %.2f s", Date().timeIntervalSince(started)))
        } catch let error as StorageError where error.code == .invalidArgument {
            throw CLIError.failure(error.description)
        }
    }
}

/// `catalog restore FILE`: a backup put back, what ``RestoreCommand`` does when given one file.
enum DatabaseRestore {
    static let replace = Flag(
        "replace", help: "restore FILE: overwrite the database (a server on it sees the restored catalogs)")
    static let users = Flag(
        "users", help: "restore FILE: restore the accounts too, from FILE's accounts file (backup-users.sqlite)")

    /// Whether the command line asks for a database restore: one file named, no record options.
    static func isAsked(_ context: CommandContext, at: Int?, catalog: String?) -> Bool {
        at == nil && catalog == nil && context.arguments.positionals.count == 1
    }

    static func run(_ context: CommandContext) throws {
        let arguments = context.arguments
        guard let file = arguments.positionals.first else { throw CLIError.usage("name the backup file") }
        let location = context.databaseLocation
        guard !CatalogEngines.isPostgres(location) else { throw CLIError.usage(DatabaseBackup.postgresAdvice) }
        guard FileManager.default.fileExists(atPath: file) else {
            throw CLIError.failure(
                "no backup file at \(file) (to put a record back: catalog restore ID ITEM --at N)")
        }
        guard !CopyCommand.sameDatabase(location, file) else {
            throw CLIError.usage("FILE is the database being restored")
        }
        let started = Date()
        do {
            try DatabaseBackup.restore(
                file, into: location, withAccounts: arguments[users],
                usersLocation: context.engineOptions.usersLocation, replace: arguments[replace])
        } catch let error as StorageError where error.code == .invalidArgument || error.code == .cannotOpen {
            throw CLIError.failure(error.description)
        }
        printError(
            "restored \(location) from \(file)" + (arguments[users] ? " with its accounts" : "")
                + String(format: " in %.2f s", Date().timeIntervalSince(started)))
    }
}
