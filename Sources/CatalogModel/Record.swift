import Foundation

/// Another name of ``Record`` for apps that also import a library with a `Record` of its own
/// (GRDB's base class): `CatalogRecord` never clashes, and names the same type.
public typealias CatalogRecord = Record

/// One entry of a catalog: a product, a program, a recipe.
///
/// Every catalog shares the same well-known fields (the *roles*); anything else the source had is
/// kept in ``fields`` under its original name, so nothing is lost on a round trip.
///
/// ```swift
/// let soup = Record(id: "gulyas", title: "Gulyásleves", categories: ["Levesek"])
/// ```
public struct Record: Codable, Sendable, Hashable, Identifiable {
    /// Stable identifier, unique within its catalog.
    public var id: String
    /// The name shown in lists.
    public var title: String
    /// A second line: a manufacturer, "after aunt Mari's recipe", a platform.
    public var subtitle: String?
    /// Long text, possibly several lines.
    public var description: String?
    /// The facet values the record belongs to, in source order, without duplicates.
    public var categories: [String]
    /// Price as an exact decimal number.
    public var price: Decimal?
    /// ISO 4217 currency code of ``price``.
    public var currency: String?
    /// Quantity in stock, or a count.
    public var quantity: Int?
    /// ISO 3166-1 alpha-2 country code (shown as a flag).
    public var country: String?
    /// Image URL or image-store path.
    public var image: String?
    /// Featured ("hot") rank: 1 is shown first; `nil` when the record is not featured.
    public var featured: Int?
    /// The label of the index section the record sorts into (filled in by the store).
    public var section: String?
    /// Every other field of the source, under its source name.
    public var fields: [String: FieldValue]

    /// Creates a record.
    public init(
        id: String,
        title: String,
        subtitle: String? = nil,
        description: String? = nil,
        categories: [String] = [],
        price: Decimal? = nil,
        currency: String? = nil,
        quantity: Int? = nil,
        country: String? = nil,
        image: String? = nil,
        featured: Int? = nil,
        section: String? = nil,
        fields: [String: FieldValue] = [:]
    ) {
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.description = description
        self.categories = categories
        self.price = price
        self.currency = currency
        self.quantity = quantity
        self.country = country
        self.image = image
        self.featured = featured
        self.section = section
        self.fields = fields
    }

    enum CodingKeys: String, CodingKey {
        case id, title, subtitle, description, categories, price, currency, quantity, country, image, featured
        case section, fields
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        title = try c.decode(String.self, forKey: .title)
        subtitle = try c.decodeIfPresent(String.self, forKey: .subtitle)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        categories = try c.decodeIfPresent([String].self, forKey: .categories) ?? []
        price = try c.decodeIfPresent(Decimal.self, forKey: .price)
        currency = try c.decodeIfPresent(String.self, forKey: .currency)
        quantity = try c.decodeIfPresent(Int.self, forKey: .quantity)
        country = try c.decodeIfPresent(String.self, forKey: .country)
        image = try c.decodeIfPresent(String.self, forKey: .image)
        featured = try c.decodeIfPresent(Int.self, forKey: .featured)
        section = try c.decodeIfPresent(String.self, forKey: .section)
        fields = try c.decodeIfPresent([String: FieldValue].self, forKey: .fields) ?? [:]
    }

    /// Encodes every key, with `null` for absent values, so API clients see a stable shape.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(title, forKey: .title)
        try c.encode(subtitle, forKey: .subtitle)
        try c.encode(description, forKey: .description)
        try c.encode(categories, forKey: .categories)
        try c.encode(price, forKey: .price)
        try c.encode(currency, forKey: .currency)
        try c.encode(quantity, forKey: .quantity)
        try c.encode(country, forKey: .country)
        try c.encode(image, forKey: .image)
        try c.encode(featured, forKey: .featured)
        try c.encode(section, forKey: .section)
        try c.encode(fields, forKey: .fields)
    }
}

/// The value of an extra field, with its JSON type: a text, a number (its exact literal, so
/// `130` stays `130` and `1.50` stays `1.50`), a boolean, `null`, or a list of values (when the
/// source repeated the field or held an array).
///
/// ```swift
/// let weight = FieldValue.number("1.50")
/// weight.joined            // "1.50"
/// FieldValue.list([.text("a"), .number("2")]).values   // ["a", "2"]
/// ```
public enum FieldValue: Codable, Sendable, Equatable, Hashable {
    /// A text.
    case text(String)
    /// A number, as its exact JSON literal (`130`, `1.50`, `-2e3`).
    case number(String)
    /// A boolean.
    case bool(Bool)
    /// JSON `null`: present, but without a value.
    case null
    /// Several values, in source order.
    case list([FieldValue])

    /// A list of texts: `.texts(["a", "b"])` is `.list([.text("a"), .text("b")])`.
    public static func texts(_ values: [String]) -> FieldValue {
        .list(values.map(FieldValue.text))
    }

    /// The text of each value, in order: a number's literal, `true`/`false`; `null` gives none,
    /// and lists inside lists are flattened.
    public var values: [String] {
        switch self {
        case .list(let elements): elements.flatMap(\.values)
        case .null: []
        default: [scalarText ?? ""]
        }
    }

    /// The values joined with a space, for searching and one-line display.
    public var joined: String {
        switch self {
        case .text(let value): value
        case .number(let literal): literal
        case .bool(let value): value ? "true" : "false"
        case .null: ""
        case .list: values.joined(separator: " ")
        }
    }

    /// The text of a single value (a text, a number's literal, `true`/`false`); nil for `null` and lists.
    public var scalarText: String? {
        switch self {
        case .text(let value): value
        case .number(let literal): literal
        case .bool(let value): value ? "true" : "false"
        case .null, .list: nil
        }
    }

    /// Decodes any JSON value but an object. Numbers go through `Decimal`, so `JSONDecoder`
    /// gives `1.5` for `1.50`; ``CatalogJSONDecoder`` and ``FieldValue/fields(json:)`` keep the
    /// literal exactly.
    public init(from decoder: any Decoder) throws {
        if let literal = (decoder as? any NumberLiteralDecoding)?.numberLiteral {
            self = .number(literal)
            return
        }
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let value = try? c.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? c.decode(String.self) {
            self = .text(value)
        } else if let list = try? c.decode([FieldValue].self) {
            self = .list(list)
        } else {
            self = .number(DecimalText.format(try c.decode(Decimal.self)))
        }
    }

    /// Encodes the value; a number as a `Decimal` (exact up to 38 digits), or as its literal's
    /// `Double` when `Decimal` cannot hold it.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .text(let value): try c.encode(value)
        case .number(let literal):
            if let decimal = DecimalText.parse(literal), !decimal.isNaN {
                try c.encode(decimal)
            } else {
                try c.encode(Double(literal) ?? 0)
            }
        case .bool(let value): try c.encode(value)
        case .null: try c.encodeNil()
        case .list(let values): try c.encode(values)
        }
    }
}

/// The type a catalog's definition gives a field read from text (CSV, XML): numbers and booleans
/// become typed values (``FieldValue/number(_:)``, ``FieldValue/bool(_:)``) instead of text.
public enum FieldType: String, Codable, Sendable, CaseIterable, Hashable {
    /// Keep the text (the default).
    case text
    /// A JSON number: `130`, `-1.50`, `2e3` (a decimal comma is accepted, `1,5` → `1.5`); an empty
    /// value is `null`.
    case number
    /// `true`/`false` (also `yes`/`no`, `1`/`0`, any case); an empty value is `null`.
    case bool
    /// An ISO 8601 date or date and time (`2024-05-01`, `2024-05-01T12:30Z`), kept as written and
    /// checked on import; an empty value is `null`. Filters, ranges and sorting compare such
    /// values as dates whether the field is declared so or not (``FieldValueOrder/date(_:)``):
    /// declaring it makes a value that is not a date an error instead of a text.
    case date
}
