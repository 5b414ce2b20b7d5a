/// How much one request may ask for: the caps the API, the web app, the original apps'
/// endpoints, the CLI and offline catalogs share, so each limit is stated once (the OpenAPI
/// document repeats them; a test checks it agrees).
///
/// ```swift
/// let limit = try request.integer("limit", in: 1...CatalogLimits.maxPageSize, default: CatalogLimits.defaultPageSize)
/// ```
public enum CatalogLimits {
    /// The most records one browse page returns (`items`, positioned pages, `allItems`).
    public static let maxPageSize = 500
    /// Records per browse page when a request does not say.
    public static let defaultPageSize = 50
    /// The most results one search page returns.
    public static let maxSearchLimit = 200
    /// Results per search page when a request does not say.
    public static let defaultSearchLimit = 50
    /// The most featured records one request returns.
    public static let maxFeatured = 500
    /// The longest query, scope or category label a search accepts, in characters.
    public static let maxTextLength = 200
    /// The most category or country filters one search carries.
    public static let maxFilters = 20
}
