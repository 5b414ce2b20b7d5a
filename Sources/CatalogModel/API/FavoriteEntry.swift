/// A favorite with its record: `{"catalog","item","added","record"}`; `record` is null when the
/// record no longer exists (a re-import removed it) until the user removes the favorite.
public struct FavoriteEntry: Codable, Sendable, Hashable {
    /// The catalog's id.
    public var catalog: String
    /// The record's id.
    public var item: String
    /// When it was added, ISO 8601 in UTC (`2024-05-01T12:00:00Z`).
    public var added: String
    /// The record, or nil when it is gone.
    public var record: Record?

    /// Creates an entry.
    public init(catalog: String, item: String, added: String, record: Record?) {
        self.catalog = catalog
        self.item = item
        self.added = added
        self.record = record
    }

    /// Encodes a missing record as `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(catalog, forKey: .catalog)
        try container.encode(item, forKey: .item)
        try container.encode(added, forKey: .added)
        try container.encode(record, forKey: .record)
    }
}

/// `{"favorites":[…]}` (`GET /api/v1/favorites`), newest first.
public struct FavoriteList: Codable, Sendable, Equatable {
    /// The favorites, newest first.
    public var favorites: [FavoriteEntry]

    /// Creates the list.
    public init(favorites: [FavoriteEntry]) { self.favorites = favorites }
}
