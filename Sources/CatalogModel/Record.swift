import Foundation

/// One entry of a catalog: a product, a program, a recipe.
///
/// Every catalog shares the same well-known fields (the *roles*); anything else the source had is
/// kept in ``fields`` under its original name, so nothing is lost on a round trip.
///
/// ```swift
/// let soup = Record(id: "gulyas", title: "Gulyásleves", categories: ["Levesek"])
/// ```
public struct Record: Codable, Sendable, Equatable, Hashable {
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

/// The value of an extra field: one text, or several when the source repeated the field.
public enum FieldValue: Codable, Sendable, Equatable, Hashable {
    case text(String)
    case list([String])

    /// All values, one for ``text(_:)``.
    public var values: [String] {
        switch self {
        case .text(let value): [value]
        case .list(let values): values
        }
    }

    /// The values joined with a space, for searching and one-line display.
    public var joined: String {
        switch self {
        case .text(let value): value
        case .list(let values): values.joined(separator: " ")
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let list = try? c.decode([String].self) {
            self = .list(list)
        } else {
            self = .text(try c.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .text(let value): try c.encode(value)
        case .list(let values): try c.encode(values)
        }
    }
}
