import CatalogModel

/// Writes records as CSV (RFC 4180) that ``CSVRecordReader`` reads back to the same records.
///
/// ```swift
/// var layout = CSVRecordWriter.Layout()
/// for record in records { layout.add(record) }
/// var writer = CSVRecordWriter(layout: layout)
/// let csv = try writer.data(for: records)
/// // id,title,tags:json,weight:json
/// // 7,Gulyásleves,"[""leves"",""magyar""]",1.50
/// ```
///
/// - A header row names the ``columns``; each record is one row, its values in column order.
///   A field's column is its name, or `name@language` for a field with a
///   ``SourceField/language``. Fields whose column is not listed are not written.
/// - A cell is quoted (`"`, quotes doubled) when it holds the separator, a quote, CR or LF, and
///   when it is the empty string: `""` is an empty value, an unquoted empty cell a missing one.
/// - Columns in ``jsonColumns`` hold JSON values and get the header suffix `:json`: a list is a
///   JSON array (`["a","b"]`), a number its literal, `true`/`false`, `null`, a text a JSON string.
///   ``Layout`` puts every column that holds a list or a value that is not text there, so nothing
///   is lost; the reader decodes them back.
/// - Outside JSON columns a repeated name is written as one cell, its values joined with
///   ``multiValueSeparator`` (`"; "`): the lossy case, which ``Layout`` avoids.
/// - With a ``definition`` the first line is `#catalog-definition {…}`, which the reader skips and
///   an import into a new catalog uses for its mapping.
/// - Rows end with ``lineEnding`` (CR LF, as RFC 4180 says).
public struct CSVRecordWriter: RecordWriter {
    /// The column names, in order (without the `:json` suffix).
    public var columns: [String]
    /// Columns whose cells are JSON values.
    public var jsonColumns: Set<String>
    /// The cell separator: one ASCII character other than `"`, CR and LF.
    public var separator: Character
    /// Joins the values of a repeated name inside one cell of a text column.
    public var multiValueSeparator = "; "
    /// Ends every row, the header included.
    public var lineEnding = "\r\n"
    /// A definition to embed on the first line, or nil.
    public var definition: CatalogDefinition?

    private var separatorByte: UInt8 = Byte.comma
    private var columnIndex: [String: Int] = [:]

    /// The columns a set of records needs: every column in order of first appearance, and which
    /// of them must hold JSON (lists, repeated names, numbers, booleans, `null`).
    public struct Layout: Sendable, Equatable {
        private var order: ExportColumns
        /// The columns some record uses, in the source's order (``ExportColumns``).
        public var columns: [String] { order.columns }
        /// The columns that hold JSON values.
        public private(set) var jsonColumns: Set<String> = []

        /// An empty layout, or one whose columns follow `columns` (the source's order).
        public init(columns: [String] = []) {
            order = ExportColumns(sourceOrder: columns)
        }

        /// Takes the columns `record` needs into account.
        public mutating func add(_ record: SourceRecord) {
            var counts: [String: Int] = [:]
            for field in record.fields {
                let column = CSVRecordWriter.column(of: field)
                order.use(column)
                counts[column, default: 0] += 1
                if field.kind != .text || field.isListElement { jsonColumns.insert(column) }
            }
            for (column, count) in counts where count > 1 { jsonColumns.insert(column) }
        }
    }

    /// Creates a writer.
    ///
    /// - Parameters:
    ///   - columns: the column names, in order (see ``columns(of:)``).
    ///   - jsonColumns: the columns that hold JSON values.
    ///   - separator: the cell separator.
    ///   - definition: a catalog definition to embed on the first line.
    public init(
        columns: [String], jsonColumns: Set<String> = [], separator: Character = ",",
        definition: CatalogDefinition? = nil
    ) {
        self.columns = columns
        self.jsonColumns = jsonColumns
        self.separator = separator
        self.definition = definition
    }

    /// Creates a writer for a layout.
    public init(layout: Layout, separator: Character = ",", definition: CatalogDefinition? = nil) {
        self.init(
            columns: layout.columns, jsonColumns: layout.jsonColumns, separator: separator, definition: definition)
    }

    /// Every column of `records`, in order of first appearance.
    public static func columns(of records: some Sequence<SourceRecord>) -> [String] {
        var layout = Layout()
        for record in records { layout.add(record) }
        return layout.columns
    }

    /// The column a field is written in: its name, or `name@language`.
    static func column(of field: SourceField) -> String {
        field.language.map { field.name + "@" + $0 } ?? field.name
    }

    /// Writes the embedded definition and the header row.
    ///
    /// - Throws: `.invalidArgument` for a bad separator, no columns, or an empty or duplicate
    ///   column name.
    public mutating func writeStart(to sink: inout some ByteSink) throws(ImportError) {
        guard let byte = try CSVRecordReader.separatorByte(separator, source: "") else { return }
        separatorByte = byte
        guard !columns.isEmpty else { throw ImportError(.invalidArgument, "a CSV file needs at least one column") }
        columnIndex = [:]
        for (index, name) in columns.enumerated() {
            guard !name.isEmpty else { throw ImportError(.invalidArgument, "empty CSV column name") }
            guard columnIndex.updateValue(index, forKey: name) == nil else {
                throw ImportError(.invalidArgument, "duplicate CSV column name \"\(name)\"")
            }
        }
        var out: [UInt8] = []
        if let definition {
            out.append(contentsOf: "#\(EmbeddedDefinition.marker) \(EmbeddedDefinition.json(definition))".utf8)
            out.append(contentsOf: lineEnding.utf8)
        }
        appendRow(columns.map { jsonColumns.contains($0) ? $0 + CSVParser.jsonSuffix : $0 }, to: &out)
        try sink.write(out)
    }

    /// Writes one record as a row.
    public mutating func write(_ record: SourceRecord, to sink: inout some ByteSink) throws(ImportError) {
        var values = [[SourceField]](repeating: [], count: columns.count)
        for field in record.fields {
            guard let index = columnIndex[Self.column(of: field)] else { continue }
            values[index].append(field)
        }
        var cells = [String?](repeating: nil, count: columns.count)
        for (index, fields) in values.enumerated() where !fields.isEmpty {
            if jsonColumns.contains(columns[index]) {
                var out = JSONOutput(capacity: 64)
                out.value(of: fields)
                cells[index] = String(decoding: out.bytes, as: UTF8.self)
            } else {
                cells[index] = fields.map(\.value).joined(separator: multiValueSeparator)
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(128)
        appendRow(cells, to: &out)
        try sink.write(out)
    }

    /// Flushes the sink (CSV has no trailer).
    public mutating func writeEnd(to sink: inout some ByteSink) throws(ImportError) {
        try sink.flush()
    }

    /// One row; a nil cell is missing (nothing between the separators), an empty one `""`.
    private func appendRow(_ cells: [String?], to out: inout [UInt8]) {
        for (index, cell) in cells.enumerated() {
            if index > 0 { out.append(separatorByte) }
            guard let cell else { continue }
            let separator = separatorByte
            let needsQuotes =
                cell.isEmpty
                || cell.utf8.contains {
                    $0 == separator || $0 == Byte.quote || $0 == Byte.lineFeed || $0 == Byte.carriageReturn
                }
            if needsQuotes {
                out.append(Byte.quote)
                for b in cell.utf8 {
                    if b == Byte.quote { out.append(Byte.quote) }
                    out.append(b)
                }
                out.append(Byte.quote)
            } else {
                out.append(contentsOf: cell.utf8)
            }
        }
        out.append(contentsOf: lineEnding.utf8)
    }
}
