import CatalogDemo
import CatalogModel
import CatalogCollation
import CatalogCore
import CatalogStorage
import Foundation

/// `catalog generate`: a deterministic synthetic catalog.
struct GenerateCommand: Command {
    static let name = "generate"
    static let buildsIndexes = true
    static let summary = "Generate a deterministic synthetic catalog (benchmarks, demos at scale)."
    static let catalog = Option<String>(required: "catalog", value: "ID", help: "the catalog to create or replace")
    static let items = Option<Int>(
        required: "items", value: "N", in: 1...100_000_000, help: "how many records (1 to 100,000,000)")
    static let locale = Option<String>(
        "locale", value: "L", default: "en", help: "the catalog's locale and the dominant language")
    static let seed = Option<UInt64>("seed", value: "S", default: 1, help: "the random seed") {
        (text: String) throws(CLIError) -> UInt64 in
        guard let seed = UInt64(text) else { throw CLIError.usage("'--seed' must be a whole number ≥ 0") }
        return seed
    }
    static let title = Option<String?>(
        "title", value: "TEXT", showing: #""Generated (N items)""#, help: "the catalog's title")
    static let options: [any OptionDeclaration] = [catalog, items, locale, seed, title, CommonOptions.quiet]
    static let usage = [
        Usage(
            .option(catalog), .option(items), .option(locale), .option(seed), .option(title),
            .option(CommonOptions.quiet), .option(CommonOptions.db))
    ]
    static let discussion = """
        Creates (or replaces) catalog ID with N synthetic records: multilingual product names with
        diacritics, manufacturers, descriptions, 1-3 of 12 categories, prices, quantities and
        countries. The same N, locale and seed always give the same records.
        """

    func run(_ context: CommandContext) throws {
        let arguments = context.arguments
        let id = try arguments[Self.catalog]
        guard CatalogDefinition.isValidID(id) else {
            throw CLIError.usage("invalid catalog id '\(id)': use 1 to 64 letters, digits, '-' or '_'")
        }
        let items = try arguments[Self.items]
        let seed = try arguments[Self.seed]
        let generator = CatalogGenerator(items: items, locale: try arguments[Self.locale], seed: seed)
        var definition = generator.definition
        definition.id = id
        definition.title = try arguments[Self.title] ?? "Generated (\(items) items)"
        let database = try context.openForWriting()
        defer { database.close() }
        let progress = ProgressBar(totalBytes: nil, enabled: !arguments[CommonOptions.quiet] && isatty(2) != 0)
        let started = Date()
        let summary = try CatalogImporter.run(
            into: database, definition: definition, replace: true,
            collation: try ICUCollation.forImport(locale: definition.locale),
            records: { add in
                try generator.forEachRecord { try add($0) }
                progress.phase("sorting and building the search index…")
                return nil
            }, progress: { progress.update(records: $0) })
        progress.finish()
        ImportCommand.report(summary, catalog: id, seconds: Date().timeIntervalSince(started), context: context)
    }
}
