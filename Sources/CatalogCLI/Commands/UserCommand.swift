import CatalogAuth
import CatalogStorage
import Foundation

/// `catalog user`: accounts of the web app and the API, their API tokens and passwords.
struct UserCommand: Command {
    static let name = "user"
    static let summary = "Add, list and remove users; issue API tokens; set passwords."
    static let admin = Flag("admin", help: "add: the user may change catalogs and accounts")
    static let passwordStdin = Flag(
        "password-stdin", help: "add: read a web sign-in password from the first line of standard input")
    static let json = CommonOptions.json.help(
        #"list: print {"users":[{"id","name","isAdmin","createdAt"}]};"# + "\n"
            + #"add, token: print {"token","user":{…}}"#)
    static let options: [any OptionDeclaration] = [admin, passwordStdin, json, CommonOptions.usersDB]
    static let usage = [
        Usage(
            "add", "NAME", .option(admin), .option(passwordStdin), .option(json), .option(CommonOptions.db),
            .option(CommonOptions.usersDB)),
        Usage("list", .option(json), .option(CommonOptions.db), .option(CommonOptions.usersDB)),
        Usage("remove", "NAME", .option(CommonOptions.db), .option(CommonOptions.usersDB)),
        Usage("token", "NAME", .option(json), .option(CommonOptions.db), .option(CommonOptions.usersDB)),
        Usage("password", "NAME", .option(CommonOptions.db), .option(CommonOptions.usersDB)),
    ]
    static let discussion = """
        Manages the accounts of the web app and the HTTP API. Every user has an API token
        (ctk_…, sent as "Authorization: Bearer ctk_…") and may have a password for signing in to
        the web app. A token is printed once, when it is issued, alone on its line: the database
        keeps only a hash of it, so a lost token cannot be shown again, only replaced.

        Accounts, web sessions, tokens and favorites live in their own file, beside the catalog
        database (catalog.sqlite → catalog-users.sqlite) unless --users-db names another, so the
        catalog file can be copied or published without them. Accounts an older version kept in
        the catalog database move into that file the first time it is opened.

        SUBCOMMANDS:
          add NAME        create a user and print their API token
          list            every user: name, role (admin or user), when created
          remove NAME     delete a user with their web sessions and favorites
          token NAME      print a new API token for the user; the old one stops working
          password NAME   set the web sign-in password from the first line of standard input
                          (prompted without echo on a terminal); ends the user's web sessions

        NAME is 1 to 64 letters, digits, '.', '-', '_' or '@', unique ignoring case.
        """

    /// The flags of the command, and which of them each subcommand takes.
    static let flags = options.compactMap { $0 as? Flag }
    static let subcommandFlags: [String: [Flag]] = [
        "add": [admin, passwordStdin, json], "list": [json], "remove": [], "token": [json], "password": [],
    ]

    func run(_ context: CommandContext) throws {
        let arguments = context.arguments
        guard let action = arguments.positionals.first else {
            throw CLIError.usage("name a subcommand: add, list, remove, token or password")
        }
        guard let allowed = Self.subcommandFlags[action] else {
            throw CLIError.usage(
                "unknown subcommand '\(Self.printable(action))'; subcommands: add, list, remove, token, password")
        }
        let refused = Self.flags.filter { flag in !allowed.contains { $0.spec.name == flag.spec.name } }
        for flag in refused.sorted(by: { $0.spec.name < $1.spec.name }) where arguments[flag] {
            throw CLIError.usage("'--\(flag.spec.name)' does not apply to 'user \(action)'")
        }
        let auth = Authenticator()
        switch action {
        case "add":
            let name = try Self.userName(arguments, action: action)
            let password =
                arguments[Self.passwordStdin] ? try SecretInput.readLine(prompt: "Password for \(name): ") : nil
            let database = try context.openForWriting()
            defer { database.close() }
            let store = try database.users()
            let (user, token) = try auth.addUser(
                name: name, isAdmin: arguments[Self.admin], password: password, in: store)
            try Self.printToken(token, of: user, context: context)
            printError(
                "added \(user.isAdmin ? "admin" : "user") \"\(user.name)\"\(password == nil ? "" : " with a password"); "
                    + "the API token is shown only this once (replace it with 'catalog user token \(user.name)')")
        case "list":
            guard arguments.positionals.count == 1 else { throw CLIError.usage("'user list' takes no names") }
            let database = try context.openExisting()
            defer { database.close() }
            let store = try database.users()
            let users = try store.users()
            if context.json {
                struct Body: Encodable { var users: [User] }
                context.output.line(try JSON.string(Body(users: users)))
                return
            }
            let width = users.map(\.name.count).max() ?? 0
            for user in users {
                context.output.line(
                    user.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                        + (user.isAdmin ? "admin" : "user ") + "  " + user.createdAt)
            }
        case "remove":
            let name = try Self.userName(arguments, action: action)
            let database = try context.openExisting()
            defer { database.close() }
            let store = try database.users()
            guard try store.removeUser(named: name) else { throw CLIError.failure("no user named \"\(name)\"") }
            printError("removed user \"\(name)\" with their web sessions and favorites")
        case "token":
            let name = try Self.userName(arguments, action: action)
            let database = try context.openExisting()
            defer { database.close() }
            let store = try database.users()
            guard let user = try store.user(named: name) else { throw CLIError.failure("no user named \"\(name)\"") }
            let token = try auth.replaceToken(forUser: user.name, in: store)
            try Self.printToken(token, of: user, context: context)
            printError(
                "issued a new API token for \"\(user.name)\"; the previous one no longer works, "
                    + "and this one is shown only this once")
        default:  // "password"
            let name = try Self.userName(arguments, action: action)
            let database = try context.openExisting()
            defer { database.close() }
            let store = try database.users()
            guard let user = try store.user(named: name) else { throw CLIError.failure("no user named \"\(name)\"") }
            let password = try SecretInput.readLine(prompt: "New password for \(user.name): ")
            try auth.setPassword(password, forUser: user.name, in: store)
            printError("set the password of \"\(user.name)\"; their web sessions have ended")
        }
    }

    /// The one NAME after the subcommand, checked.
    static func userName(_ arguments: Arguments, action: String) throws(CLIError) -> String {
        guard arguments.positionals.count == 2 else {
            throw CLIError.usage("name exactly one user: catalog user \(action) NAME")
        }
        let name = arguments.positionals[1]
        guard User.isValidName(name) else {
            throw CLIError.usage(
                "invalid user name '\(printable(name))': use 1 to 64 letters, digits, '.', '-', '_' or '@'")
        }
        return name
    }

    /// Prints a newly issued token: alone on its line, or with the user as JSON.
    static func printToken(_ token: String, of user: User, context: CommandContext) throws {
        if context.json {
            struct Body: Encodable {
                var token: String
                var user: User
            }
            context.output.line(try JSON.string(Body(token: token, user: user)))
        } else {
            context.output.line(token)
        }
    }

    /// `text` with control characters escaped, so an error message cannot drive the terminal.
    static func printable(_ text: String) -> String {
        let limited = text.count > 80 ? String(text.prefix(80)) + "…" : text
        return limited.unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .control
                ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        }.joined()
    }
}
