// The API's list answers: one key holding an array. Decoded by the client library; the server
// writes the same shapes (its hand-written JSON is checked against these types in tests).

/// `{"catalogs":[…]}` (`GET /api/v1/catalogs`).
public struct CatalogList: Codable, Sendable, Equatable {
    /// Every catalog, ordered by id.
    public var catalogs: [CatalogSummary]

    /// Creates the list.
    public init(catalogs: [CatalogSummary]) { self.catalogs = catalogs }
}

/// `{"sections":[…]}` (`GET /api/v1/catalogs/{id}/sections`).
public struct SectionList: Codable, Sendable, Equatable {
    /// The non-empty sections, in index order.
    public var sections: [SectionCount]

    /// Creates the list.
    public init(sections: [SectionCount]) { self.sections = sections }
}

/// `{"categories":[…]}` (`GET /api/v1/catalogs/{id}/categories`).
public struct CategoryList: Codable, Sendable, Equatable {
    /// The categories in display order.
    public var categories: [CategoryCount]

    /// Creates the list.
    public init(categories: [CategoryCount]) { self.categories = categories }
}

/// `{"items":[…]}` (`GET /api/v1/catalogs/{id}/featured`).
public struct RecordList: Codable, Sendable, Equatable {
    /// The records.
    public var items: [Record]

    /// Creates the list.
    public init(items: [Record]) { self.items = items }
}
