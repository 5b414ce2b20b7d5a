import CatalogAuth
import CatalogModel
import CatalogStorage
import Foundation

/// `catalog key`: API keys for apps and scripts, each limited to some catalogs and actions,
/// perhaps until a time and to the records a filter passes.
struct KeyCommand: Command {
    static let name = "key"
    static let summary = "Add, list and revoke API keys: catalogs, actions, expiry and a record filter."
    static let user = Option<String?>(
        "user", value: "NAME", help: "add: the account the key belongs to (required); list: only that account's keys")
    static let catalog = Option<[String]>(
        "catalog", value: "ID",
        help: "add: a catalog the key is for (repeatable, or ID,ID…; '*' alone: every catalog)", each: { $0 })
    static let actions = Option<[KeyAction]?>(
        "actions", value: "LIST",
        help: "add: what the key may do, comma-separated: read, search, write, import, admin (required)"
    ) { (text: String) throws(CLIError) -> [KeyAction] in
        guard let actions = KeyAction.list(text) else {
            throw CLIError.usage(
                "--actions takes a comma-separated list of \(KeyAction.names), got '\(UserCommand.printable(text))'")
        }
        return actions
    }
    static let expires = Option<Duration?>(
        "expires", value: "DURATION", help: "add: the key stops working after this long: 12h, 30d, 90d (default: never)"
    ) { (text: String) throws(CLIError) -> Duration in
        guard let lifetime = Authenticator.keyLifetime(text) else {
            throw CLIError.usage(
                "--expires takes a duration such as 12h, 30d or 90d, got '\(UserCommand.printable(text))'")
        }
        return lifetime
    }
    static let filter = Option<RecordFilter?>(
        "filter", value: "FILTER",
        help: "add: the key sees only the records passing it: 'country = DE', 'category = X and price <= 50', "
            + "or the filter language: 'dealer = Nord AND NOT Status = retired'"
    ) { (text: String) throws(CLIError) -> RecordFilter in
        do {
            return try RecordFilter(parsing: text)
        } catch {
            throw CLIError.usage("--filter: \(error)")
        }
    }
    static let json = CommonOptions.json.help(
        #"list: print {"keys":[{"name","user","catalogs","actions","filter","expires","createdAt","#
            + "\n" + #""lastUsed","lastUsedFrom"}]}; add: print {"token","key":{…}}"#)
    static let options: [any OptionDeclaration] = [
        user, catalog, actions, expires, filter, json, CommonOptions.usersDB,
    ]
    static let usage = [
        Usage(
            "add", "NAME", .required(user), .required(catalog), .required(actions), .option(expires), .option(filter),
            .option(json), .option(CommonOptions.db), .option(CommonOptions.usersDB)),
        Usage("list", .option(user), .option(json), .option(CommonOptions.db), .option(CommonOptions.usersDB)),
        Usage("revoke", "NAME", .option(CommonOptions.db), .option(CommonOptions.usersDB)),
    ]
    static let discussion = """
        Manages API keys: credentials for apps and scripts that may do less than their account.
        A key (cak_…) is sent as "Authorization: Bearer cak_…" to the JSON API (/api/v1/…). It is
        printed once, when it is made, alone on its line: the database keeps only a hash of it.

        Every key belongs to an account (--user NAME, an account of 'catalog user') and never
        does more than that account may do at the time it is used: a demoted account's keys
        shrink with it, a removed account's keys stop working. Within that, a key may only
        take its actions in its catalogs:
          read    items, outline, sections, categories, featured, snapshot, changes, history
          search  search
          write   change records and images
          import  import into its catalogs
          admin   what the account may manage (definitions, members; with --catalog '*',
                  also catalogs and accounts, for administrators)
        A catalog the key is not for does not exist for it (404); a missing action is refused
        (403, naming it); an expired or revoked key is not valid (401). Keys cannot manage keys.

        A key with --filter sees only the records the filter passes, in every answer: search
        (hits, counts, facets, scopes, suggestions), browse pages, outline, sections,
        categories, featured, snapshot, changes, history and an item by id (404 outside it).
        Writes and imports refuse a key with a filter (403). Clauses join with 'and':
          category = X      carries category X ('…' or "…" around a value with spaces)
          country = DE,AT   has one of these countries
          price = 10..50    price in the range; also price >= 10, price <= 50
        Anything else is read in the filter language of 'catalog search --filter', on any
        of the records' fields: dealer = Nord AND (Status = active OR Status IS EMPTY).

        SUBCOMMANDS:
          add NAME      make a key for --user and print it
          list          every key (or --user's): name, account, catalogs, actions, filter,
                        expiry, when made, when last used and from which address
          revoke NAME   delete a key: it stops working at once

        NAME is 1 to 64 letters, digits, '.', '-', '_' or '@', unique among keys ignoring case.
        A key's last use is recorded at most once a minute.
        """

    /// The subcommands and the options each takes, by name; any other given is a usage error.
    static let subcommands = Subcommands(
        command: "key",
        options: [
            "add": [
                user.spec.name, catalog.spec.name, actions.spec.name, expires.spec.name, filter.spec.name,
                json.spec.name,
            ],
            "list": [user.spec.name, json.spec.name], "revoke": [],
        ])

    /// The names of the command's own options that `arguments` gives.
    static func givenOptions(_ arguments: Arguments) throws(CLIError) -> [String] {
        var given = arguments[json] ? [json.spec.name] : []
        if try arguments[user] != nil { given.append(user.spec.name) }
        if try !arguments[catalog].isEmpty { given.append(catalog.spec.name) }
        if try arguments[actions] != nil { given.append(actions.spec.name) }
        if try arguments[expires] != nil { given.append(expires.spec.name) }
        if try arguments[filter] != nil { given.append(filter.spec.name) }
        return given.sorted()
    }

    func run(_ context: CommandContext) throws {
        let arguments = context.arguments
        let action = try Self.subcommands.action(arguments, given: try Self.givenOptions(arguments))
        switch action {
        case "add":
            let name = try Self.keyName(arguments, action: action)
            guard let owner = try arguments[Self.user], !owner.isEmpty else {
                throw CLIError.usage("missing required option '--user' (the account the key belongs to)")
            }
            let catalogs = try Self.catalogs(arguments)
            guard let actions = try arguments[Self.actions] else {
                throw CLIError.usage("missing required option '--actions' (\(KeyAction.names))")
            }
            let database = try context.openExisting()
            defer { database.close() }
            let store = try database.users()
            guard let account = try store.user(named: owner) else {
                throw CLIError.failure("no user named \"\(UserCommand.printable(owner))\"")
            }
            let (key, text) = try Authenticator().addKey(
                name: name, user: account.name, catalogs: catalogs, actions: actions,
                lifetime: try arguments[Self.expires], filter: try arguments[Self.filter]?.description, in: store)
            if context.json {
                struct Body: Encodable {
                    var token: String
                    var key: StoredAPIKey
                }
                context.output.line(try JSON.string(Body(token: text, key: key)))
            } else {
                context.output.line(text)
            }
            context.audit(
                .keyCreated, in: database, target: key.name,
                detail: "of \(key.user): \(key.actionsText) in \(key.catalogsText)")
            printError(
                "added key \"\(key.name)\" of \"\(account.name)\" (\(key.actionsText) in \(key.catalogsText)"
                    + (key.expires.map { ", until \($0)" } ?? "") + "); it is shown only this once")
        case "list":
            guard arguments.positionals.count == 1 else { throw CLIError.usage("'key list' takes no names") }
            let database = try context.openExisting()
            defer { database.close() }
            let store = try database.users()
            var owner: Int64?
            if let name = try arguments[Self.user] {
                guard let account = try store.user(named: name) else {
                    throw CLIError.failure("no user named \"\(UserCommand.printable(name))\"")
                }
                owner = account.id
            }
            let keys = try store.keys(ofUser: owner)
            if context.json {
                struct Body: Encodable { var keys: [StoredAPIKey] }
                context.output.line(try JSON.string(Body(keys: keys)))
                return
            }
            for key in keys {
                var columns = [key.name, key.user, key.catalogsText, key.actionsText]
                columns.append(key.expires.map { "until " + $0 } ?? "no expiry")
                columns.append("made " + key.createdAt)
                columns.append(key.lastUsed.map { "used \($0) from \(key.lastUsedFrom ?? "?")" } ?? "never used")
                if let filter = key.filter { columns.append("filter: " + filter) }
                context.output.line(columns.joined(separator: "  "))
            }
        default:  // "revoke"
            let name = try Self.keyName(arguments, action: action)
            let database = try context.openExisting()
            defer { database.close() }
            guard try database.users().removeKey(named: name) else {
                throw CLIError.failure("no key named \"\(name)\"")
            }
            context.audit(.keyRevoked, in: database, target: name)
            printError("revoked key \"\(name)\"; it no longer works")
        }
    }

    /// The one NAME after the subcommand, checked.
    static func keyName(_ arguments: Arguments, action: String) throws(CLIError) -> String {
        try UserCommand.name(arguments, of: "key", command: "key \(action)")
    }

    /// The catalogs `--catalog` names (each given once or comma-separated), required and checked.
    static func catalogs(_ arguments: Arguments) throws(CLIError) -> [String] {
        let ids = try arguments[catalog].flatMap { $0.split(separator: ",").map(String.init) }
        guard !ids.isEmpty else { throw CLIError.usage("missing required option '--catalog'") }
        if ids.contains(StoredAPIKey.allCatalogs) {
            guard Set(ids) == [StoredAPIKey.allCatalogs] else {
                throw CLIError.usage("--catalog '*' (every catalog) cannot be combined with catalog ids")
            }
            return [StoredAPIKey.allCatalogs]
        }
        for id in ids where !CatalogDefinition.isValidID(id) {
            throw CLIError.usage(
                "invalid catalog id '\(UserCommand.printable(id))': use 1 to 64 letters, digits, '-' or '_'")
        }
        return ids
    }
}
