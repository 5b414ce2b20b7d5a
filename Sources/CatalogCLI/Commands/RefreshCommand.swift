import CatalogImport
import CatalogModel
import CatalogStorage
import Foundation

/// `catalog refresh`: fetches a URL-sourced catalog again, conditionally.
struct RefreshCommand: Command {
    static let name = "refresh"
    static let buildsIndexes = true
    static let summary = "Fetch a catalog imported from a URL again (conditional GET)."
    static let timeout = ImportCommand.timeout.help("the whole download's deadline", default: "600")
    static let quiet = CommonOptions.quiet.help("no summary")
    static let json = CommonOptions.json.help(#"print {"notModified":true} or the import summary as JSON"#)
    static let options: [any OptionDeclaration] = [
        timeout, CommonOptions.maxDownloadMB, CommonOptions.allowPrivateFetch, quiet, json,
    ]
    static let usage = [
        Usage(
            "ID", .option(timeout), .option(CommonOptions.maxDownloadMB), .option(CommonOptions.allowPrivateFetch),
            .option(quiet), .option(json), .option(CommonOptions.db))
    ]
    static let discussion = """
        Fetches catalog ID's source URL again with a conditional GET (If-None-Match and
        If-Modified-Since from the last import). When the server answers that nothing changed, it
        prints "not modified" and writes nothing; otherwise it imports the new file exactly as the
        catalog was imported before (format, record element, table, mapping, --replace), in one
        transaction.
        """

    static let removesTemporaryFilesOnSignal = true

    func run(_ context: CommandContext) throws {
        let arguments = context.arguments
        guard arguments.positionals.count == 1, let id = arguments.positionals.first else {
            throw CLIError.usage("name exactly one catalog ID")
        }
        TemporaryFiles.removeStale()
        let database = try context.openExisting()
        defer { database.close() }
        guard let definition = try database.read({ try $0.catalog(id)?.definition }) else {
            throw CLIError.failure("no catalog named \"\(id)\"")
        }
        guard var request = ImportRequest(refreshing: definition) else {
            throw CLIError.failure("catalog \"\(id)\" was not imported from a URL; import it again with catalog import")
        }
        request.fetch = try ImportCommand.fetchOptions(arguments)
        let started = Date()
        switch try SourceImporter.withICU.run(request, database: database) {
        case .notModified:
            if context.json {
                context.output.line(#"{"notModified":true}"#)
            } else if !arguments[Self.quiet] {
                context.output.line("not modified")
            }
        case .imported(let summary):
            ImportCommand.report(summary, catalog: id, seconds: Date().timeIntervalSince(started), context: context)
        }
    }
}
