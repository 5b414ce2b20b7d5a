import CatalogDemo
import CatalogModel
import CatalogCollation
import CatalogCore
import CatalogStorage
import Foundation

/// `catalog generate`: a deterministic synthetic catalog.
struct GenerateCommand: Command {
    static let name = "generate"
    static let summary = "Generate a deterministic synthetic catalog (benchmarks, demos at scale)."
    static let options: Set<String> = ["catalog", "items", "locale", "seed", "title"]
    static let flags: Set<String> = ["quiet"]
    static let help = """
        USAGE: catalog generate --catalog ID --items N [--locale L] [--seed S] [--title TEXT] [--db PATH]

        Creates (or replaces) catalog ID with N synthetic records: multilingual product names with
        diacritics, manufacturers, descriptions, 1-3 of 12 categories, prices, quantities and
        countries. The same N, locale and seed always give the same records.

        OPTIONS:
          --catalog ID     the catalog to create or replace
          --items N        how many records (1 to 100,000,000)
          --locale L       the catalog's locale and the dominant language (default: en)
          --seed S         the random seed (default: 1)
          --title TEXT     the catalog's title (default: "Generated (N items)")
          --quiet          no progress display and no summary

        """

    func run(_ context: CommandContext) throws {
        let arguments = context.arguments
        let id = try arguments.required("catalog")
        guard CatalogDefinition.isValidID(id) else {
            throw CLIError.usage("invalid catalog id '\(id)': use 1 to 64 letters, digits, '-' or '_'")
        }
        guard let items = try arguments.integer("items", in: 1...100_000_000) else {
            throw CLIError.usage("missing required option '--items'")
        }
        let seedText = arguments.value("seed") ?? "1"
        guard let seed = UInt64(seedText) else { throw CLIError.usage("'--seed' must be a whole number ≥ 0") }
        let generator = CatalogGenerator(items: items, locale: arguments.value("locale") ?? "en", seed: seed)
        var definition = generator.definition
        definition.id = id
        definition.title = arguments.value("title") ?? "Generated (\(items) items)"
        let database = try context.openForWriting()
        defer { database.close() }
        let progress = ProgressBar(totalBytes: nil, enabled: !arguments.flag("quiet") && isatty(2) != 0)
        let started = Date()
        let summary = try CatalogImporter.run(
            into: database, definition: definition, replace: true,
            collation: try ICUCollation.forImport(locale: definition.locale),
            records: { add in
                try generator.forEachRecord(add)
                progress.phase("sorting and building the search index…")
                return nil
            }, progress: { progress.update(records: $0) })
        progress.finish()
        ImportCommand.report(summary, catalog: id, seconds: Date().timeIntervalSince(started), context: context)
    }
}
