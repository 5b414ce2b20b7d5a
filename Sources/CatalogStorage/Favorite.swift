/// A record a user marked: `{"catalog","item","added"}`.
///
/// Refers to the catalog by its public id and to the record by its id, never by the engine's
/// internal numbers, so a favorite survives re-imports of its catalog (which rewrite the records).
public struct Favorite: Codable, Sendable, Equatable {
    /// The catalog's public id.
    public var catalog: String
    /// The record's id in that catalog.
    public var item: String
    /// When it was added, ISO 8601 in UTC (`2024-05-01T12:00:00Z`).
    public var added: String

    /// Creates a favorite value.
    public init(catalog: String, item: String, added: String) {
        self.catalog = catalog
        self.item = item
        self.added = added
    }
}
