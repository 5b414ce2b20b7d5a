import CatalogModel
import SQLiteSupport

/// How one SQLite cell becomes source fields, for ``SQLiteTableSource``.
///
/// - an integer is a number (its decimal literal), a real a number (the shortest literal that
///   reads back as the same `Double`; infinities and NaN, which JSON has no literal for, become
///   text);
/// - text is text, except in a column declared `JSON` (or `JSON TEXT`), where it is a JSON value: a list gives one
///   field per element (``SourceField/isListElement``), `[]` one empty-list field, `null`, `true`,
///   numbers (their literal kept exactly) and strings their own kinds. Text that is not JSON (or is
///   a JSON object) stays text;
/// - NULL and blobs give no field.
public enum SQLiteValueConversion {
    /// The fields for the cell `value` of column `name`.
    public static func fields(name: String, value: SQLBinding, declaredJSON: Bool, location: SourceLocation)
        -> [SourceField]
    {
        switch value {
        case .null, .blob:
            return []
        case .integer(let integer):
            return [SourceField(name: name, value: String(integer), kind: .number, location: location)]
        case .real(let real):
            let literal = real.isFinite ? "\(real)" : ""
            guard JSONNumber.isValid(literal) else {
                return [SourceField(name: name, value: "\(real)", location: location)]
            }
            return [SourceField(name: name, value: literal, kind: .number, location: location)]
        case .text(let text):
            if declaredJSON, let decoded = try? FieldValue(json: text) {
                return SourceField.fields(name: name, value: decoded, location: location)
            }
            return [SourceField(name: name, value: text, location: location)]
        }
    }
}
