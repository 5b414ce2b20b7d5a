import CatalogSupport
import Foundation

/// A filter on any of a catalog's fields, as `filter=` and `catalog search --filter` write it:
/// conditions on fields joined with `AND`, `OR`, `NOT` and parentheses.
///
/// ```swift
/// // Origin = "Japan" AND (Horsepower 100..150 OR Cylinders IN [3, 5])
/// let expression = FilterExpression.and([
///     .condition(FilterCondition(field: "Origin", test: .compare(.equal, FilterValue("Japan", quoted: true)))),
///     .or([
///         .condition(FilterCondition(field: "Horsepower", test: .range(FilterValue("100"), FilterValue("150")))),
///         .condition(FilterCondition(field: "Cylinders", test: .oneOf([FilterValue("3"), FilterValue("5")]))),
///     ]),
/// ])
/// ```
///
/// What a value means depends on the field's values, not on how the value is written: `=`
/// finds a text value equal to it (case and accents aside), a number equal to it when it reads
/// as a number (``FieldValueOrder/number(_:)``) and a date equal to it when it reads as a date
/// (``FieldValueOrder/date(_:)``); `<`, `<=`, `>`, `>=` and ranges compare numbers and dates.
public indirect enum FilterExpression: Sendable, Hashable {
    /// One condition on one field.
    case condition(FilterCondition)
    /// Every expression holds.
    case and([FilterExpression])
    /// At least one expression holds.
    case or([FilterExpression])
    /// The expression does not hold.
    case not(FilterExpression)

    /// Every one of `parts`: nil for none, the part itself for one.
    public static func all(_ parts: [FilterExpression]) -> FilterExpression? {
        parts.count <= 1 ? parts.first : .and(parts)
    }

    /// Any of `parts`: nil for none, the part itself for one.
    public static func any(_ parts: [FilterExpression]) -> FilterExpression? {
        parts.count <= 1 ? parts.first : .or(parts)
    }

    /// The conditions of the expression, in the order they are written.
    public var conditions: [FilterCondition] {
        switch self {
        case .condition(let condition): [condition]
        case .and(let list), .or(let list): list.flatMap(\.conditions)
        case .not(let inner): inner.conditions
        }
    }

    /// The fields the expression names, each once, in the order they first appear.
    public var fields: [String] {
        var seen: Set<String> = []
        return conditions.map(\.field).filter { seen.insert($0).inserted }
    }
}

/// One condition: a field and the test its values must pass.
public struct FilterCondition: Sendable, Hashable {
    /// The field's name as the catalog's records have it (`Origin`), or a built-in one
    /// (`category`, `country`, `price`).
    public var field: String
    /// What a value of the field must be.
    public var test: FilterTest
    /// Where the condition starts in the filter's text (1-based, in characters), for error
    /// messages about it (a field that cannot be filtered); 0 when it was not parsed from text.
    /// Not part of what the condition is: equal conditions may be written in different places.
    public var column: Int

    /// Creates a condition.
    public init(field: String, test: FilterTest, column: Int = 0) {
        self.field = field
        self.test = test
        self.column = column
    }

    /// Conditions are the same when they test the same field the same way, wherever they were written.
    public static func == (a: FilterCondition, b: FilterCondition) -> Bool {
        a.field == b.field && a.test == b.test
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(field)
        hasher.combine(test)
    }
}

/// What a field's values must be for a record to pass a condition. A record passes when one of
/// the field's values does (a list of values, as records carry them), except ``notEqual`` and
/// ``isEmpty``, which hold for the field as a whole.
public enum FilterTest: Sendable, Hashable {
    /// `FIELD = v`, `FIELD != v`, `FIELD < v`, … (see ``FilterOperator``).
    case compare(FilterOperator, FilterValue)
    /// `FIELD a..b`, `FIELD a..`, `FIELD ..b`: both ends included; nil for an open end.
    case range(FilterValue?, FilterValue?)
    /// `FIELD IN [a, b, …]`: equal to one of the values.
    case oneOf([FilterValue])
    /// `FIELD EXISTS`: the record has the field, whatever its value.
    case exists
    /// `FIELD IS EMPTY`: the record has the field with no value in it (`""`, `null`, `[]`).
    case isEmpty

    /// The values the test names: a comparison's, a list's, a range's ends; none for presence.
    public var values: [FilterValue] {
        switch self {
        case .compare(_, let value): [value]
        case .oneOf(let list): list
        case .range(let lower, let upper): [lower, upper].compactMap { $0 }
        case .exists, .isEmpty: []
        }
    }
}

/// A comparison of a condition.
public enum FilterOperator: String, Sendable, Hashable, CaseIterable {
    case equal = "="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
}

/// A value in a filter, as written: a bare word or number (`Japan`, `130`, `2024-05-01`) or a
/// quoted text (`"New York"`). Whether it is read as a number or a date is the field's matter
/// (``FieldValueOrder``); a quoted value is always a text.
public struct FilterValue: Sendable, Hashable, CustomStringConvertible {
    /// The value's text, unquoted.
    public var text: String
    /// Whether it was quoted: then only text values equal to it match it.
    public var quoted: Bool

    /// Creates a value.
    public init(_ text: String, quoted: Bool = false) {
        self.text = text
        self.quoted = quoted
    }

    /// The value as a number (nil when quoted or not a number).
    public var number: Double? { quoted ? nil : FieldValueOrder.number(text) }

    /// The value as a date, in seconds since 1970 UTC (nil when quoted or not a date).
    public var date: Double? { quoted ? nil : FieldValueOrder.date(text) }

    /// The value as a filter writes it: bare when it reads back the same, quoted otherwise.
    public var description: String {
        !quoted && FilterLexer.readsBare(text) ? text : "\"" + text.replacingScalars(of: "\"", with: "\"\"") + "\""
    }
}
