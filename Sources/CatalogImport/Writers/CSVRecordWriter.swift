import CatalogModel

/// Writes records as CSV (RFC 4180) that ``CSVRecordReader`` reads back.
///
/// ```swift
/// var writer = CSVRecordWriter(columns: CSVRecordWriter.columns(of: records))
/// let csv = try writer.data(for: records)
/// // id,title,categories
/// // 7,Gulyásleves,Levesek; Magyar
/// ```
///
/// - A header row names the ``columns``; each record is one row, its values in column order.
///   Fields whose name is not a column are not written.
/// - A cell is quoted (`"`, quotes doubled) when it holds the separator, a quote, CR or LF.
/// - A repeated name is written as one cell, its values joined with ``multiValueSeparator``
///   (`"; "`). Reading gives that joined text back as one value; splitting it again (for example
///   with a catalog's category separator) restores the values unless a value itself contains
///   the separator — that is the lossy case.
/// - An empty value is an empty cell, which the reader omits: empty fields do not come back.
/// - Rows end with ``lineEnding`` (CR LF, as RFC 4180 says).
public struct CSVRecordWriter: RecordWriter {
    /// The column names, in order.
    public var columns: [String]
    /// The cell separator: one ASCII character other than `"`, CR and LF.
    public var separator: Character
    /// Joins the values of a repeated name inside one cell.
    public var multiValueSeparator = "; "
    /// Ends every row, the header included.
    public var lineEnding = "\r\n"

    private var separatorByte: UInt8 = Byte.comma
    private var columnIndex: [String: Int] = [:]

    /// Creates a writer.
    ///
    /// - Parameters:
    ///   - columns: the column names, in order (see ``columns(of:)``).
    ///   - separator: the cell separator.
    public init(columns: [String], separator: Character = ",") {
        self.columns = columns
        self.separator = separator
    }

    /// Every field name of `records`, in order of first appearance: columns that lose nothing.
    public static func columns(of records: some Sequence<SourceRecord>) -> [String] {
        var seen: Set<String> = []
        var result: [String] = []
        for record in records {
            for field in record.fields where seen.insert(field.name).inserted { result.append(field.name) }
        }
        return result
    }

    /// Writes the header row.
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
        appendRow(columns, to: &out)
        try sink.write(out)
    }

    /// Writes one record as a row.
    public mutating func write(_ record: SourceRecord, to sink: inout some ByteSink) throws(ImportError) {
        var cells = [String](repeating: "", count: columns.count)
        var filled = [Bool](repeating: false, count: columns.count)
        for field in record.fields {
            guard let index = columnIndex[field.name] else { continue }
            if filled[index] {
                cells[index] += multiValueSeparator + field.value
            } else {
                cells[index] = field.value
                filled[index] = true
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

    private func appendRow(_ cells: [String], to out: inout [UInt8]) {
        for (index, cell) in cells.enumerated() {
            if index > 0 { out.append(separatorByte) }
            let separator = separatorByte
            let needsQuotes = cell.utf8.contains {
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
