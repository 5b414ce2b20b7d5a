import Foundation

/// Everything a search asks for: the text, the scope, filters, facets, the order and the page,
/// as given. CatalogCore's `SearchRequest.Checked` is the same request checked (limits, lengths,
/// country codes), the only form a search runs.
///
/// ```swift
/// var request = SearchRequest(query: "lamp")
/// request.countries = ["DE", "AT"]
/// request.price = NumericRange(lower: 10, upper: 50)
/// request.sort = .price
/// request.facets = [.categories, .country]
/// ```
public struct SearchRequest: Sendable, Equatable, Hashable {
    /// What the user typed; empty lists the scope's records.
    public var query: String
    /// The scope's label, or nil for all records.
    public var scope: String?
    /// Category labels a record must all carry.
    public var categories: [String]
    /// Country codes a record may have (any of them, any case; see ``CountryCode``); empty means
    /// no country filter.
    public var countries: [String]
    /// The price range, either side open.
    public var price: NumericRange?
    /// A filter on any fields (`filter=`), with the others: a record passes every one.
    public var filter: FilterExpression?
    /// A standing filter the requester cannot lift (an API key's, ``RecordFilter/expression``):
    /// evaluated as ``filter`` is, but never held to the catalog's fields or settings; a field no
    /// record has passes no record.
    public var restriction: FilterExpression?
    /// Which facet counts to add.
    public var facets: [SearchFacet]
    /// The order of the results.
    public var sort: SearchSort
    /// The cursor of the previous page (``SearchResponse/next``).
    public var after: String?
    /// Results per page.
    public var limit: Int

    /// Creates a request.
    public init(
        query: String, scope: String? = nil, categories: [String] = [], countries: [String] = [],
        price: NumericRange? = nil, filter: FilterExpression? = nil, facets: [SearchFacet] = [],
        sort: SearchSort = .relevance, after: String? = nil, limit: Int = 50
    ) {
        self.query = query
        self.scope = scope
        self.categories = categories
        self.countries = countries
        self.price = price
        self.filter = filter
        self.facets = facets
        self.sort = sort
        self.after = after
        self.limit = limit
    }
}

/// A range of numbers, either side open: `price=10..50`, `10..`, `..50`.
public struct NumericRange: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The smallest value included, or nil.
    public var lower: Decimal?
    /// The largest value included, or nil.
    public var upper: Decimal?

    /// Creates a range.
    public init(lower: Decimal?, upper: Decimal?) {
        self.lower = lower
        self.upper = upper
    }

    /// Parses `MIN..MAX` where either side may be empty; nil when malformed or both are empty. A
    /// range whose lower end is above its upper end contains nothing.
    public init?(parsing text: String) {
        let parts = text.components(separatedBy: "..")
        guard parts.count == 2 else { return nil }
        let lower = parts[0].trimmingCharacters(in: .whitespaces)
        let upper = parts[1].trimmingCharacters(in: .whitespaces)
        guard !(lower.isEmpty && upper.isEmpty) else { return nil }
        var range = NumericRange(lower: nil, upper: nil)
        if !lower.isEmpty {
            guard let value = RecordMapper.parseDecimal(lower) else { return nil }
            range.lower = value
        }
        if !upper.isEmpty {
            guard let value = RecordMapper.parseDecimal(upper) else { return nil }
            range.upper = value
        }
        self = range
    }

    /// Whether `value` lies in the range (never for NaN).
    public func contains(_ value: Double) -> Bool {
        let bounds = doubleBounds
        return value >= bounds.lower && value <= bounds.upper
    }

    /// The bounds as doubles, −∞ and +∞ where the range is open: convert them once to compare
    /// many values (a `Decimal` conversion per value made a price filter over 1,000,000 records
    /// cost 60 ms).
    public var doubleBounds: (lower: Double, upper: Double) {
        (
            lower.map { NSDecimalNumber(decimal: $0).doubleValue } ?? -.infinity,
            upper.map { NSDecimalNumber(decimal: $0).doubleValue } ?? .infinity
        )
    }

    /// `MIN..MAX` as parsed.
    public var description: String {
        (lower.map { DecimalText.format($0) } ?? "") + ".." + (upper.map { DecimalText.format($0) } ?? "")
    }
}

/// A facet a search can count: `facets=categories,country,Origin`: the built-in categories and
/// country, or any filterable field of the catalog's records, by its name.
public enum SearchFacet: Sendable, Equatable, Hashable, RawRepresentable, CustomStringConvertible {
    /// The categories.
    case categories
    /// The country codes.
    case country
    /// One of the records' own fields, by its name (`Origin`): its values, case and accents aside.
    case field(String)

    /// The longest field name a facet takes, in UTF-8 bytes.
    public static let maxNameBytes = 200

    /// The facet a name spells: `categories` (or `category`), `country`, or a field's name; nil
    /// for an empty name, one longer than ``maxNameBytes`` or holding a control character or comma.
    public init?(rawValue: String) {
        switch rawValue {
        case "categories", "category": self = .categories
        case "country": self = .country
        default:
            guard !rawValue.isEmpty, rawValue.utf8.count <= Self.maxNameBytes,
                !rawValue.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == "," })
            else { return nil }
            self = .field(rawValue)
        }
    }

    /// The facet's name as `facets=` and the response's `facets` object spell it.
    public var rawValue: String {
        switch self {
        case .categories: "categories"
        case .country: "country"
        case .field(let name): name
        }
    }

    public var description: String { rawValue }
}

/// The order of search results: `relevance` (the default), or up to ``maxKeys`` keys separated
/// by commas, each the built-in `title` or `price` or the name of one of the records' fields,
/// with `-` in front for descending: `sort=title`, `sort=-price`, `sort=Year,-Horsepower`.
///
/// Each key orders the records the one before it leaves tied; records without a key's field
/// (or price) come after those with it, whichever the direction; ties after the last key keep
/// index order. Fields order numbers before dates before texts, texts by the catalog's
/// collation; a record with several values sorts by its smallest ascending, its largest
/// descending. Prices sort within one currency (``SearchSort/priceRule``).
///
/// ```swift
/// SearchSort(rawValue: "Year,-Horsepower")?.keys.count  // 2
/// SearchSort.priceDescending.rawValue                     // "-price"
/// ```
public struct SearchSort: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// What a key orders by.
    public enum Field: Sendable, Equatable, Hashable {
        /// The title, in index order (the locale's collation).
        case title
        /// The price, within one currency (``SearchSort/priceRule``).
        case price
        /// One of the records' own fields, by name.
        case field(String)
    }

    /// One key of an order.
    public struct Key: Sendable, Equatable, Hashable {
        /// What it orders by.
        public var field: Field
        /// Largest first.
        public var descending: Bool

        /// Creates a key.
        public init(_ field: Field, descending: Bool = false) {
            self.field = field
            self.descending = descending
        }

        /// The key as a `sort` parameter writes it: `title`, `-price`, `Year`.
        public var text: String {
            let name =
                switch field {
                case .title: "title"
                case .price: "price"
                case .field(let name): name
                }
            return descending ? "-" + name : name
        }
    }

    /// The keys, first first; none for relevance.
    public var keys: [Key]

    /// The most keys one order has.
    public static let maxKeys = 4
    /// The longest field name a key names, in UTF-8 bytes.
    public static let maxFieldBytes = 200
    /// The longest `sort` parameter read, in characters.
    public static let maxParameterLength = maxKeys * (maxFieldBytes + 2)

    /// The rule by which prices sort, in one place for every engine, the offline catalog and the
    /// documentation: a price is only compared with prices of the same currency.
    public static let priceRule =
        "prices sort within their currency: the catalog's most common currency first, then the other currencies"
        + " by code, then prices without a currency, then records without a price"

    /// An order of `keys`.
    public init(keys: [Key]) {
        self.keys = keys
    }

    /// Best matches first (for an empty query: index order).
    public static let relevance = SearchSort(keys: [])
    /// The locale's collation order.
    public static let title = SearchSort(keys: [Key(.title)])
    /// Reverse collation order.
    public static let titleDescending = SearchSort(keys: [Key(.title, descending: true)])
    /// Cheapest first, within one currency; records without a price last.
    public static let price = SearchSort(keys: [Key(.price)])
    /// Dearest first, within one currency; records without a price last.
    public static let priceDescending = SearchSort(keys: [Key(.price, descending: true)])

    /// The built-in orders: relevance, title, -title, price, -price.
    public static let allCases: [SearchSort] = [.relevance, .title, .titleDescending, .price, .priceDescending]

    /// Whether the order is by relevance.
    public var isRelevance: Bool { keys.isEmpty }

    /// The fields of the records the order names (not title and price), each once.
    public var fieldNames: [String] {
        var names: [String] = []
        for key in keys {
            if case .field(let name) = key.field, !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// The order as a `sort` parameter writes it: `relevance`, `-price`, `Year,-Horsepower`.
    public var rawValue: String {
        keys.isEmpty ? "relevance" : keys.map(\.text).joined(separator: ",")
    }

    public var description: String { rawValue }

    /// The order `text` spells, nil when it is malformed (``init(parameter:)`` says why).
    public init?(rawValue text: String) {
        guard let order = try? SearchSort(parameter: text) else { return nil }
        self = order
    }
}

/// One value of a facet with its count: `{"value","count","capped"}`.
public struct FacetCount: Codable, Sendable, Hashable {
    /// The category label or country code.
    public var value: String
    /// Matching records with this value, at most ``SearchResponse/countCap``.
    public var count: Int
    /// True when there are more.
    public var capped: Bool

    /// Creates a facet count.
    public init(value: String, count: Int, capped: Bool = false) {
        self.value = value
        self.count = count
        self.capped = capped
    }
}
