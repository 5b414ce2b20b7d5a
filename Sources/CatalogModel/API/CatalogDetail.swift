/// One catalog with what a client needs to draw its screens:
/// `{"id","title","locale","count","scopes","fields","sections"}` (`GET /api/v1/catalogs/{id}`).
public struct CatalogDetail: Codable, Sendable, Equatable {
    /// The catalog's identifier.
    public var id: String
    /// Its human-readable name.
    public var title: String
    /// Its locale (`de`, `hu`): the language of its screens.
    public var locale: String
    /// How many records it holds.
    public var count: Int
    /// The scope buttons' labels, in order (`Alle`, `Windows`, `Apple`, `Apple&Win`).
    public var scopes: [String]
    /// The source's field names in their original order.
    public var fields: [String]
    /// Every label of the index rail, in order, empty sections included.
    public var sections: [String]

    /// Creates a description.
    public init(
        id: String, title: String, locale: String, count: Int, scopes: [String], fields: [String], sections: [String]
    ) {
        self.id = id
        self.title = title
        self.locale = locale
        self.count = count
        self.scopes = scopes
        self.fields = fields
        self.sections = sections
    }

    /// The summary as the catalog list shows it.
    public var summary: CatalogSummary { CatalogSummary(id: id, title: title, locale: locale, count: count) }
}
