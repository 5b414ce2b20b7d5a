import CatalogModel
import CatalogStorage
import CatalogSupport
import Foundation
import SQLiteSupport

/// Writes records as one plain table of a new SQLite file, for `catalog export --format sqlite`:
/// a column per field, in the source's order, that `sqlite3` and Datasette browse directly and
/// ``SQLiteTableSource`` reads back to the same records.
///
/// ```swift
/// var layout = SQLiteTableWriter.Layout(columns: mapper.fieldOrder)
/// for record in sourceRecords { layout.add(record) }
/// let writer = try SQLiteTableWriter(path: "shop.sqlite", table: "shop", layout: layout, definition: definition)
/// for record in sourceRecords { try writer.write(record) }
/// try writer.finish()
/// ```
///
/// Column types come from the values (``Layout``): `TEXT` when every value is a single text,
/// `INTEGER` or `REAL` when every value is a number SQLite stores exactly as written, and
/// `JSON TEXT` otherwise: lists, booleans, `null`, numbers such as `1.50`, or columns that mix types, each
/// cell then a JSON value (`["a","b"]`, `true`, `1.50`, `"text"`). A missing value is NULL, an
/// empty text `''`. The catalog's definition goes into a one-row table `catalog_definition`, so
/// importing the file into a new catalog needs no mapping.
///
/// The file is written in one transaction; ``finish()`` commits and closes it. A writer that is
/// not finished removes nothing itself: the caller writes to a temporary path and renames it.
public final class SQLiteTableWriter {
    /// The declared type of columns holding JSON values. "TEXT" in it gives the column text
    /// affinity: a plain `JSON` would have numeric affinity, and SQLite would turn the text
    /// `1.50` into the real 1.5.
    public static let jsonType = "JSON TEXT"

    /// Whether a declared type marks a column of JSON values (`JSON`, `JSON TEXT`, any case).
    public static func isJSON(declaredType: String?) -> Bool {
        guard let type = declaredType?.uppercased() else { return false }
        return type == "JSON" || type.hasPrefix("JSON ")
    }

    /// A column's declared type.
    public enum ColumnType: String, Sendable {
        case text = "TEXT"
        case integer = "INTEGER"
        case real = "REAL"
        case json = "JSON TEXT"
    }

    /// The columns a set of records needs, with their types.
    public struct Layout: Sendable {
        private var order: ExportColumns
        private var types: [String: ColumnType] = [:]

        /// A layout whose columns follow `columns` (the source's order); columns no record uses
        /// are dropped.
        public init(columns: [String] = []) {
            order = ExportColumns(sourceOrder: columns)
        }

        /// The type of `column`.
        public func type(of column: String) -> ColumnType { types[column] ?? .text }

        /// The column names (a field's name, or `name@language`) some record uses, in order.
        public var usedColumns: [String] { order.columns }

        /// Takes `record` into account.
        public mutating func add(_ record: SourceRecord) {
            var counts: [String: Int] = [:]
            for field in record.fields {
                let column = SQLiteTableWriter.column(of: field)
                order.use(column)
                counts[column, default: 0] += 1
                let type = field.isListElement ? .json : Self.type(of: field)
                types[column] = Self.merge(types[column], type)
            }
            for (column, count) in counts where count > 1 { types[column] = .json }
        }

        private static func type(of field: SourceField) -> ColumnType {
            switch field.kind {
            case .text: return .text
            case .number:
                if let integer = Int64(field.value), String(integer) == field.value { return .integer }
                if let real = Double(field.value), "\(real)" == field.value { return .real }
                return .json
            case .bool, .null, .emptyList: return .json
            }
        }

        /// A column keeps its type while every value has it; mixed values need JSON.
        private static func merge(_ old: ColumnType?, _ new: ColumnType) -> ColumnType {
            guard let old, old != new else { return new }
            return .json
        }
    }

    private let connection: Connection
    private let insert: Statement
    private let columns: [String]
    private let types: [ColumnType]
    private let index: [String: Int]
    private var finished = false

    /// Creates `path` (it must not exist) with the table and the definition.
    ///
    /// - Throws: ``StorageError`` when the file cannot be created or written.
    public init(path: String, table: String, layout: Layout, definition: CatalogDefinition?) throws {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw StorageError(.invalidArgument, "\(path) already exists")
        }
        let columns = layout.usedColumns.isEmpty ? ["id"] : layout.usedColumns
        let types = columns.map { layout.type(of: $0) }
        self.columns = columns
        self.types = types
        index = Dictionary(columns.enumerated().map { ($0.element, $0.offset) }) { first, _ in first }
        connection = try Connection(path: path, mode: .readWriteCreate)
        do {
            let definitions = columns.enumerated().map { "\(Self.quoted($0.element)) \(types[$0.offset].rawValue)" }
            try connection.execute("BEGIN; CREATE TABLE \(Self.quoted(table)) (\(definitions.joined(separator: ", ")))")
            if let definition {
                let portable = definition.published
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                let json = String(decoding: try encoder.encode(portable), as: UTF8.self)
                try connection.execute("CREATE TABLE \(SQLiteTableSource.definitionTable) (definition TEXT)")
                try connection.prepare("INSERT INTO \(SQLiteTableSource.definitionTable) VALUES (?)").bind(json).run()
            }
            let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
            insert = try connection.prepare("INSERT INTO \(Self.quoted(table)) VALUES (\(placeholders))")
        } catch {
            connection.close()
            finished = true
            throw error
        }
    }

    deinit {
        if !finished { connection.close() }
    }

    /// Writes one record as a row.
    ///
    /// - Throws: ``StorageError`` when the row cannot be written.
    public func write(_ record: SourceRecord) throws {
        var values = [[SourceField]](repeating: [], count: columns.count)
        for field in record.fields {
            guard let position = index[Self.column(of: field)] else { continue }
            values[position].append(field)
        }
        insert.reset()
        for (position, fields) in values.enumerated() {
            try insert.bind(binding: Self.binding(fields, type: types[position]), at: Int32(position + 1))
        }
        try insert.run()
    }

    /// Commits the file and closes it.
    ///
    /// - Throws: ``StorageError`` when the commit fails.
    public func finish() throws {
        guard !finished else { return }
        finished = true
        defer { connection.close() }
        insert.finish()
        try connection.execute("COMMIT")
    }

    /// The cell for a column's fields.
    private static func binding(_ fields: [SourceField], type: ColumnType) -> SQLBinding {
        guard let first = fields.first else { return .null }
        switch type {
        case .text: return .text(first.value)
        case .integer: return Int64(first.value).map(SQLBinding.integer) ?? .text(first.value)
        case .real: return Double(first.value).map(SQLBinding.real) ?? .text(first.value)
        case .json:
            var out = JSONOutput(capacity: 64)
            out.value(of: fields)
            return .text(String(decoding: out.bytes, as: UTF8.self))
        }
    }

    /// The column a field is written in: its name, or `name@language`.
    static func column(of field: SourceField) -> String {
        field.language.map { field.name + "@" + $0 } ?? field.name
    }

    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingScalars(of: "\"", with: "\"\"") + "\""
    }
}

extension SQLiteTableWriter {
    /// Writes every record of a catalog to a new SQLite file at `path`, as `catalog export
    /// --format sqlite` does: one table named after the catalog, the source's field names and
    /// order, roles typed, and (with `embedDefinition`) the definition.
    ///
    /// - Parameter records: calls its argument with every record, in order (called twice).
    public static func export(
        definition: CatalogDefinition, embedDefinition: Bool = true,
        records: (_ body: (Record) throws -> Void) throws -> Void, to path: String
    ) throws {
        let mapper = RecordMapper(definition: definition)
        var layout = Layout(columns: mapper.fieldOrder)
        try records { layout.add(mapper.sourceRecord(from: $0, typedRoles: true)) }
        let writer = try SQLiteTableWriter(
            path: path, table: definition.id, layout: layout, definition: embedDefinition ? definition : nil)
        try records { try writer.write(mapper.sourceRecord(from: $0, typedRoles: true)) }
        try writer.finish()
    }
}
