import CatalogImport
import CatalogModel
import CatalogSQLite
import Foundation

/// `catalog export`: a catalog as XML (in its own record shape), JSON, CSV or an SQLite table.
struct ExportCommand: Command {
    static let name = "export"
    static let summary = "Export a catalog as XML (its own record shape), JSON, CSV or an SQLite table."
    static let options: Set<String> = ["catalog", "format", "output"]
    static let flags: Set<String> = ["plain"]
    static let help = """
        USAGE: catalog export --catalog ID --format xml|json|csv|sqlite [--output FILE] [--plain] [--db PATH]

        Writes every record in index order, under the source's own field names and in the order
        the source had them, with their types, translations and (XML) attributes and namespaces,
        so an export imports back to the same records. XML uses the catalog's root and record
        elements: the sequencers export is a valid original <sequenzer> feed. The file carries the
        catalog's definition (mapping, types, categories), so importing it into a new catalog needs
        no --field flags; --plain leaves it out.

        CSV: lists and values that are not text go to columns named NAME:json holding JSON values;
        "" is an empty value, an empty cell a missing one. SQLite (--output required): one table
        named after the catalog, a column per field (TEXT, INTEGER, REAL, or JSON for lists and
        mixed values), and a table catalog_definition.

        Without --output the document goes to standard output; with it, the file is replaced only
        when the export succeeded.

        OPTIONS:
          --catalog ID       the catalog
          --format FORMAT    xml, json, csv or sqlite
          --output FILE      write to FILE instead of standard output
          --plain            do not embed the catalog's definition

        """

    func run(_ context: CommandContext) throws {
        let id = try context.arguments.required("catalog")
        let formatName = try context.arguments.required("format")
        guard let format = ImportFormat(rawValue: formatName) else {
            throw CLIError.usage("unknown export format '\(formatName)'; formats: xml, json, csv, sqlite")
        }
        let outputPath = context.arguments.value("output")
        if format == .sqlite, outputPath == nil { throw CLIError.usage("--format sqlite needs --output FILE") }
        let store = try context.openExisting()
        defer { store.close() }
        guard let definition = try store.definition(of: id) else {
            throw CLIError.failure("no catalog named \"\(id)\"")
        }
        let mapper = RecordMapper(definition: definition)
        let embedded = context.arguments.flag("plain") ? nil : definition
        context.output.flush()

        let temporaryPath = outputPath.map { $0 + ".partial-\(getpid())" }
        do {
            if format == .sqlite, let temporaryPath {
                try? FileManager.default.removeItem(atPath: temporaryPath)
                try exportSQLite(
                    store: store, definition: definition, embedded: embedded, mapper: mapper, to: temporaryPath)
            } else {
                try exportText(
                    format, store: store, definition: definition, embedded: embedded, mapper: mapper,
                    temporaryPath: temporaryPath, outputName: outputPath)
            }
            if let temporaryPath, let outputPath {
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

    private func exportText(
        _ format: ImportFormat, store: SQLiteCatalogStore, definition: CatalogDefinition, embedded: CatalogDefinition?,
        mapper: RecordMapper, temporaryPath: String?, outputName: String?
    ) throws {
        let handle: FileHandle
        if let temporaryPath {
            guard FileManager.default.createFile(atPath: temporaryPath, contents: nil) else {
                throw CLIError.failure("cannot create \(outputName ?? temporaryPath)")
            }
            handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporaryPath))
        } else {
            handle = FileHandle.standardOutput
        }
        defer { if temporaryPath != nil { try? handle.close() } }
        var sink = FileHandleSink(handle, name: outputName ?? "standard output")
        let typedRoles = format == .json
        switch format {
        case .xml:
            var writer = XMLRecordWriter(
                rootElement: definition.rootElement ?? "catalog", recordElement: definition.recordElement ?? "record",
                recordAttributes: Set(definition.recordAttributes), rootAttributes: definition.rootAttributes,
                definition: try embedded.map { try typed($0, store: store, mapper: mapper) })
            try write(with: &writer, store: store, id: definition.id, mapper: mapper, typedRoles: false, sink: &sink)
        case .json:
            var writer = JSONRecordWriter(definition: embedded)
            try write(with: &writer, store: store, id: definition.id, mapper: mapper, typedRoles: true, sink: &sink)
        case .csv:
            var layout = CSVRecordWriter.Layout(columns: mapper.fieldOrder)
            try store.forEachRecord(of: definition.id) { layout.add(mapper.sourceRecord(from: $0)) }
            var writer = CSVRecordWriter(layout: layout, definition: embedded)
            try write(
                with: &writer, store: store, id: definition.id, mapper: mapper, typedRoles: typedRoles, sink: &sink)
        case .sqlite:
            break
        }
    }

    private func exportSQLite(
        store: SQLiteCatalogStore, definition: CatalogDefinition, embedded: CatalogDefinition?, mapper: RecordMapper,
        to path: String
    ) throws {
        var layout = SQLiteTableWriter.Layout(columns: mapper.fieldOrder)
        try store.forEachRecord(of: definition.id) { layout.add(mapper.sourceRecord(from: $0, typedRoles: true)) }
        let writer = try SQLiteTableWriter(path: path, table: definition.id, layout: layout, definition: embedded)
        try store.forEachRecord(of: definition.id) { try writer.write(mapper.sourceRecord(from: $0, typedRoles: true)) }
        try writer.finish()
    }

    /// The definition an XML export embeds: XML keeps no types, so fields whose every value is a
    /// number (or a boolean) are typed, and read back as such.
    private func typed(_ definition: CatalogDefinition, store: SQLiteCatalogStore, mapper: RecordMapper) throws
        -> CatalogDefinition
    {
        var kinds: [String: Set<SourceField.Kind>] = [:]
        try store.forEachRecord(of: definition.id) { record in
            for (name, value) in record.fields {
                for field in SourceField.fields(name: name, value: value) {
                    kinds[name, default: []].insert(field.kind)
                }
            }
        }
        var result = definition
        for (name, seen) in kinds where result.fieldTypes[name] == nil {
            let values = seen.subtracting([.null, .emptyList])
            if values == [.number] { result.fieldTypes[name] = .number }
            if values == [.bool] { result.fieldTypes[name] = .bool }
        }
        return result
    }

    private func write(
        with writer: inout some RecordWriter, store: SQLiteCatalogStore, id: String, mapper: RecordMapper,
        typedRoles: Bool, sink: inout FileHandleSink
    ) throws {
        try writer.writeStart(to: &sink)
        try store.forEachRecord(of: id) { record in
            try writer.write(mapper.sourceRecord(from: record, typedRoles: typedRoles), to: &sink)
        }
        try writer.writeEnd(to: &sink)
    }
}
