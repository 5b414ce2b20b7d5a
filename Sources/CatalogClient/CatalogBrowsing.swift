/// What a catalog app reads: catalogs, sections, pages, records, search, categories and featured
/// records. ``CatalogClient`` answers from a server and ``OfflineCatalog`` from a downloaded
/// snapshot, with the same results, so one screen works on either:
///
/// ```swift
/// func firstPage(from source: some CatalogBrowsing) async throws -> [Record] {
///     try await source.items(of: "products", limit: 50).items
/// }
/// ```
///
/// The requirements take every parameter; the extension below gives them the defaults
/// ``CatalogClient``'s own methods have (no section, no cursors, `CatalogLimits.defaultPageSize`),
/// so code written against the protocol calls them as it would call the client. A conforming type
/// implements every requirement itself: the extension's methods only fill in the defaults and
/// call the requirement.
public protocol CatalogBrowsing: Sendable {
    /// Every catalog, ordered by id.
    func catalogs() async throws(CatalogClientError) -> [CatalogSummary]
    /// One catalog's description.
    func catalog(_ id: String) async throws(CatalogClientError) -> CatalogDetail
    /// The non-empty index sections in order.
    func sections(of catalog: String) async throws(CatalogClientError) -> [SectionCount]
    /// A page in index order, optionally of one section.
    func items(of catalog: String, section: String?, after: String?, before: String?, limit: Int)
        async throws(CatalogClientError) -> ItemsPage
    /// A page starting at a section's label (the index rail's jump).
    func items(of catalog: String, startingAt label: String, limit: Int) async throws(CatalogClientError) -> ItemsPage
    /// One record.
    func item(_ id: String, of catalog: String) async throws(CatalogClientError) -> Record
    /// A search.
    func search(_ request: SearchRequest, in catalog: String) async throws(CatalogClientError) -> SearchResponse
    /// The values of a facet (a record field's name, `categories` or `country`) that start with
    /// `prefix` (case and accents aside), each counted among the records `request` matches (its
    /// query, scope and filters), the most common first: a search inside a long list of values.
    func facetValues(
        _ field: String, startingWith prefix: String, for request: SearchRequest, in catalog: String, limit: Int
    ) async throws(CatalogClientError) -> [FacetCount]
    /// The categories with their counts.
    func categories(of catalog: String) async throws(CatalogClientError) -> [CategoryCount]
    /// A page of one category's records in index order.
    func items(of catalog: String, category: String, after: String?, before: String?, limit: Int)
        async throws(CatalogClientError) -> ItemsPage
    /// The featured records by rank.
    func featured(of catalog: String, limit: Int) async throws(CatalogClientError) -> [Record]
}

extension CatalogBrowsing {
    /// A page in index order (``items(of:section:after:before:limit:)`` with defaults: every
    /// section, the first page, `CatalogLimits.defaultPageSize` records).
    public func items(
        of catalog: String, section: String? = nil, after: String? = nil, before: String? = nil,
        limit: Int = CatalogLimits.defaultPageSize
    ) async throws(CatalogClientError) -> ItemsPage {
        try await items(of: catalog, section: section, after: after, before: before, limit: limit)
    }

    /// A page starting at a section's label, `CatalogLimits.defaultPageSize` records unless
    /// `limit` says otherwise.
    public func items(of catalog: String, startingAt label: String, limit: Int = CatalogLimits.defaultPageSize)
        async throws(CatalogClientError) -> ItemsPage
    {
        try await items(of: catalog, startingAt: label, limit: limit)
    }

    /// A page of one category's records (the first page, `CatalogLimits.defaultPageSize` records
    /// unless the parameters say otherwise).
    public func items(
        of catalog: String, category: String, after: String? = nil, before: String? = nil,
        limit: Int = CatalogLimits.defaultPageSize
    ) async throws(CatalogClientError) -> ItemsPage {
        try await items(of: catalog, category: category, after: after, before: before, limit: limit)
    }

    /// The featured records by rank, `CatalogLimits.defaultPageSize` of them unless `limit` says
    /// otherwise.
    public func featured(of catalog: String, limit: Int = CatalogLimits.defaultPageSize)
        async throws(CatalogClientError) -> [Record]
    {
        try await featured(of: catalog, limit: limit)
    }
}

extension CatalogClient: CatalogBrowsing {}
