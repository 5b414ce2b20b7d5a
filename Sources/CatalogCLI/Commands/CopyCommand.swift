import CatalogCollation
import CatalogCore
import CatalogEngines
import CatalogModel
import CatalogStorage
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `catalog copy`: catalogs (and accounts) from one database into another, SQLite or PostgreSQL
/// either way.
///
/// Records are re-imported through ``CatalogImporter`` with this program's collation rather than
/// copied as rows: the importer is the one writer every engine has, it writes each catalog in
/// one transaction that replaces the catalog as a whole, it builds sort keys and the search
/// index with this program's collator (a copy between machines never keeps keys of another ICU
/// version), and its numbering is deterministic, so the copy answers every browse and search
/// exactly as the original. The source's category numbers are kept.
struct CopyCommand: Command {
    static let name = "copy"
    static let buildsIndexes = true
    static let summary = "Copy catalogs (and accounts) to another database, SQLite or PostgreSQL."
    static let to = Option<String>(required: "to", value: "LOCATION", help: "the database to copy into")
    static let catalog = Option<[String]>(
        "catalog", value: "ID", showing: "every catalog", help: "copy only this catalog; repeatable")
    static let users = Flag("users", help: "copy the accounts too")
    static let options: [any OptionDeclaration] = [to, catalog, users, CommonOptions.quiet]
    static let usage = [
        Usage(.option(to), .option(catalog), .option(users), .option(CommonOptions.quiet), .option(CommonOptions.db))
    ]
    static let discussion = """
        Copies catalogs from the --db database into LOCATION, a file path (SQLite, created when
        missing) or a postgres:// URL, in either direction. Each catalog is written in one
        transaction that replaces the catalog of the same id there (an interrupted copy leaves
        it as it was), and its records' stored images follow it; other catalogs there are kept.
        With --users, every account follows with its password, API token, web sessions,
        favorites and roles in catalogs, replacing an account of the same name. A progress bar
        shows on a terminal.
        """

    func run(_ context: CommandContext) throws {
        let arguments = context.arguments
        let target = try arguments[Self.to]
        guard !target.isEmpty else { throw CLIError.usage("--to needs a database location") }
        guard !Self.sameDatabase(context.databaseLocation, target) else {
            throw CLIError.usage("--to names the database being copied")
        }
        let source = try context.openExisting()
        defer { source.close() }
        try source.read { reader in
            let available = try reader.catalogs().map(\.id)
            var wanted = try arguments[Self.catalog]
            if wanted.isEmpty {
                wanted = available
            } else if let missing = wanted.first(where: { !available.contains($0) }) {
                throw CLIError.failure("no catalog named \"\(missing)\" in \(source.location)")
            }
            let destination = try context.open(target)
            defer { destination.close() }
            let quiet = arguments[CommonOptions.quiet]
            for id in wanted {
                let catalog = try reader.requireCatalog(id)
                let started = Date()
                // The bar's share is of records here: the record count stands in for the byte size.
                let progress = ProgressBar(totalBytes: Int64(catalog.summary.count), enabled: !quiet && isatty(2) != 0)
                let summary = try CatalogImporter.run(
                    into: destination, definition: catalog.definition, replace: true,
                    collation: try ICUCollation.forImport(locale: catalog.definition.locale),
                    records: { add in
                        var read = 0
                        try reader.forEachItem(of: catalog) { hit in
                            try add(try hit.record())
                            read += 1
                            if read % 1_000 == 0 {
                                progress.update(bytes: Int64(read))
                                progress.update(records: read)
                            }
                        }
                        progress.update(bytes: Int64(read))
                        progress.phase("sorting and building the search index…")
                        return nil
                    },
                    categoryNumbers: Dictionary(catalog.categories.map { ($0.name, $0.id) }) { first, _ in first })
                progress.finish()
                // Images stored for records are the database's, not the source file's: they go along.
                let images = try destination.write { writer in
                    var count = 0
                    try reader.forEachStoredImage(of: id) { image in
                        try writer.storeImage(image)
                        count += 1
                    }
                    return count
                }
                if !quiet, images > 0 {
                    printError(
                        "\(id): copied \(images) stored image\(images == 1 ? "" : "s") to \(destination.location)")
                }
                if !quiet {
                    printError(
                        "\(id): copied \(summary.total) records to \(destination.location) "
                            + String(format: "in %.2f s", Date().timeIntervalSince(started)))
                }
            }
            if arguments[Self.users] {
                let accounts = try source.users().accounts()
                let users = try destination.users()
                for account in accounts { try users.restore(account) }
                if !quiet {
                    printError(
                        "copied \(accounts.count) account\(accounts.count == 1 ? "" : "s") to \(destination.location)")
                }
            }
        }
    }

    /// Whether two locations name the same database: the same file, or the same URL.
    static func sameDatabase(_ first: String, _ second: String) -> Bool {
        if CatalogEngines.isPostgres(first) || CatalogEngines.isPostgres(second) { return first == second }
        let resolve = { (path: String) in URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        }
        return resolve(first) == resolve(second)
    }
}
