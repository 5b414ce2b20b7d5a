import Foundation

/// A page of records decoded into the app's own type (``CatalogClient/items(of:as:section:after:before:limit:)``):
/// the records in index order and the cursors of the pages around it.
public struct DecodedPage<Item: Decodable>: Decodable {
    /// The records, in index order.
    public var items: [Item]
    /// The cursor of the page after this one, nil at the end.
    public var next: String?
    /// The cursor of the page before this one, nil at the start.
    public var previous: String?
}

extension DecodedPage: Sendable where Item: Sendable {}

/// Search hits decoded into the app's own type (``CatalogClient/search(_:in:as:)``), with the
/// search's total and the cursor of its next page.
public struct DecodedHits<Item: Decodable>: Decodable {
    /// The hits, best first.
    public var items: [Item]
    /// How many records match (at most the server's count cap).
    public var total: Int
    /// True when more than ``total`` match.
    public var totalCapped: Bool
    /// The cursor of the next page of hits, nil after the last.
    public var next: String?

    enum CodingKeys: String, CodingKey {
        case items, total, totalCapped, next
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        items = try container.decode([Item].self, forKey: .items)
        total = try container.decode(Int.self, forKey: .total)
        totalCapped = try container.decodeIfPresent(Bool.self, forKey: .totalCapped) ?? false
        next = try container.decodeIfPresent(String.self, forKey: .next)
    }
}

extension DecodedHits: Sendable where Item: Sendable {}

extension CatalogClient {
    /// A page of records in index order, each decoded into the app's own `Decodable` type: a
    /// record's JSON has `id`, `title`, `subtitle`, `description`, `image`, `price`,
    /// `currency`, `quantity`, `country`, `categories` and its other fields under `fields`
    /// (each a string, or an array of strings for a repeated field), so a type names the keys
    /// it wants and leaves out the rest.
    ///
    /// ```swift
    /// struct Recipe: Decodable, Identifiable {
    ///     var id: String
    ///     var title: String
    ///     var categories: [String]
    /// }
    /// let page = try await client.items(of: "cookbook", as: Recipe.self)
    /// ```
    ///
    /// - Throws: ``CatalogClientError`` as ``items(of:section:after:before:limit:)`` does, and
    ///   `.decoding` (with the coding path) when a record does not fit the type.
    public func items<Item: Decodable>(
        of catalog: String, as type: Item.Type, section: String? = nil, after: String? = nil,
        before: String? = nil, limit: Int = CatalogLimits.defaultPageSize
    ) async throws(CatalogClientError) -> DecodedPage<Item> {
        var query = [("limit", String(limit))]
        if let section { query.append(("section", section)) }
        if let after { query.append(("after", after)) }
        if let before { query.append(("before", before)) }
        return try await get(
            ["api", "v1", "catalogs", Self.segment(catalog), "items"], query: query, as: DecodedPage<Item>.self)
    }

    /// One record, decoded into the app's own type (see ``items(of:as:section:after:before:limit:)``).
    ///
    /// - Throws: ``CatalogClientError`` `.notFound`, `.decoding`.
    public func item<Item: Decodable>(_ id: String, of catalog: String, as type: Item.Type)
        async throws(CatalogClientError) -> Item
    {
        try await get(["api", "v1", "catalogs", Self.segment(catalog), "items", Self.segment(id)], as: Item.self)
    }

    /// Searches a catalog and decodes each hit into the app's own type; a hit is a record's JSON
    /// with `matches` (and a `snippet` when the match was in another field) beside its keys.
    ///
    /// - Throws: what ``search(_:in:)`` throws, and `.decoding`.
    public func search<Item: Decodable>(_ request: SearchRequest, in catalog: String, as type: Item.Type)
        async throws(CatalogClientError) -> DecodedHits<Item>
    {
        try await get(
            ["api", "v1", "catalogs", Self.segment(catalog), "search"], query: Self.query(of: request),
            as: DecodedHits<Item>.self)
    }
}
