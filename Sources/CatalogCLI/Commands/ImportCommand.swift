import CatalogImport
import CatalogModel
import CatalogCollation
import CatalogStorage
import Foundation

/// `catalog import`: records from XML, JSON, CSV or an SQLite table, from a file or a URL.
struct ImportCommand: Command {
    static let name = "import"
    static let summary = "Import records from XML, JSON, CSV or SQLite (file or http(s) URL)."
    static let options: Set<String> = [
        "catalog", "format", "record", "table", "field", "locale", "title", "category-separator", "timeout",
    ]
    static let flags: Set<String> = ["replace", "quiet", "json"]
    static let help = """
        USAGE: catalog import SOURCE --catalog ID [--format xml|json|csv|sqlite] [--record ELEMENT]
                              [--table NAME] [--field ROLE=SOURCE_NAME]... [--locale LOCALE]
                              [--title TEXT] [--category-separator SEP] [--replace] [--db PATH]

        Reads records from SOURCE (a file path or an http(s) URL) into catalog ID, creating it when
        it does not exist. Everything happens in one transaction: a bad file changes nothing, and
        the error says where the problem is (file:line:column).

        Source fields named like a role map by themselves; --field maps others. Roles: id, title,
        subtitle, description, categories, price, currency, quantity, country, image, featured.
        Unmapped fields are kept as extra fields. Records without an id get one from their title,
        so importing the same source again updates records instead of duplicating them.

        OPTIONS:
          --catalog ID               the catalog (letters, digits, '-', '_')
          --format FORMAT            xml, json, csv or sqlite (default: from the extension or content)
          --record NAME              XML: the record element (default: the first repeated child of
                                     the root); JSON: the key holding the record array
          --table NAME               SQLite: the table to read (default: the only table)
          --field ROLE=NAME          map source field NAME to ROLE (repeatable)
          --locale LOCALE            the catalog's locale for new catalogs (default: en): de, hu, sv…
          --title TEXT               the catalog's title (default: its id)
          --category-separator SEP   split one categories value at SEP (e.g. ';')
          --replace                  remove records missing from SOURCE (default: keep them)
          --timeout SECONDS          for URLs: connection and read timeout (default: 30)
          --quiet                    no progress display and no summary
          --json                     print the summary as JSON

        """

    func run(_ context: CommandContext) throws {
        let arguments = context.arguments
        guard arguments.positionals.count == 1, let source = arguments.positionals.first else {
            throw CLIError.usage("name exactly one SOURCE (a file or an http(s) URL)")
        }
        let id = try arguments.required("catalog")
        guard CatalogDefinition.isValidID(id) else {
            throw CLIError.usage("invalid catalog id '\(id)': use 1 to 64 letters, digits, '-' or '_'")
        }
        var mapping: [Role: String] = [:]
        for field in arguments.values("field") {
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
        let explicitFormat = try arguments.value("format").map { name -> ImportFormat in
            guard let format = ImportFormat(rawValue: name) else {
                throw CLIError.usage("unknown format '\(name)'; formats: xml, json, csv, sqlite")
            }
            return format
        }
        let timeout = TimeInterval(try arguments.integer("timeout", in: 1...3600) ?? 30)

        let database = try context.openForWriting()
        defer { database.close() }
        let stored = try database.reader().catalog(id)?.definition
        var definition =
            stored
            ?? CatalogDefinition(
                id: id, title: arguments.value("title") ?? id, locale: arguments.value("locale") ?? "en")
        if let title = arguments.value("title") { definition.title = title }
        if let locale = arguments.value("locale"), locale != definition.locale {
            guard stored == nil else {
                throw CLIError.usage(
                    "catalog '\(id)' already has locale '\(definition.locale)'; it cannot change on import")
            }
            definition.locale = locale
        }
        definition.mapping.merge(mapping) { _, new in new }
        if let separator = arguments.value("category-separator") { definition.categorySeparator = separator }

        let fetched = try SourceFetcher().fetchBlocking(source, timeout: timeout)
        defer { fetched.discard() }
        let format =
            try explicitFormat ?? ImportFormat(fileExtension: fetched.fileURL.pathExtension)
            ?? ImportFormat.detect(fileURL: fetched.fileURL)
        let size =
            fetched.byteCount
            ?? (try? FileManager.default.attributesOfItem(atPath: fetched.fileURL.path)[.size] as? Int64) ?? nil
        let progress = ProgressBar(totalBytes: size, enabled: !arguments.flag("quiet") && isatty(2) != 0)
        let outcome = ReadingOutcome()
        let reader = try ImportPipeline.reader(
            format: format, fileURL: fetched.fileURL, displayName: fetched.displayName, definition: &definition,
            record: arguments.value("record"), table: arguments.value("table"), sqliteTable: SQLiteTableSource.init,
            progress: { progress.update(bytes: $0) }, outcome: outcome)
        let started = Date()
        let summary = try ImportPipeline.run(
            reader, into: database, definition: definition, replace: arguments.flag("replace"),
            collation: try ICUCollation.forImport(locale: definition.locale), outcome: outcome,
            readingDone: { read in
                progress.update(records: read)
                progress.phase("sorting and building the search index…")
            }
        ) {
            progress.update(records: $0)
        }
        progress.finish()
        Self.report(summary, catalog: id, seconds: Date().timeIntervalSince(started), context: context)
    }

    static func report(_ summary: ImportSummary, catalog: String, seconds: Double, context: CommandContext) {
        if context.json {
            context.output.line((try? JSON.string(summary)) ?? "{}")
            return
        }
        guard !context.arguments.flag("quiet") else { return }
        let rate = seconds > 0 ? Int(Double(summary.read) / seconds) : 0
        printError(
            "\(catalog): read \(summary.read) records (\(summary.added) new, \(summary.updated) updated, "
                + "\(summary.removed) removed), \(summary.total) in the catalog; "
                + String(format: "%.2f s, %d records/s", seconds, rate))
    }
}
