import CatalogCollation
import CatalogImport
import CatalogModel
import CatalogStorage
import Foundation

/// `catalog import`: records from XML, JSON, CSV or an SQLite table, from a file or a URL.
struct ImportCommand: Command {
    static let name = "import"
    static let buildsIndexes = true
    static let summary = "Import records from XML, JSON, CSV or SQLite (file or http(s) URL)."
    static let catalog = Option<String>(
        required: "catalog", value: "ID", help: "the catalog (letters, digits, '-', '_')")
    static let format = Option<ImportFormat?>(
        "format", value: "FORMAT", showing: "from the extension or content", help: "xml, json, csv or sqlite"
    ) { (name: String) throws(CLIError) -> ImportFormat in
        guard let format = ImportFormat(rawValue: name) else {
            throw CLIError.usage("unknown format '\(name)'; formats: xml, json, csv, sqlite")
        }
        return format
    }
    static let record = Option<String?>(
        "record", value: "NAME", showing: "the first repeated child of the root",
        help: "XML: the record element; JSON: the key holding the records")
    static let table = Option<String?>(
        "table", value: "NAME",
        showing: "the only table; ASCII case does not matter when only one table matches",
        help: "SQLite: the table to read")
    static let field = Option<[String]>(
        "field", value: "ROLE=NAME", help: "map source field NAME to ROLE (repeatable); NAME must occur")
    static let noRole = Option<[String]>(
        "no-role", value: "ROLE",
        help: "feed ROLE from no field, not even one named like it (repeatable; same as --field ROLE=)")
    static let type = Option<[String]>(
        "type", value: "NAME=TYPE", help: "read field NAME of CSV or XML as a number, bool or date (or text)")
    static let locale = Option<String?>(
        "locale", value: "LOCALE", showing: "en", help: "the catalog's locale for new catalogs: de, hu, sv…")
    static let lang = Option<String?>(
        "lang", value: "LANG", showing: "the --locale given, else the text without a language",
        help:
            "the language of the texts roles take (xml:lang, name@de, name_de, name.de); the others are kept as "
            + "ROLE@LANG fields")
    static let title = Option<String?>("title", value: "TEXT", showing: "its id", help: "the catalog's title")
    static let categorySeparator = Option<String?>(
        "category-separator", value: "SEP", help: "split one categories value at SEP (e.g. ';')")
    static let comment = Option<Character?>(
        "comment", value: "CHAR", help: "CSV: skip lines starting with CHAR (e.g. '#')"
    ) { (text: String) throws(CLIError) -> Character in
        guard text.count == 1, let character = text.first, character.isASCII, !"\"\r\n".contains(character) else {
            throw CLIError.usage("--comment takes one ASCII character other than a quote, got '\(text)'")
        }
        return character
    }
    static let replace = Flag(
        "replace",
        help:
            "remove records missing from SOURCE (default: keep them); needed when the id mapping changed since "
            + "the last import")
    /// `--timeout`, shared with `catalog refresh`.
    static let timeout = Option<Int?>(
        "timeout", value: "SECONDS", in: 1...86_400, showing: "600 in all, 30 of silence",
        help: "for URLs: the whole download's deadline, and the longest silence")
    static let maxDownloadMB = CommonOptions.maxDownloadMB.help(
        "for URLs: the largest download, as sent and once decoded (gzip, deflate)")
    static let allowPrivateFetch = CommonOptions.allowPrivateFetch.help(
        "for URLs: follow redirects to loopback, link-local and private addresses too (default: refused, unless "
            + "the redirect stays on the URL's own scheme, host and port)")
    static let json = CommonOptions.json.help("print the summary as JSON")
    static let options: [any OptionDeclaration] = [
        catalog, format, record, table, field, noRole, type, locale, lang, title, categorySeparator, comment, replace,
        timeout, maxDownloadMB, allowPrivateFetch, CommonOptions.quiet, json,
    ]
    static let usage = [
        Usage(
            "SOURCE", .option(catalog), .option(format), .option(record), .option(table), .option(field),
            .option(noRole), .option(type), .option(locale), .option(lang), .option(title), .option(categorySeparator),
            .option(comment), .option(replace), .option(timeout), .option(maxDownloadMB), .option(allowPrivateFetch),
            .option(CommonOptions.db))
    ]
    static let discussion = """
        Reads records from SOURCE (a file path or an http(s) URL) into catalog ID, creating it when
        it does not exist. Everything happens in one transaction: a bad file changes nothing, and
        the error says where the problem is (file:line:column).

        Source fields named like a role map by themselves; --field maps others, and one source
        field may feed several roles. Roles: id, title, subtitle, description, categories, price,
        currency, quantity, country, image, featured. Unmapped fields are kept as extra fields, with
        their types. Records without an id get one from their title, so importing the same source
        again updates records instead of duplicating them. A file that `catalog export` wrote
        carries its catalog's definition: a new catalog imports it without --field flags.

        A catalog imported from a URL remembers it: `catalog refresh ID` fetches it again.
        """

    /// Handles SIGINT and SIGTERM itself, so a download's temporary file is removed.
    static let removesTemporaryFilesOnSignal = true

    func run(_ context: CommandContext) throws {
        let arguments = context.arguments
        guard arguments.positionals.count == 1, let source = arguments.positionals.first else {
            throw CLIError.usage("name exactly one SOURCE (a file or an http(s) URL)")
        }
        let id = try arguments[Self.catalog]
        guard CatalogDefinition.isValidID(id) else {
            throw CLIError.usage("invalid catalog id '\(id)': use 1 to 64 letters, digits, '-' or '_'")
        }
        var request = ImportRequest(source: source, catalog: id)
        request.mapping = try Self.mapping(try arguments[Self.field], unmapping: try arguments[Self.noRole])
        request.fieldTypes = try Self.types(try arguments[Self.type])
        request.format = try arguments[Self.format]
        request.record = try arguments[Self.record]
        request.table = try arguments[Self.table]
        request.locale = try arguments[Self.locale]
        request.language = try arguments[Self.lang]
        request.title = try arguments[Self.title]
        request.categorySeparator = try arguments[Self.categorySeparator]
        request.replace = arguments[Self.replace]
        if let character = try arguments[Self.comment] { request.comment = character }
        request.fetch = try Self.fetchOptions(arguments)

        TemporaryFiles.removeStale()
        let database = try context.openForWriting()
        defer { database.close() }
        let progress = ProgressBar(totalBytes: nil, enabled: !arguments[CommonOptions.quiet] && isatty(2) != 0)
        var importer = SourceImporter.withICU
        importer.sizeKnown = { progress.setTotal(bytes: $0) }
        importer.bytesRead = { progress.update(bytes: $0) }
        importer.recordsRead = { progress.update(records: $0) }
        importer.readingDone = { read in
            progress.update(records: read)
            progress.phase("sorting and building the search index…")
        }
        let started = Date()
        let plan = try ImportPlan.make(request, database: database)
        let result = try importer.run(plan, database: database)
        progress.finish()
        guard case .imported(let summary) = result else { return }
        Self.report(summary, catalog: id, seconds: Date().timeIntervalSince(started), context: context)
    }

    /// `--field ROLE=NAME` and `--no-role ROLE` values as a mapping; an unmapped role maps to the
    /// empty name (`--field ROLE=` says the same).
    static func mapping(_ values: [String], unmapping: [String] = []) throws(CLIError) -> [Role: String] {
        func role(_ name: String) throws(CLIError) -> Role {
            guard let role = Role(rawValue: name) else {
                throw CLIError.usage(
                    "unknown role '\(name)'; roles: \(Role.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return role
        }
        var mapping: [Role: String] = [:]
        for field in values {
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw CLIError.usage("--field takes ROLE=SOURCE_NAME (or ROLE= to unmap ROLE), got '\(field)'")
            }
            mapping[try role(parts[0])] = parts[1]
        }
        for name in unmapping {
            let unmapped = try role(name)
            if let given = mapping[unmapped], !given.isEmpty {
                throw CLIError.usage("--no-role \(name) contradicts --field \(name)=\(given)")
            }
            mapping[unmapped] = ""
        }
        if mapping[.title]?.isEmpty == true {
            throw CLIError.usage("the title role cannot be unmapped: every record needs a title")
        }
        return mapping
    }

    /// `--type NAME=TYPE` values.
    static func types(_ values: [String]) throws(CLIError) -> [String: FieldType] {
        var types: [String: FieldType] = [:]
        for value in values {
            let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, let type = FieldType(rawValue: parts[1]) else {
                throw CLIError.usage("--type takes NAME=number, NAME=bool, NAME=date or NAME=text, got '\(value)'")
            }
            types[parts[0]] = type
        }
        return types
    }

    /// `--timeout`, `--max-download-mb` and `--allow-private-fetch`.
    static func fetchOptions(_ arguments: Arguments) throws(CLIError) -> SourceFetcher.Options {
        var options = SourceFetcher.Options()
        if let seconds = try arguments[Self.timeout] {
            options.deadline = TimeInterval(seconds)
            options.timeout = min(TimeInterval(seconds), 30)
        }
        if let megabytes = try arguments[CommonOptions.maxDownloadMB] { options.maxBytes = Int64(megabytes) << 20 }
        options.allowPrivate = arguments[CommonOptions.allowPrivateFetch]
        return options
    }

    static func report(_ summary: ImportSummary, catalog: String, seconds: Double, context: CommandContext) {
        if context.json {
            context.output.line((try? JSON.string(summary)) ?? "{}")
            return
        }
        guard !context.arguments[CommonOptions.quiet] else { return }
        if summary.unchanged {
            printError(
                "\(catalog): unchanged, the same file imported the same way as last time; nothing read or written, "
                    + "\(summary.total) in the catalog; " + String(format: "%.2f s", seconds))
            return
        }
        let rate = seconds > 0 ? Int(Double(summary.read) / seconds) : 0
        printError(
            "\(catalog): read \(summary.read) records (\(summary.added) new, \(summary.updated) updated, "
                + "\(summary.removed) removed), \(summary.total) in the catalog; "
                + String(format: "%.2f s, %d records/s", seconds, rate))
        for note in summary.notes { printError("note: \(note)") }
    }
}

extension SourceImporter {
    /// An importer whose sort keys, sections and country names in the catalog's language come from ICU.
    static var withICU: SourceImporter {
        var importer = SourceImporter(collation: { try ICUCollation.forImport(locale: $0) })
        importer.countryNames = { ICUCountryNames.names(locale: $0) }
        return importer
    }
}
