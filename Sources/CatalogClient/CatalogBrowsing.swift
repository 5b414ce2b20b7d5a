/// What a catalog app reads: catalogs, sections, pages, records, search, categories and featured
/// records. ``CatalogClient`` answers from a server and ``OfflineCatalog`` from a downloaded
/// snapshot, with the same results, so one screen works on either:
///
/// ```swift
/// func firstPage(from source: some CatalogBrowsing) async throws -> [Record] {
///     try await source.items(of: "products", section: nil, after: nil, before: nil, limit: 50).items
/// }
/// ```
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
    /// The categories with their counts.
    func categories(of catalog: String) async throws(CatalogClientError) -> [CategoryCount]
    /// A page of one category's records in index order.
    func items(of catalog: String, category: String, after: String?, before: String?, limit: Int)
        async throws(CatalogClientError) -> ItemsPage
    /// The featured records by rank.
    func featured(of catalog: String, limit: Int) async throws(CatalogClientError) -> [Record]
}

extension CatalogClient: CatalogBrowsing {}
