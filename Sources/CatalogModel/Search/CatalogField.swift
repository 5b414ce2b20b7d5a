import Foundation

/// One of a catalog's own fields as its settings show it (`fields` of
/// `GET /api/v1/catalogs/{id}/settings`): its kind, whether it is filterable and a facet (by the
/// settings' lists, or by default from the data: ``FieldStatistics/isFilterableByDefault``), and
/// for numbers and dates the bounds of its values, so that a filter sheet can offer a range.
///
/// ```json
/// {"name": "Horsepower", "kind": "number", "records": 406, "filterable": true, "facet": true,
///  "min": 46, "max": 230}
/// ```
public struct CatalogField: Sendable, Equatable, Hashable, Encodable {
    /// The field's name, as records have it.
    public var name: String
    /// What its values mostly are.
    public var kind: FieldStatistics.Kind
    /// Records with the field.
    public var records: Int
    /// Whether `filter=` may name it.
    public var filterable: Bool
    /// Whether it is one of the facets shown by default.
    public var facet: Bool
    /// A number or date field's smallest and largest value (seconds since 1970 for dates).
    public var min: Double?
    public var max: Double?

    /// Creates the description.
    public init(
        name: String, kind: FieldStatistics.Kind, records: Int, filterable: Bool, facet: Bool, min: Double? = nil,
        max: Double? = nil
    ) {
        self.name = name
        self.kind = kind
        self.records = records
        self.filterable = filterable
        self.facet = facet
        self.min = min
        self.max = max
    }

    /// The fields of a catalog whose records' fields have `statistics`, under `settings`: every
    /// field by name, filterable and facet by the settings' lists when they have them, by the
    /// data's default otherwise.
    public static func list(_ statistics: [String: FieldStatistics], settings: SearchSettings) -> [CatalogField] {
        statistics.keys.sorted().map { name in
            let field = statistics[name]!
            let kind = field.kind
            let bounds = kind == .number ? field.numbers : kind == .date ? field.dates : nil
            let byDefault = field.isFilterableByDefault
            return CatalogField(
                name: name, kind: kind, records: field.records,
                filterable: settings.filterableFields.map { $0.contains(name) } ?? byDefault,
                facet: settings.facetFields.map { $0.contains(name) } ?? byDefault, min: bounds?.lowerBound,
                max: bounds?.upperBound)
        }
    }

    enum CodingKeys: String, CodingKey {
        case name, kind, records, filterable, facet, min, max
    }

    /// Numbers as JSON numbers; a date field's bounds as ISO 8601 texts (`2024-05-01T00:00:00Z`).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(kind, forKey: .kind)
        try c.encode(records, forKey: .records)
        try c.encode(filterable, forKey: .filterable)
        try c.encode(facet, forKey: .facet)
        for (value, key) in [(min, CodingKeys.min), (max, .max)] {
            guard let value else { continue }
            if kind == .date {
                try c.encode(Self.isoDate(value), forKey: key)
            } else {
                try c.encode(value, forKey: key)
            }
        }
    }

    /// Seconds since 1970 as an ISO 8601 date and time in UTC.
    public static func isoDate(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }
}
