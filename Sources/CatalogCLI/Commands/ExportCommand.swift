import CatalogImport
import CatalogModel
import CatalogCore
import CatalogStorage
import Foundation

/// `catalog export`: a catalog as XML (in its own record shape), JSON or CSV.
struct ExportCommand: Command {
    static let name = "export"
    static let summary = "Export a catalog as XML (its own record shape), JSON or CSV."
    static let options: Set<String> = ["catalog", "format", "output"]
    static let flags: Set<String> = []
    static let help = """
        USAGE: catalog export --catalog ID --format xml|json|csv [--output FILE] [--db PATH]

        Writes every record in index order, under the source's own field names and in the order
        the source had them, so an export imports back to the same catalog. XML uses the catalog's
        root and record elements: the sequencers export is a valid original <sequenzer> feed.
        Without --output the document goes to standard output; with it, the file is replaced only
        when the export succeeded.

        OPTIONS:
          --catalog ID       the catalog
          --format FORMAT    xml, json or csv
          --output FILE      write to FILE instead of standard output

        """

    func run(_ context: CommandContext) throws {
        let id = try context.arguments.required("catalog")
        let formatName = try context.arguments.required("format")
        guard let format = ImportFormat(rawValue: formatName), format != .sqlite else {
            throw CLIError.usage("unknown export format '\(formatName)'; formats: xml, json, csv")
        }
        let database = try context.openExisting()
        defer { database.close() }
        let reader = try database.reader()
        guard let catalog = try reader.catalog(id) else {
            throw CLIError.failure("no catalog named \"\(id)\"")
        }
        let definition = catalog.definition
        let store = StoredRecords(reader: reader, catalog: catalog)
        let mapper = RecordMapper(definition: definition)
        context.output.flush()

        let outputPath = context.arguments.value("output")
        let temporaryPath = outputPath.map { $0 + ".partial-\(getpid())" }
        let handle: FileHandle
        if let temporaryPath {
            guard FileManager.default.createFile(atPath: temporaryPath, contents: nil) else {
                throw CLIError.failure("cannot create \(outputPath!)")
            }
            handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporaryPath))
        } else {
            handle = FileHandle.standardOutput
        }
        do {
            var sink = FileHandleSink(handle, name: outputPath ?? "standard output")
            switch format {
            case .xml:
                var writer = XMLRecordWriter(
                    rootElement: definition.rootElement ?? "catalog",
                    recordElement: definition.recordElement ?? "record")
                try write(with: &writer, store: store, id: id, mapper: mapper, sink: &sink)
            case .json:
                var writer = JSONRecordWriter()
                try write(with: &writer, store: store, id: id, mapper: mapper, sink: &sink)
            case .csv:
                var columns = mapper.fieldOrder
                try store.forEach { record in
                    for field in mapper.sourceRecord(from: record).fields where !columns.contains(field.name) {
                        columns.append(field.name)
                    }
                }
                var writer = CSVRecordWriter(columns: columns)
                try write(with: &writer, store: store, id: id, mapper: mapper, sink: &sink)
            case .sqlite:
                break
            }
            if let temporaryPath, let outputPath {
                try handle.close()
                // rename(2) replaces the old file atomically: readers see the old or the new one.
                guard rename(temporaryPath, outputPath) == 0 else {
                    throw CLIError.failure("cannot write \(outputPath): \(String(cString: strerror(errno)))")
                }
            }
        } catch {
            if let temporaryPath { try? FileManager.default.removeItem(atPath: temporaryPath) }
            throw error
        }
    }

    private func write(
        with writer: inout some RecordWriter, store: StoredRecords, id: String, mapper: RecordMapper,
        sink: inout FileHandleSink
    ) throws {
        try writer.writeStart(to: &sink)
        try store.forEach { record in
            try writer.write(mapper.sourceRecord(from: record), to: &sink)
        }
        try writer.writeEnd(to: &sink)
    }
}

/// A catalog's records in index order, decoded from storage.
struct StoredRecords {
    let reader: any CatalogReader
    let catalog: StoredCatalog

    func forEach(_ body: (Record) throws -> Void) throws {
        try reader.forEachItem(of: catalog) { try body(try $0.record()) }
    }
}
