import CatalogAuth
import CatalogModel
import CatalogStorage
import Foundation

/// `catalog user`: accounts of the web app and the API, their API tokens and passwords, and their
/// roles in catalogs.
struct UserCommand: Command {
    static let name = "user"
    static let summary = "Add, list and remove users; issue API tokens; set passwords; give roles in catalogs."
    static let admin = Flag("admin", help: "add: the user may change every catalog and the accounts")
    static let passwordStdin = Flag(
        "password-stdin", help: "add: read a web sign-in password from the first line of standard input")
    static let json = CommonOptions.json.help(
        #"list: print {"users":[{"id","name","isAdmin","createdAt","roles":{ID: ROLE}}]};"# + "\n"
            + #"add, token: print {"token","user":{…}}"#)
    static let catalog = Option<String?>("catalog", value: "ID", help: "grant, revoke: the catalog's id")
    static let role = Option<CatalogRole?>(
        "role", value: "ROLE",
        help: "grant: viewer (sees the catalog), editor (also changes its records and images) or owner (also its "
            + "definition and members)"
    ) { (text: String) throws(CLIError) -> CatalogRole in
        guard let role = CatalogRole(rawValue: text) else {
            throw CLIError.usage("unknown role '\(UserCommand.printable(text))'; roles: \(CatalogRole.names)")
        }
        return role
    }
    static let options: [any OptionDeclaration] = [admin, passwordStdin, json, catalog, role, CommonOptions.usersDB]
    static let usage = [
        Usage(
            "add", "NAME", .option(admin), .option(passwordStdin), .option(json), .option(CommonOptions.db),
            .option(CommonOptions.usersDB)),
        Usage("list", .option(json), .option(CommonOptions.db), .option(CommonOptions.usersDB)),
        Usage("remove", "NAME", .option(CommonOptions.db), .option(CommonOptions.usersDB)),
        Usage("token", "NAME", .option(json), .option(CommonOptions.db), .option(CommonOptions.usersDB)),
        Usage("password", "NAME", .option(CommonOptions.db), .option(CommonOptions.usersDB)),
        Usage(
            "grant", "NAME", .required(catalog), .required(role), .option(CommonOptions.db),
            .option(CommonOptions.usersDB)),
        Usage("revoke", "NAME", .required(catalog), .option(CommonOptions.db), .option(CommonOptions.usersDB)),
    ]
    static let discussion = """
        Manages the accounts of the web app and the HTTP API. Every user has an API token
        (ctk_…, sent as "Authorization: Bearer ctk_…") and may have a password for signing in to
        the web app. A token is printed once, when it is issued, alone on its line: the database
        keeps only a hash of it, so a lost token cannot be shown again, only replaced.

        Everyone reads the catalogs. An administrator (--admin) changes every catalog, creates and
        deletes catalogs and manages the accounts; any other user changes only the catalogs they
        have a role in: an editor changes its records and images, an owner also its definition and
        members. A viewer changes nothing: the role is for catalogs only their members will see.

        Accounts, web sessions, tokens, favorites and roles live in their own file, beside the
        catalog database (catalog.sqlite → catalog-users.sqlite) unless --users-db names another,
        so the catalog file can be copied or published without them. Accounts an older version
        kept in the catalog database move into that file the first time it is opened.

        SUBCOMMANDS:
          add NAME        create a user and print their API token
          list            every user: name, admin or user, when created, roles (cookbook:editor,…)
          remove NAME     delete a user with their web sessions, favorites and roles
          token NAME      print a new API token for the user; the old one stops working
          password NAME   set the web sign-in password from the first line of standard input
                          (prompted without echo on a terminal); ends the user's web sessions
          grant NAME      give the user a role in the catalog --catalog names, replacing the one
                          they had there; the catalog may be imported later
          revoke NAME     take the user's role in the catalog --catalog names away

        NAME is 1 to 64 letters, digits, '.', '-', '_' or '@', unique ignoring case.
        """

    /// The subcommands and the options each takes, by name; any other given is a usage error.
    static let subcommands = Subcommands(
        command: "user",
        options: [
            "add": [admin.spec.name, passwordStdin.spec.name, json.spec.name], "list": [json.spec.name],
            "remove": [], "token": [json.spec.name], "password": [], "grant": [catalog.spec.name, role.spec.name],
            "revoke": [catalog.spec.name],
        ])

    /// The names of the command's own options that `arguments` gives.
    static func givenOptions(_ arguments: Arguments) throws(CLIError) -> [String] {
        var given = [admin, passwordStdin, json].filter { arguments[$0] }.map(\.spec.name)
        if try arguments[catalog] != nil { given.append(catalog.spec.name) }
        if try arguments[role] != nil { given.append(role.spec.name) }
        return given.sorted()
    }

    func run(_ context: CommandContext) throws {
        let arguments = context.arguments
        let action = try Self.subcommands.action(arguments, given: try Self.givenOptions(arguments))
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
            context.audit(.userAdded, in: database, target: user.name, detail: user.isAdmin ? "admin" : "user")
            try Self.printToken(token, of: user, context: context)
            printError(
                "added \(user.isAdmin ? "admin" : "user") \"\(user.name)\"\(password == nil ? "" : " with a password"); "
                    + "the API token is shown only this once (replace it with 'catalog user token \(user.name)')")
        case "list":
            guard arguments.positionals.count == 1 else { throw CLIError.usage("'user list' takes no names") }
            let database = try context.openExisting()
            defer { database.close() }
            let store = try database.users()
            let users = try store.users().map { user in
                ListedUser(
                    id: user.id, name: user.name, isAdmin: user.isAdmin, createdAt: user.createdAt,
                    roles: try store.roles(ofUser: user.id))
            }
            if context.json {
                struct Body: Encodable { var users: [ListedUser] }
                context.output.line(try JSON.string(Body(users: users)))
                return
            }
            let width = users.map(\.name.count).max() ?? 0
            for user in users {
                let roles = user.roles.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value.rawValue)" }
                context.output.line(
                    user.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                        + (user.isAdmin ? "admin" : "user ") + "  " + user.createdAt
                        + (roles.isEmpty ? "" : "  " + roles.joined(separator: ",")))
            }
        case "remove":
            let name = try Self.userName(arguments, action: action)
            let database = try context.openExisting()
            defer { database.close() }
            let store = try database.users()
            guard try store.removeUser(named: name) else { throw CLIError.failure("no user named \"\(name)\"") }
            context.audit(.userRemoved, in: database, target: name)
            printError("removed user \"\(name)\" with their web sessions, favorites and roles")
        case "token":
            let name = try Self.userName(arguments, action: action)
            let database = try context.openExisting()
            defer { database.close() }
            let store = try database.users()
            guard let user = try store.user(named: name) else { throw CLIError.failure("no user named \"\(name)\"") }
            let token = try auth.replaceToken(forUser: user.name, in: store)
            context.audit(.tokenReset, in: database, target: user.name)
            try Self.printToken(token, of: user, context: context)
            printError(
                "issued a new API token for \"\(user.name)\"; the previous one no longer works, "
                    + "and this one is shown only this once")
        case "grant":
            let name = try Self.userName(arguments, action: action)
            let id = try Self.catalogID(arguments)
            guard let role = try arguments[Self.role] else {
                throw CLIError.usage("missing required option '--role' (roles: \(CatalogRole.names))")
            }
            let database = try context.openExisting()
            defer { database.close() }
            let store = try database.users()
            guard let user = try store.user(named: name) else { throw CLIError.failure("no user named \"\(name)\"") }
            let previous = try store.grant(user: user.name, catalog: id, role: role)
            if previous != role {
                context.audit(
                    .roleGranted, in: database, catalog: id, target: user.name,
                    detail: role.rawValue + (previous.map { " (was \($0.rawValue))" } ?? ""))
            }
            printError(
                previous == role
                    ? "\"\(user.name)\" already had the role \(role.rawValue) in catalog \"\(id)\""
                    : "gave \"\(user.name)\" the role \(role.rawValue) in catalog \"\(id)\""
                        + (previous.map { " (was \($0.rawValue))" } ?? ""))
            if try database.read({ try $0.catalog(id) }) == nil {
                printError("note: there is no catalog \"\(id)\" yet; the role counts once one of that id is imported")
            }
            if user.isAdmin {
                printError("note: \"\(user.name)\" is an administrator, who changes every catalog whatever the role")
            }
        case "revoke":
            let name = try Self.userName(arguments, action: action)
            let id = try Self.catalogID(arguments)
            let database = try context.openExisting()
            defer { database.close() }
            let store = try database.users()
            guard let user = try store.user(named: name) else { throw CLIError.failure("no user named \"\(name)\"") }
            guard let role = try store.roles(ofUser: user.id)[id], try store.revoke(user: user.name, catalog: id) else {
                throw CLIError.failure("\"\(user.name)\" has no role in catalog \"\(id)\"")
            }
            context.audit(.roleRevoked, in: database, catalog: id, target: user.name, detail: role.rawValue)
            printError("took the role \(role.rawValue) in catalog \"\(id)\" from \"\(user.name)\"")
        default:  // "password"
            let name = try Self.userName(arguments, action: action)
            let database = try context.openExisting()
            defer { database.close() }
            let store = try database.users()
            guard let user = try store.user(named: name) else { throw CLIError.failure("no user named \"\(name)\"") }
            let password = try SecretInput.readLine(prompt: "New password for \(user.name): ")
            try auth.setPassword(password, forUser: user.name, in: store)
            context.audit(.passwordChanged, in: database, target: user.name)
            printError("set the password of \"\(user.name)\"; their web sessions have ended")
        }
    }

    /// The one NAME after the subcommand, checked.
    static func userName(_ arguments: Arguments, action: String) throws(CLIError) -> String {
        try name(arguments, of: "user", command: "user \(action)")
    }

    /// The one NAME after a subcommand of `command` (`user add`, `key revoke`) naming a `thing`
    /// (a user, a key), checked: 1 to 64 letters, digits, `.`, `-`, `_` or `@`.
    static func name(_ arguments: Arguments, of thing: String, command: String) throws(CLIError) -> String {
        guard arguments.positionals.count == 2 else {
            throw CLIError.usage("name exactly one \(thing): catalog \(command) NAME")
        }
        let name = arguments.positionals[1]
        guard User.isValidName(name) else {
            throw CLIError.usage(
                "invalid \(thing) name '\(printable(name))': use 1 to 64 letters, digits, '.', '-', '_' or '@'")
        }
        return name
    }

    /// The catalog `--catalog` names, required and checked.
    static func catalogID(_ arguments: Arguments) throws(CLIError) -> String {
        guard let id = try arguments[catalog], !id.isEmpty else {
            throw CLIError.usage("missing required option '--catalog'")
        }
        guard CatalogDefinition.isValidID(id) else {
            throw CLIError.usage("invalid catalog id '\(printable(id))': use 1 to 64 letters, digits, '-' or '_'")
        }
        return id
    }

    /// A user as `user list` prints them: the account and their roles by catalog id.
    struct ListedUser: Encodable {
        var id: Int64
        var name: String
        var isAdmin: Bool
        var createdAt: String
        var roles: [String: CatalogRole]
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
