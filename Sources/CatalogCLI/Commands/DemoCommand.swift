import CatalogDemo
import CatalogImport
import CatalogModel
import CatalogCollation
import CatalogStorage
import Foundation

/// `catalog demo`: adds or refreshes the three demo catalogs.
struct DemoCommand: Command {
    static let name = "demo"
    static let summary = "Add or refresh the three demo catalogs (sequencers, products, cookbook)."
    static let quiet = CommonOptions.quiet.help("no summary")
    static let options: [any OptionDeclaration] = [quiet]
    static let usage = [Usage(.option(CommonOptions.db), .option(quiet))]
    static let discussion = """
        Imports the built-in demo catalogs through the normal readers, replacing their records:
          sequencers  (de) music programs, from an XML feed in the original <sequenzer> format
          products    (en) a corporate product catalog, from JSON
          cookbook    (hu) recipes with categories and featured ("hot") recipes, from JSON
        Other catalogs in the database are left alone.
        """

    func run(_ context: CommandContext) throws {
        let database = try context.openForWriting()
        defer { database.close() }
        for demo in DemoCatalogs.all {
            let summary = try Self.load(demo, into: database)
            if !context.arguments[Self.quiet] {
                printError("\(demo.definition.id): \(summary.total) records")
            }
        }
    }

    /// Imports one demo catalog, replacing its records.
    static func load(_ demo: DemoCatalog, into database: any CatalogDatabase) throws -> ImportSummary {
        let data = Data(demo.source.utf8)
        let name = "demo:\(demo.definition.id)"
        let reader: any RecordSource
        switch demo.format {
        case .xml:
            reader = XMLRecordReader(data: data, sourceName: name, recordElement: demo.definition.recordElement)
        case .json:
            reader = JSONRecordReader(data: data, sourceName: name, recordPath: demo.recordPath)
        }
        return try ImportPipeline.run(
            reader, into: database, definition: demo.definition, replace: true,
            collation: try ICUCollation.forImport(locale: demo.definition.locale)
        ) { _ in }
    }
}
