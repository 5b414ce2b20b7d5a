import CatalogConsole
import CatalogCore
import CatalogEngines
import CatalogModel
import CatalogStorage
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `catalog create`: an empty catalog, ready for imports.
struct CreateCommand: Command {
    static let name = "create"
    static let summary = "Create an empty catalog with a title, a locale and field roles."
    static let title = Option<String?>("title", value: "TEXT", showing: "its id", help: "the catalog's title")
    static let description = CatalogOptions.description.help(
        "what the catalog holds, shown on the home page: plain text, at most "
            + "\(CatalogDocument.maxDescriptionLength) characters")
    static let locale = Option<String?>(
        "locale", value: "LOCALE", showing: "en", help: "the catalog's locale: de, hu, sv-SE… (one ICU knows)")
    static let field = Option<[String]>(
        "field", value: "ROLE=NAME", help: "ROLE takes its value from source field NAME (repeatable)")
    static let type = Option<[String]>(
        "type", value: "NAME=TYPE", help: "read field NAME of CSV or XML as a number, bool or date (or text)")
    static let label = Option<[String]>(
        "label", value: "FIELD@LANG=TEXT",
        help: "the label of a role or field in a language, such as price@de=Preis (repeatable)")
    static let visibility = CatalogOptions.visibility
    static let json = CommonOptions.json.help("print the catalog as GET /api/v1/catalogs/ID shows it")
    static let options: [any OptionDeclaration] = [title, description, locale, field, type, label, visibility, json]
    static let usage = [
        Usage(
            "ID", .option(title), .option(description), .option(locale), .option(field), .option(type),
            .option(label), .option(visibility), .option(json), .option(CommonOptions.db))
    ]
    static let discussion = """
        Creates catalog ID without records, with the title, description, locale, role mapping, field
        types and labels given (and, with --visibility, who sees it), as POST /api/v1/catalogs does.
        Import records into it later with `catalog import SOURCE --catalog ID`: the roles given here
        map the source's fields. ID is 1 to 64 letters, digits, '-' or '_', and must not be taken.
        """

    func run(_ context: CommandContext) throws {
        let id = try CatalogOptions.catalogID(context.arguments)
        let arguments = context.arguments
        var settings = CatalogSettings(
            title: try arguments[Self.title] ?? id, locale: try arguments[Self.locale] ?? "en")
        settings.roles = try CatalogOptions.roles(try arguments[Self.field], resetting: false)
        settings.types = try CatalogOptions.types(try arguments[Self.type]).compactMapValues { $0 }
        try CatalogOptions.apply(labels: try arguments[Self.label], to: &settings)
        if let visibility = try arguments[Self.visibility] { settings.visibility = visibility }
        settings.description = CatalogOptions.description(try arguments[Self.description])
        let database = try context.openForWriting()
        defer { database.close() }
        let created = try CatalogOptions.run {
            try CatalogManagement.withICU.create(id, settings: settings, in: database)
        }
        context.audit(.catalogCreated, in: database, catalog: id)
        if context.json {
            context.output.line(try JSON.string(created.detail))
        } else {
            printError(
                "created catalog \"\(id)\" (\(created.detail.locale)), empty; add records with "
                    + "'catalog import SOURCE --catalog \(id)'")
        }
    }
}

/// `catalog set-catalog`: a catalog's title, description, locale, roles, types, labels and visibility.
struct SetCatalogCommand: Command {
    static let name = "set-catalog"
    static let summary = "Change a catalog's title, description, locale, field roles, types, labels or visibility."
    static let title = Option<String?>("title", value: "TEXT", help: "the new title")
    static let description = CatalogOptions.description
    static let locale = Option<String?>(
        "locale", value: "LOCALE",
        help: "the new locale (one ICU knows): sections and order are made again from the records")
    static let field = Option<[String]>(
        "field", value: "ROLE=NAME",
        help: "ROLE takes its value from source field NAME (repeatable); ROLE= takes the field named like the role")
    static let type = Option<[String]>(
        "type", value: "NAME=TYPE", help: "read field NAME as a number, bool, date or text; NAME= drops its type")
    static let label = Option<[String]>(
        "label", value: "FIELD@LANG=TEXT", help: "the label of a role or field in a language; FIELD@LANG= removes it")
    static let visibility = CatalogOptions.visibility
    static let json = CommonOptions.json.help("print the catalog as GET /api/v1/catalogs/ID shows it")
    static let options: [any OptionDeclaration] = [title, description, locale, field, type, label, visibility, json]
    static let usage = [
        Usage(
            "ID", .option(title), .option(description), .option(locale), .option(field), .option(type),
            .option(label), .option(visibility), .option(json), .option(CommonOptions.db))
    ]
    static let discussion = """
        Changes catalog ID as PATCH /api/v1/catalogs/ID does, in one transaction. A new title, a new
        description (--description "" removes it) or new labels change only its definition. A new
        locale builds the catalog again from its records: their sections and order follow the new
        locale. New roles or types map every record again, as an export imported with the new
        mapping would (`--field title=Name` makes the field Name the title, and the old title an
        extra field); a record the new mapping cannot read, a new id role, or a new title role when
        ids came from titles, is refused and nothing changes.
        --visibility members hides the catalog from everyone but its members (`catalog user
        grant`) and administrators, on every page, route and list of the server; signed-in hides
        it from anonymous visitors.
        """

    func run(_ context: CommandContext) throws {
        let id = try CatalogOptions.catalogID(context.arguments)
        let arguments = context.arguments
        let title = try arguments[Self.title]
        let description = try arguments[Self.description]
        let locale = try arguments[Self.locale]
        let roles = try CatalogOptions.roles(try arguments[Self.field], resetting: true)
        let types = try CatalogOptions.types(try arguments[Self.type])
        let labels = try arguments[Self.label]
        let visibility = try arguments[Self.visibility]
        guard
            title != nil || description != nil || locale != nil || !roles.isEmpty || !types.isEmpty
                || !labels.isEmpty || visibility != nil
        else {
            throw CLIError.usage(
                "nothing to change: give --title, --description, --locale, --field, --type, --label or --visibility")
        }
        let database = try context.openExisting()
        defer { database.close() }
        var before: CatalogVisibility?
        let changed = try CatalogOptions.run {
            try CatalogManagement.withICU.update(id, in: database) { current in
                before = current.visibility
                var settings = current.settings
                if let title { settings.title = title }
                if let description { settings.description = CatalogOptions.description(description) }
                if let locale { settings.locale = locale }
                settings.roles.merge(roles) { _, new in new }
                for (name, type) in types { settings.types[name] = type }
                try CatalogOptions.apply(labels: labels, to: &settings)
                if let visibility { settings.visibility = visibility }
                return settings
            }
        }
        if let before, before != changed.detail.visibility {
            context.audit(
                .visibilityChanged, in: database, catalog: id,
                detail: "\(before.rawValue) => \(changed.detail.visibility.rawValue)")
        }
        if changed.change != CatalogSettings.Change.none {
            context.audit(.catalogChanged, in: database, catalog: id, detail: "\(changed.change)")
        }
        if context.json {
            context.output.line(try JSON.string(changed.detail))
            return
        }
        let what =
            switch changed.change {
            case .none: "nothing changed"
            case .definition: "its definition changed"
            case .rebuild: "rebuilt its \(changed.detail.count) records for locale \(changed.detail.locale)"
            case .remap: "mapped its \(changed.detail.count) records again"
            }
        printError("catalog \"\(id)\": \(what)")
    }
}

/// `catalog delete`: a catalog with its records, after a confirmation.
struct DeleteCommand: Command {
    static let name = "delete"
    static let summary = "Delete a catalog with its records and favorites (asks first)."
    static let yes = Flag("yes", help: "delete without asking (needed when standard input is not a terminal)")
    static let options: [any OptionDeclaration] = [yes]
    static let usage = [Usage("ID", .option(yes), .option(CommonOptions.db))]
    static let discussion = """
        Deletes catalog ID with every record, as DELETE /api/v1/catalogs/ID does, and removes it
        from every user's favorites. On a terminal it asks first, and deletes only when you type
        the catalog's id; without a terminal (a script, a pipe) it refuses unless --yes is given.
        """

    func run(_ context: CommandContext) throws {
        let id = try CatalogOptions.catalogID(context.arguments)
        let database = try context.openExisting()
        defer { database.close() }
        guard let catalog = try database.read({ try $0.catalog(id) }) else {
            throw CLIError.failure("no catalog named \"\(id)\"")
        }
        if !context.arguments[Self.yes] {
            guard isatty(0) != 0 else {
                throw CLIError.usage(
                    "not deleting catalog \"\(id)\": standard input is not a terminal to confirm on; "
                        + "give --yes to delete without asking")
            }
            let records = catalog.summary.count == 1 ? "1 record" : "\(catalog.summary.count) records"
            let answer = TerminalInput.line(prompt: "Delete catalog \(id) with \(records)? Type its id to confirm: ")
            guard answer == id else { throw CLIError.failure("not deleted: the answer was not \"\(id)\"") }
        }
        let deleted = try CatalogOptions.run {
            try CatalogManagement.withICU.delete(id, in: database, ifRevision: [catalog.revision])
        }
        context.audit(.catalogDeleted, in: database, catalog: id)
        printError("deleted catalog \"\(id)\" with \(deleted.count == 1 ? "1 record" : "\(deleted.count) records")")
    }
}

/// What the catalog commands share: the ID, the options that make settings, and their errors
/// in the words of the options.
enum CatalogOptions {
    /// `--visibility`, of `create` and `set-catalog`: who sees the catalog on the server.
    static let visibility = Option<CatalogVisibility?>(
        "visibility", value: "WHO",
        help: "who sees the catalog: public (anyone), signed-in (any account) or members (its roles' holders)"
    ) { (text: String) throws(CLIError) -> CatalogVisibility in
        guard let visibility = CatalogVisibility(rawValue: text) else {
            throw CLIError.usage(
                "--visibility takes \(CatalogVisibility.spellings), not \"\(UserCommand.printable(text))\"")
        }
        return visibility
    }

    /// `--description`, of `create` and `set-catalog`: what the catalog holds, shown on the home page.
    static let description = Option<String?>(
        "description", value: "TEXT",
        help: "the new description, shown on the home page: plain text, at most "
            + "\(CatalogDocument.maxDescriptionLength) characters; \"\" removes it")

    /// A `--description` value as settings hold it: an empty (or blank) text is none.
    static func description(_ text: String?) -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return text
    }

    /// The one positional, a valid catalog id.
    static func catalogID(_ arguments: Arguments) throws(CLIError) -> String {
        guard arguments.positionals.count == 1, let id = arguments.positionals.first else {
            throw CLIError.usage("name exactly one catalog ID")
        }
        guard CatalogDefinition.isValidID(id) else {
            throw CLIError.usage("invalid catalog id '\(id)': use 1 to 64 letters, digits, '-' or '_'")
        }
        return id
    }

    /// `--field ROLE=NAME` values, spelled as `catalog import` spells them; with `resetting`,
    /// `ROLE=` gives the role the field of its own name again.
    static func roles(_ values: [String], resetting: Bool) throws(CLIError) -> [Role: String] {
        guard resetting else { return try ImportCommand.mapping(values) }
        var plain: [String] = []
        var reset: [Role: String] = [:]
        for value in values {
            if value.hasSuffix("="), let role = Role(rawValue: String(value.dropLast())) {
                reset[role] = role.rawValue
            } else {
                plain.append(value)
            }
        }
        return try ImportCommand.mapping(plain).merging(reset) { _, new in new }
    }

    /// `--type NAME=TYPE` values; `NAME=` (nil) drops the type.
    static func types(_ values: [String]) throws(CLIError) -> [String: FieldType?] {
        var types: [String: FieldType?] = [:]
        var typed: [String] = []
        for value in values {
            if value.hasSuffix("="), value.count > 1 {
                types[String(value.dropLast())] = .some(nil)
            } else {
                typed.append(value)
            }
        }
        for (name, type) in try ImportCommand.types(typed) { types[name] = type }
        return types
    }

    /// Applies `--label FIELD@LANG=TEXT` values; an empty TEXT removes the label.
    static func apply(labels values: [String], to settings: inout CatalogSettings) throws(CLIError) {
        for value in values {
            let parts = value.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let at = parts[0].lastIndex(of: "@"), at != parts[0].startIndex,
                parts[0].index(after: at) != parts[0].endIndex
            else {
                throw CLIError.usage("--label takes FIELD@LANG=TEXT, got '\(value)'")
            }
            let field = String(parts[0][..<at])
            let language = String(parts[0][parts[0].index(after: at)...])
            if parts[1].isEmpty {
                settings.labels[field]?.removeValue(forKey: language)
                if settings.labels[field]?.isEmpty == true { settings.labels.removeValue(forKey: field) }
            } else {
                settings.labels[field, default: [:]][language] = String(parts[1])
            }
        }
    }

    /// Runs a management operation, its problems told in the words of the options.
    static func run<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CatalogChangeError where error.code == .invalid {
            throw CLIError.usage(error.problems.map(describe).joined(separator: "; "))
        } catch let error as CatalogChangeError where error.code == .staleRevision {
            throw CLIError.failure("the catalog changed meanwhile; run the command again")
        } catch let error as StorageError where error.code == .constraint {
            throw CLIError.failure(error.message)
        } catch let error as StorageError where error.code == .catalogNotFound {
            throw CLIError.failure(error.message)
        }
    }

    /// A problem at a JSON pointer of the catalog, named by the option that set the member.
    static func describe(_ problem: CatalogChangeError.Problem) -> String {
        let tokens = JSONPointer.tokens(problem.pointer)
        let option: String
        switch (tokens.first, tokens.count) {
        case ("id", _): option = "ID"
        case ("title", _): option = "--title"
        case ("description", _): option = "--description"
        case ("locale", _): option = "--locale"
        case ("roles", 2): option = "--field \(tokens[1])=…"
        case ("types", 2): option = "--type \(tokens[1])=…"
        case ("labels", 3): option = "--label \(tokens[1])@\(tokens[2])=…"
        case ("labels", 2): option = "--label \(tokens[1])@…"
        default: option = problem.pointer
        }
        return "\(option): \(problem.message)"
    }
}

/// A line typed on the terminal, in answer to a prompt on standard error.
enum TerminalInput {
    /// The line without its ending, nil when standard input ends first.
    static func line(prompt: String) -> String? {
        StandardStream.error.write(prompt)
        guard var line = Swift.readLine(strippingNewline: true) else { return nil }
        if line.hasSuffix("\r") { line.removeLast() }
        return line
    }
}
