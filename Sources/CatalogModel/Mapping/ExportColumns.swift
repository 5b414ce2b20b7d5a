/// The columns of a table-shaped export (CSV, SQLite), in the source's order.
///
/// Columns are the source's field names in ``CatalogDefinition/fieldOrder``, kept only when some
/// record uses them; a column first seen while exporting goes right after the column it
/// translates (`name@de` after `name`), or else at the end, in order of first use.
///
/// ```swift
/// var columns = ExportColumns(sourceOrder: ["id", "name", "name_hu", "price"])
/// for name in ["id", "name", "price", "name@hu"] { columns.use(name) }
/// columns.columns   // ["id", "name", "name@hu", "price"]
/// ```
public struct ExportColumns: Sendable, Equatable {
    private var sourceOrder: [String] = []
    private var known: Set<String> = []
    private var used: Set<String> = []
    private var added: [String] = []

    /// Columns in `sourceOrder`, none used yet.
    public init(sourceOrder: [String]) {
        for name in sourceOrder where known.insert(name).inserted { self.sourceOrder.append(name) }
    }

    /// Marks `column` as used by some record.
    public mutating func use(_ column: String) {
        guard used.insert(column).inserted else { return }
        if !known.contains(column) { added.append(column) }
    }

    /// The used columns, in order.
    public var columns: [String] {
        var translations: [String: [String]] = [:]
        for column in added {
            guard let at = column.firstIndex(of: "@") else { continue }
            translations[String(column[..<at]), default: []].append(column)
        }
        var result: [String] = []
        var placed: Set<String> = []
        for name in sourceOrder {
            if used.contains(name), placed.insert(name).inserted { result.append(name) }
            for translation in translations[name] ?? [] where placed.insert(translation).inserted {
                result.append(translation)
            }
        }
        for column in added where placed.insert(column).inserted { result.append(column) }
        return result
    }
}
