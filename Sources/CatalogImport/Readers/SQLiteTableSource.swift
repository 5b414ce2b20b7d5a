import CSQLite
import CatalogModel
import CatalogStorage
import CatalogSupport
import Foundation
import SQLiteSupport

/// Reads the rows of a table in another SQLite file as source records: each column is a field.
///
/// Values keep their storage class (``SQLiteValueConversion``): integers and reals are numbers,
/// text is text, and the cells of a column declared `JSON` or `JSON TEXT` (as `catalog export --format sqlite`
/// writes lists, booleans, `null` and exact number literals) are JSON values. NULLs are left out
/// (missing), blobs are skipped (they are not text). The row number stands in for the line in
/// error messages (`products.sqlite:table products:row 12`).
///
/// ```swift
/// let source = try SQLiteTableSource(path: "shop.sqlite", table: "products")
/// ```
public struct SQLiteTableSource: RecordSource {
    /// The file read.
    public let path: String
    /// The table read; nil picks the only table, or fails listing them. A name matches ignoring
    /// ASCII case (SQLite keeps table names unique that way, so the match is never ambiguous).
    public let table: String?
    /// The table ``SQLiteTableWriter`` keeps the catalog's definition in; not a table of records.
    public static let definitionTable = "catalog_definition"

    /// Creates a source; nothing is read until ``read(cancellation:fieldNames:_:)``.
    public init(path: String, table: String?) {
        self.path = path
        self.table = table
    }

    /// Calls `fieldNames` with the table's columns, then `body` with each row.
    ///
    /// SQLite asks `cancellation` every 10,000 steps of its virtual machine, so even a view that
    /// never ends (a recursive one) stops when asked to.
    ///
    /// - Returns: the rows read and the columns.
    /// - Throws: an ``ImportError`` (`.io`, `.malformed`, `.empty`, `.notFound`, `.invalidArgument`),
    ///   ``ReadCancellation/Cancelled`` between rows, or what `body` throws.
    public func read(
        cancellation: ReadCancellation, fieldNames: ([String]) -> Void, _ body: (SourceRecord) throws -> Void
    ) throws -> ReadSummary {
        let connection = try open()
        defer { connection.close() }
        connection.setProgressHandler(every: 10_000, cancellation.isCancelled)
        do {
            let name = try resolveTable(connection)
            let statement = try connection.prepare(
                "SELECT * FROM \"\(name.replacingScalars(of: "\"", with: "\"\""))\"")
            let names = (0..<statement.columnCount).map { statement.columnName($0) }
            let json = (0..<statement.columnCount).map {
                SQLiteTableWriter.isJSON(declaredType: statement.columnDeclaredType($0))
            }
            fieldNames(names)
            var row = 0
            while try statement.step() {
                if row % ReadingPass.cancellationInterval == 0 { try cancellation.check() }
                row += 1
                let location = SourceLocation(source: "\(path):table \(name)", line: row)
                var record = SourceRecord(location: location)
                for (index, column) in names.enumerated() {
                    record.fields.append(
                        contentsOf: SQLiteValueConversion.fields(
                            name: column, value: statement.value(Int32(index)), declaredJSON: json[index],
                            location: location))
                }
                try body(record)
            }
            if row == 0 {
                throw ImportError(.empty, "table \"\(name)\" has no rows", at: SourceLocation(source: path))
            }
            return ReadSummary(records: row, fieldNames: names)
        } catch let error as StorageError {
            throw ImportError(.malformed, "cannot read SQLite file: \(error.message)", at: SourceLocation(source: path))
        }
    }

    /// The definition a `catalog export --format sqlite` file carries, if any.
    public static func embeddedDefinition(path: String) -> CatalogDefinition? {
        guard let connection = try? Connection(path: path, mode: .readOnly) else { return nil }
        defer { connection.close() }
        guard let statement = try? connection.prepare("SELECT definition FROM \(definitionTable) LIMIT 1"),
            (try? statement.step()) == true
        else { return nil }
        return EmbeddedDefinition.decode(statement.text(0))
    }

    private func open() throws -> Connection {
        do {
            return try Connection(path: path, mode: .readOnly)
        } catch {
            throw ImportError(.io, "cannot open SQLite file: \(error.message)", at: SourceLocation(source: path))
        }
    }

    /// The table to read: the one named (exactly, else ignoring ASCII case), or the only one.
    private func resolveTable(_ connection: Connection) throws -> String {
        let tables = try listTables(connection)
        let listed = tables.isEmpty ? "none" : tables.joined(separator: ", ")
        guard let table else {
            let records = tables.filter { $0 != Self.definitionTable }
            guard records.count == 1 else {
                throw ImportError(
                    .invalidArgument, "name the table with --table; tables: \(listed)",
                    at: SourceLocation(source: path))
            }
            return records[0]
        }
        if tables.contains(table) { return table }
        if let folded = tables.first(where: { Self.asciiLowercased($0) == Self.asciiLowercased(table) }) {
            return folded
        }
        throw ImportError(.notFound, "no table \"\(table)\"; tables: \(listed)", at: SourceLocation(source: path))
    }

    private static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    private func listTables(_ connection: Connection) throws -> [String] {
        let statement = try connection.prepare(
            "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name")
        var names: [String] = []
        while try statement.step() { names.append(statement.text(0)) }
        return names
    }
}
