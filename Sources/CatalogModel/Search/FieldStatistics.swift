/// What a catalog's index knows of one of its records' own fields: how many records have it,
/// its distinct values, how many are numbers or dates and their bounds. The one place that
/// decides, from these, which fields are filterable and facets by default (``isFilterableByDefault``).
///
/// ```swift
/// var origin = FieldStatistics(records: 400)
/// origin.valueCounts = ["usa": 250, "japan": 80, "europe": 70]
/// origin.distinctValues = 3
/// origin.kind                   // .text
/// origin.isFilterableByDefault  // true: 3 values cover every record
/// ```
public struct FieldStatistics: Sendable, Equatable, Hashable {
    /// What a field's values mostly are.
    public enum Kind: String, Codable, Sendable, Hashable {
        case text, number, date
    }

    /// Records with the field (``FieldValueOrder``'s terms count every record once).
    public var records: Int
    /// Records whose field is empty (`""`, `null`, `[]`).
    public var emptyRecords: Int
    /// Records by folded value (case and accents aside), for the most common values only
    /// (at most ``trackedValues``).
    public var valueCounts: [String: Int]
    /// Distinct folded values (an upper bound once the counts of several index segments are added).
    public var distinctValues: Int
    /// Records with a number value, and the smallest and largest number.
    public var numberRecords: Int
    public var numbers: ClosedRange<Double>?
    /// Records with a date value, and the earliest and latest (seconds since 1970).
    public var dateRecords: Int
    public var dates: ClosedRange<Double>?

    /// The most values whose counts are kept.
    public static let trackedValues = 1000
    /// A text field is filterable by default when at most this many of its values…
    public static let fewValues = 200
    /// …are the values of at least this share of its records.
    public static let fewValuesShare = 0.5

    /// Creates statistics.
    public init(
        records: Int, emptyRecords: Int = 0, valueCounts: [String: Int] = [:], distinctValues: Int = 0,
        numberRecords: Int = 0, numbers: ClosedRange<Double>? = nil, dateRecords: Int = 0,
        dates: ClosedRange<Double>? = nil
    ) {
        self.records = records
        self.emptyRecords = emptyRecords
        self.valueCounts = valueCounts
        self.distinctValues = distinctValues
        self.numberRecords = numberRecords
        self.numbers = numbers
        self.dateRecords = dateRecords
        self.dates = dates
    }

    /// Records with a value in the field.
    public var valueRecords: Int { max(0, records - emptyRecords) }

    /// A number field when at least half of the records with a value have a number, a date field
    /// when at least half have a date, a text field otherwise.
    public var kind: Kind {
        let half = max(1, (valueRecords + 1) / 2)
        if numberRecords >= half { return .number }
        if dateRecords >= half { return .date }
        return .text
    }

    /// The default rule (issue 22): every number and date field is filterable and a facet, and so
    /// is a text field whose ``fewValues`` most common values are the values of at least
    /// ``fewValuesShare`` of its records with a value, as long as values repeat (a field of
    /// names or ids, one value per record, is not). Texts longer than
    /// ``FieldValueOrder/maxValueBytes`` have no values here, so a description never is.
    public var isFilterableByDefault: Bool {
        if kind != .text { return true }
        guard valueRecords > 0, distinctValues > 0, distinctValues < valueRecords else { return false }
        let covered = valueCounts.values.sorted(by: >).prefix(Self.fewValues).reduce(0, +)
        return Double(covered) >= Self.fewValuesShare * Double(valueRecords)
    }

    /// These statistics and those of another segment of the same catalog's index.
    public func merged(with other: FieldStatistics) -> FieldStatistics {
        var merged = self
        merged.records += other.records
        merged.emptyRecords += other.emptyRecords
        let complete = valueCounts.count == distinctValues && other.valueCounts.count == other.distinctValues
        merged.valueCounts.merge(other.valueCounts, uniquingKeysWith: +)
        merged.distinctValues = complete ? merged.valueCounts.count : distinctValues + other.distinctValues
        merged.valueCounts = Self.mostCommon(merged.valueCounts)
        merged.numberRecords += other.numberRecords
        merged.numbers = Self.union(numbers, other.numbers)
        merged.dateRecords += other.dateRecords
        merged.dates = Self.union(dates, other.dates)
        return merged
    }

    /// The ``trackedValues`` most common of `counts` (ties by value).
    public static func mostCommon(_ counts: [String: Int]) -> [String: Int] {
        guard counts.count > trackedValues else { return counts }
        let kept = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(trackedValues)
        return Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
    }

    private static func union(_ a: ClosedRange<Double>?, _ b: ClosedRange<Double>?) -> ClosedRange<Double>? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a.lowerBound, b.lowerBound)...max(a.upperBound, b.upperBound)
    }
}
