import CSQLite
import CatalogModel
import CatalogStorage
import Foundation
import SQLiteSupport

/// Reads the rows of a table in another SQLite file as source records: each column is a field.
///
/// NULLs are left out, numbers become their text, blobs are skipped (they are not text). The row
/// number stands in for the line in error messages (`products.sqlite:table products:row 12`).
///
/// ```swift
/// let source = try SQLiteTableSource(path: "shop.sqlite", table: "products")
/// ```
public struct SQLiteTableSource: RecordSource {
    /// The file read.
    public let path: String
    /// The table read; nil picks the only table, or fails listing them.
    public let table: String?
    /// Asked now and then while rows are read; true stops the read with an error.
    public var isCancelled: (@Sendable () -> Bool)?

    /// Creates a source; nothing is read until ``forEachRecord(_:)``.
    public init(path: String, table: String?) {
        self.path = path
        self.table = table
    }

    public func forEachRecord(_ body: (SourceRecord) throws -> Void) throws {
        let connection: Connection
        do {
            connection = try Connection(path: path, mode: .readOnly)
        } catch {
            throw ImportError(.io, "cannot open SQLite file: \(error.message)", at: SourceLocation(source: path))
        }
        defer { connection.close() }
        // A table can be a view that never ends (a recursive one): it stops when asked to.
        if let isCancelled { connection.setProgressHandler(every: 10_000, isCancelled) }
        do {
            let tables = try listTables(connection)
            let name: String
            if let table {
                guard tables.contains(table) else {
                    throw ImportError(
                        .notFound,
                        "no table \"\(table)\"; tables: \(tables.isEmpty ? "none" : tables.joined(separator: ", "))",
                        at: SourceLocation(source: path))
                }
                name = table
            } else if tables.count == 1 {
                name = tables[0]
            } else {
                throw ImportError(
                    .invalidArgument,
                    "name the table with --table; tables: \(tables.isEmpty ? "none" : tables.joined(separator: ", "))",
                    at: SourceLocation(source: path))
            }
            let statement = try connection.prepare(
                "SELECT * FROM \"\(name.replacingOccurrences(of: "\"", with: "\"\""))\"")
            let names = (0..<statement.columnCount).map { statement.columnName($0) }
            var row = 0
            var sawRecord = false
            while try statement.step() {
                row += 1
                let location = SourceLocation(source: "\(path):table \(name)", line: row)
                var record = SourceRecord(location: location)
                for (index, column) in names.enumerated() {
                    let i = Int32(index)
                    switch statement.columnType(i) {
                    case SQLITE_NULL, SQLITE_BLOB: continue
                    default:
                        record.fields.append(SourceField(name: column, value: statement.text(i), location: location))
                    }
                }
                sawRecord = true
                try body(record)
            }
            if !sawRecord {
                throw ImportError(.empty, "table \"\(name)\" has no rows", at: SourceLocation(source: path))
            }
        } catch let error as StorageError {
            throw ImportError(.malformed, "cannot read SQLite file: \(error.message)", at: SourceLocation(source: path))
        }
    }

    private func listTables(_ connection: Connection) throws -> [String] {
        let statement = try connection.prepare(
            "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name")
        var names: [String] = []
        while try statement.step() { names.append(statement.text(0)) }
        return names
    }
}
