import CatalogCollation
import CatalogImport
import CatalogModel
import CatalogStorage
import Foundation

/// `catalog import`: records from XML, JSON, CSV or an SQLite table, from a file or a URL.
struct ImportCommand: Command {
    static let name = "import"
    static let summary = "Import records from XML, JSON, CSV or SQLite (file or http(s) URL)."
    static let options: Set<String> = [
        "catalog", "format", "record", "table", "field", "locale", "title", "category-separator", "timeout",
        "lang", "type", "comment", "max-download-mb",
    ]
    static let flags: Set<String> = ["replace", "quiet", "json", "allow-private-fetch"]
    static let help = """
        USAGE: catalog import SOURCE --catalog ID [--format xml|json|csv|sqlite] [--record ELEMENT]
                              [--table NAME] [--field ROLE=SOURCE_NAME]... [--type NAME=TYPE]...
                              [--locale LOCALE] [--lang LANG] [--title TEXT] [--category-separator SEP]
                              [--comment CHAR] [--replace] [--timeout SECONDS] [--max-download-mb N]
                              [--allow-private-fetch] [--db PATH]

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

        OPTIONS:
          --catalog ID               the catalog (letters, digits, '-', '_')
          --format FORMAT            xml, json, csv or sqlite (default: from the extension or content)
          --record NAME              XML: the record element (default: the first repeated child of
                                     the root); JSON: the key holding the records
          --table NAME               SQLite: the table to read (default: the only table; ASCII case
                                     does not matter when only one table matches)
          --field ROLE=NAME          map source field NAME to ROLE (repeatable); NAME must occur
          --type NAME=TYPE           read field NAME of CSV or XML as a number or bool (or text)
          --locale LOCALE            the catalog's locale for new catalogs (default: en): de, hu, sv…
          --lang LANG                the language of the texts roles take (xml:lang, name@de,
                                     name_de, name.de); the others are kept as ROLE@LANG fields
                                     (default: the --locale given, else the text without a language)
          --title TEXT               the catalog's title (default: its id)
          --category-separator SEP   split one categories value at SEP (e.g. ';')
          --comment CHAR             CSV: skip lines starting with CHAR (e.g. '#')
          --replace                  remove records missing from SOURCE (default: keep them); needed
                                     when the id mapping changed since the last import
          --timeout SECONDS          for URLs: the whole download's deadline, and the longest
                                     silence (default: 600 in all, 30 of silence)
          --max-download-mb N        for URLs: the largest download, as sent and once decoded
                                     (gzip, deflate) (default: 1024)
          --allow-private-fetch      for URLs: follow redirects to loopback, link-local and private
                                     addresses too (default: refused, unless the redirect stays on
                                     the URL's own scheme, host and port)
          --quiet                    no progress display and no summary
          --json                     print the summary as JSON

        """

    /// Handles SIGINT and SIGTERM itself, so a download's temporary file is removed.
    static let removesTemporaryFilesOnSignal = true

    func run(_ context: CommandContext) throws {
        let arguments = context.arguments
        guard arguments.positionals.count == 1, let source = arguments.positionals.first else {
            throw CLIError.usage("name exactly one SOURCE (a file or an http(s) URL)")
        }
        let id = try arguments.required("catalog")
        guard CatalogDefinition.isValidID(id) else {
            throw CLIError.usage("invalid catalog id '\(id)': use 1 to 64 letters, digits, '-' or '_'")
        }
        var request = ImportRequest(source: source, catalog: id)
        request.mapping = try Self.mapping(arguments.values("field"))
        request.fieldTypes = try Self.types(arguments.values("type"))
        request.format = try arguments.value("format").map { name -> ImportFormat in
            guard let format = ImportFormat(rawValue: name) else {
                throw CLIError.usage("unknown format '\(name)'; formats: xml, json, csv, sqlite")
            }
            return format
        }
        request.record = arguments.value("record")
        request.table = arguments.value("table")
        request.locale = arguments.value("locale")
        request.language = arguments.value("lang")
        request.title = arguments.value("title")
        request.categorySeparator = arguments.value("category-separator")
        request.replace = arguments.flag("replace")
        if let comment = arguments.value("comment") {
            guard comment.count == 1, let character = comment.first, character.isASCII else {
                throw CLIError.usage("--comment takes one ASCII character, got '\(comment)'")
            }
            request.comment = character
        }
        request.fetch = try Self.fetchOptions(arguments)

        TemporaryFiles.removeStale()
        let database = try context.openForWriting()
        defer { database.close() }
        let progress = ProgressBar(totalBytes: nil, enabled: !arguments.flag("quiet") && isatty(2) != 0)
        var importer = SourceImporter.withICU
        importer.sizeKnown = { progress.setTotal(bytes: $0) }
        importer.bytesRead = { progress.update(bytes: $0) }
        importer.recordsRead = { progress.update(records: $0) }
        importer.readingDone = { read in
            progress.update(records: read)
            progress.phase("sorting and building the search index…")
        }
        let started = Date()
        let result = try importer.run(request, database: database)
        progress.finish()
        guard case .imported(let summary) = result else { return }
        Self.report(summary, catalog: id, seconds: Date().timeIntervalSince(started), context: context)
    }

    /// `--field ROLE=NAME` values as a mapping.
    static func mapping(_ values: [String]) throws(CLIError) -> [Role: String] {
        var mapping: [Role: String] = [:]
        for field in values {
            let parts = field.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[1].isEmpty else {
                throw CLIError.usage("--field takes ROLE=SOURCE_NAME, got '\(field)'")
            }
            guard let role = Role(rawValue: parts[0]) else {
                throw CLIError.usage(
                    "unknown role '\(parts[0])'; roles: \(Role.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            mapping[role] = parts[1]
        }
        return mapping
    }

    /// `--type NAME=TYPE` values.
    static func types(_ values: [String]) throws(CLIError) -> [String: FieldType] {
        var types: [String: FieldType] = [:]
        for value in values {
            let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, let type = FieldType(rawValue: parts[1]) else {
                throw CLIError.usage("--type takes NAME=number, NAME=bool or NAME=text, got '\(value)'")
            }
            types[parts[0]] = type
        }
        return types
    }

    /// `--timeout`, `--max-download-mb` and `--allow-private-fetch`.
    static func fetchOptions(_ arguments: Arguments) throws(CLIError) -> SourceFetcher.Options {
        var options = SourceFetcher.Options()
        if let seconds = try arguments.integer("timeout", in: 1...86_400) {
            options.deadline = TimeInterval(seconds)
            options.timeout = min(TimeInterval(seconds), 30)
        }
        if let megabytes = try arguments.integer("max-download-mb", in: 1...1_048_576) {
            options.maxBytes = Int64(megabytes) << 20
        }
        options.allowPrivate = arguments.flag("allow-private-fetch")
        return options
    }

    static func report(_ summary: ImportSummary, catalog: String, seconds: Double, context: CommandContext) {
        if context.json {
            context.output.line((try? JSON.string(summary)) ?? "{}")
            return
        }
        guard !context.arguments.flag("quiet") else { return }
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
    /// An importer whose sort keys and sections come from ICU.
    static var withICU: SourceImporter {
        SourceImporter(collation: { try ICUCollation.forImport(locale: $0) })
    }
}
