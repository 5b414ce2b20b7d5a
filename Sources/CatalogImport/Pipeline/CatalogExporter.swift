import CatalogModel

/// Writes a catalog's records as XML, JSON or CSV the way `catalog export` does: under the
/// source's own field names and in its order (``RecordMapper/sourceRecord(from:typedRoles:)``),
/// with the definition embedded so an import into a new catalog needs no mapping.
///
/// ```swift
/// var sink = DataSink()
/// try CatalogExporter.write(.csv, definition: definition, records: { body in
///     try store.forEachRecord(of: "shop", body)
/// }, to: &sink)
/// ```
///
/// `records` calls its argument with every record, in order; CSV and XML call it twice (the first
/// pass finds the columns, and the field types XML cannot carry).
public enum CatalogExporter {
    /// Every record of a catalog, in order: calls its argument once per record.
    public typealias Records = (_ body: (Record) throws -> Void) throws -> Void

    /// Writes the whole document.
    ///
    /// - Parameters:
    ///   - format: `.xml`, `.json` or `.csv` (SQLite tables are written by the SQLite target).
    ///   - definition: the catalog's definition.
    ///   - embedDefinition: embed the definition (``EmbeddedDefinition``) in XML and JSON; a CSV
    ///     document never holds it (its definition file is written apart, with
    ///     ``EmbeddedDefinition/sidecarData(_:)``).
    ///   - records: the records.
    ///   - sink: where the document goes.
    /// - Throws: ``ImportError`` from the writers or the sink, or what `records` throws.
    public static func write(
        _ format: ImportFormat, definition: CatalogDefinition, embedDefinition: Bool = true, records: Records,
        to sink: inout some ByteSink
    ) throws {
        let mapper = RecordMapper(definition: definition)
        let embedded = embedDefinition ? definition : nil
        switch format {
        case .xml:
            var writer = XMLRecordWriter(
                rootElement: definition.rootElement ?? "catalog", recordElement: definition.recordElement ?? "record",
                recordAttributes: Set(definition.recordAttributes), rootAttributes: definition.rootAttributes,
                definition: try embedded.map { try typed($0, records: records) })
            try write(with: &writer, mapper: mapper, typedRoles: false, records: records, to: &sink)
        case .json:
            var writer = JSONRecordWriter(definition: embedded)
            try write(with: &writer, mapper: mapper, typedRoles: true, records: records, to: &sink)
        case .csv:
            var layout = CSVRecordWriter.Layout(columns: mapper.fieldOrder)
            try records { layout.add(mapper.sourceRecord(from: $0)) }
            // CSV readers trip on anything but the table: the definition goes beside the file
            // (``EmbeddedDefinition/sidecar(of:)``), which the caller writes.
            var writer = CSVRecordWriter(layout: layout)
            try write(with: &writer, mapper: mapper, typedRoles: false, records: records, to: &sink)
        case .sqlite:
            throw ImportError(.invalidArgument, "SQLite tables are written with SQLiteTableWriter")
        }
    }

    /// The definition an XML export embeds: XML keeps no types, so fields whose every value is a
    /// number (or a boolean, or null) are typed, and read back as such. What XML cannot say at all
    /// is that one value is a list of one, or that a list is empty.
    static func typed(_ definition: CatalogDefinition, records: Records) throws -> CatalogDefinition {
        var kinds: [String: Set<SourceField.Kind>] = [:]
        try records { record in
            for (name, value) in record.fields {
                for field in SourceField.fields(name: name, value: value) {
                    kinds[name, default: []].insert(field.kind)
                }
            }
        }
        var result = definition
        for (name, seen) in kinds where result.fieldTypes[name] == nil {
            // Typed fields read an empty element as null, so fields holding only nulls are typed too.
            let values = seen.subtracting([.null, .emptyList])
            if values == [.number] || (values.isEmpty && seen.contains(.null)) { result.fieldTypes[name] = .number }
            if values == [.bool] { result.fieldTypes[name] = .bool }
        }
        return result
    }

    private static func write(
        with writer: inout some RecordWriter, mapper: RecordMapper, typedRoles: Bool, records: Records,
        to sink: inout some ByteSink
    ) throws {
        try writer.writeStart(to: &sink)
        try records { record in try writer.write(mapper.sourceRecord(from: record, typedRoles: typedRoles), to: &sink) }
        try writer.writeEnd(to: &sink)
    }
}
