import CatalogCore
import CatalogImport
import CatalogModel
import CatalogStorage
import Foundation

/// `catalog export`: a catalog as XML (in its own record shape), JSON, CSV or an SQLite table.
struct ExportCommand: Command {
    static let name = "export"
    static let summary = "Export a catalog as XML (its own record shape), JSON, CSV or an SQLite table."
    static let format = Option<ImportFormat>(required: "format", value: "FORMAT", help: "xml, json, csv or sqlite") {
        (name: String) throws(CLIError) -> ImportFormat in
        guard let format = ImportFormat(rawValue: name) else {
            throw CLIError.usage("unknown export format '\(name)'; formats: xml, json, csv, sqlite")
        }
        return format
    }
    static let output = Option<String?>("output", value: "FILE", help: "write to FILE instead of standard output")
    static let plain = Flag("plain", help: "do not embed the catalog's definition")
    static let options: [any OptionDeclaration] = [CommonOptions.catalog, format, output, plain]
    static let usage = [
        Usage(
            .option(CommonOptions.catalog), .option(format), .option(output), .option(plain), .option(CommonOptions.db))
    ]
    static let discussion = """
        Writes every record in index order, under the source's own field names and in the order
        the source had them, with their types, translations and (XML) attributes and namespaces,
        so an export imports back to the same records. XML uses the catalog's root and record
        elements: the sequencers export is a valid original <sequenzer> feed. The file carries the
        catalog's definition (mapping, types, categories), so importing it into a new catalog needs
        no --field flags; --plain leaves it out. A CSV file holds only the table, for spreadsheets
        and CSV readers: with --output FILE its definition goes beside it, in FILE.definition.json,
        which an import of FILE reads (on standard output it has none).

        CSV: lists and values that are not text go to columns named NAME:json holding JSON values;
        "" is an empty value, an empty cell a missing one. SQLite (--output required): one table
        named after the catalog, a column per field (TEXT, INTEGER, REAL, or JSON for lists and
        mixed values), and a table catalog_definition.

        Without --output the document goes to standard output; with it, the file is replaced only
        when the export succeeded.
        """

    func run(_ context: CommandContext) throws {
        let id = try context.arguments[CommonOptions.catalog]
        let format = try context.arguments[Self.format]
        let outputPath = try context.arguments[Self.output]
        if format == .sqlite, outputPath == nil { throw CLIError.usage("--format sqlite needs --output FILE") }
        let database = try context.openExisting()
        defer { database.close() }
        try database.read { reader in
            guard let catalog = try reader.catalog(id) else {
                throw CLIError.failure("no catalog named \"\(id)\"")
            }
            let definition = catalog.definition
            let embed = !context.arguments[Self.plain]
            let records: CatalogExporter.Records = { body in
                try reader.forEachItem(of: catalog) { try body(try $0.record()) }
            }
            context.output.flush()

            let temporaryPath = outputPath.map { $0 + ".partial-\(getpid())" }
            // CSV's definition file, written beside the CSV file and put in place with it.
            let sidecar: (path: String, temporary: String)? =
                format == .csv && embed
                ? outputPath.map { output in
                    let path = EmbeddedDefinition.sidecar(of: URL(fileURLWithPath: output)).path
                    return (path, path + ".partial-\(getpid())")
                } : nil
            do {
                if format == .sqlite, let temporaryPath {
                    try? FileManager.default.removeItem(atPath: temporaryPath)
                    try SQLiteTableWriter.export(
                        definition: definition, embedDefinition: embed, records: records, to: temporaryPath)
                } else {
                    if let temporaryPath {
                        guard FileManager.default.createFile(atPath: temporaryPath, contents: nil) else {
                            throw CLIError.failure("cannot create \(outputPath ?? temporaryPath)")
                        }
                        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporaryPath))
                        defer { try? handle.close() }
                        var sink = FileHandleSink(handle, name: outputPath ?? temporaryPath)
                        try CatalogExporter.write(
                            format, definition: definition, embedDefinition: embed, records: records, to: &sink)
                    } else {
                        // The document's bytes as they are (data, not terminal text), through the
                        // command's output, which never traps and notices a reader that went away.
                        var sink = OutputSink(output: context.output)
                        do {
                            try CatalogExporter.write(
                                format, definition: definition, embedDefinition: embed, records: records, to: &sink)
                        } catch  where context.output.isClosed {
                            throw OutputClosed()
                        }
                    }
                }
                if let sidecar {
                    do {
                        try EmbeddedDefinition.sidecarData(definition).write(
                            to: URL(fileURLWithPath: sidecar.temporary))
                    } catch {
                        throw CLIError.failure("cannot write \(sidecar.path): \(error.localizedDescription)")
                    }
                }
                if let temporaryPath, let outputPath {
                    // rename(2) replaces the old file atomically: readers see the old or the new one.
                    guard rename(temporaryPath, outputPath) == 0 else {
                        throw CLIError.failure("cannot write \(outputPath): \(String(cString: strerror(errno)))")
                    }
                }
                if let sidecar, rename(sidecar.temporary, sidecar.path) != 0 {
                    throw CLIError.failure("cannot write \(sidecar.path): \(String(cString: strerror(errno)))")
                }
                if format == .csv, !embed, let outputPath {
                    // A definition file left by an earlier export would speak for this plain one.
                    try? FileManager.default.removeItem(
                        at: EmbeddedDefinition.sidecar(of: URL(fileURLWithPath: outputPath)))
                }
            } catch {
                for path in [temporaryPath, sidecar?.temporary].compactMap({ $0 }) {
                    try? FileManager.default.removeItem(atPath: path)
                }
                throw error
            }
        }
    }
}

/// A ``ByteSink`` onto the command's standard output: `.io` once the reader went away, so the
/// exporter stops at the next record.
struct OutputSink: ByteSink {
    let output: Output

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(ImportError) {
        output.write(bytes: bytes)
        if output.isClosed { throw Self.closed }
    }

    mutating func flush() throws(ImportError) {
        output.flush()
        if output.isClosed { throw Self.closed }
    }

    static let closed = ImportError(
        .io, "cannot write to standard output: it was closed", at: SourceLocation(source: "standard output"))
}
