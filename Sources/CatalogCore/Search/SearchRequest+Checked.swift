import CatalogModel

extension SearchRequest {
    /// A search request that was checked: the only kind ``CatalogSearcher`` runs. Every search
    /// (the API, the web app, the CLI and offline catalogs) makes one with
    /// ``init(_:)``, so a limit, a text's length, a filter or a cursor is checked once, in one
    /// wording, and the answers online and offline stay equal.
    ///
    /// ```swift
    /// let request = try SearchRequest.Checked(SearchRequest(query: "lamp", countries: ["de"]))
    /// request.countries  // [CountryCode("DE")]
    /// ```
    public struct Checked: Sendable, Equatable, Hashable {
        /// What the user typed, at most ``CatalogLimits/maxTextLength`` characters; empty lists
        /// the scope's records.
        public let query: String
        /// The scope's label, or nil for all records (an empty label is nil).
        public let scope: String?
        /// Category labels a record must all carry: none empty, at most ``CatalogLimits/maxFilters``.
        public let categories: [String]
        /// Countries a record may have (any of them); empty means no country filter.
        public let countries: [CountryCode]
        /// The price range, either side open.
        public let price: NumericRange?
        /// A filter on any fields, at most ``maxFilterConditions`` conditions (the searcher
        /// checks its fields against the catalog's).
        public let filter: FilterExpression?
        /// A standing filter (an API key's): evaluated as ``filter`` is, never checked against the
        /// catalog's fields or settings.
        public let restriction: FilterExpression?
        /// Which facet counts to add, each once, at most ``CatalogLimits/maxFilters``.
        public let facets: [SearchFacet]
        /// The order of the results.
        public let sort: SearchSort
        /// The cursor of the previous page: not empty, at most ``BrowseCursor/maxTextLength``
        /// bytes (the searcher decodes it).
        public let after: String?
        /// Results per page, 1 to ``CatalogLimits/maxSearchLimit``.
        public let limit: Int

        /// The most conditions a filter may have: each is a set of documents a search works out.
        public static let maxFilterConditions = 100
        /// The deepest a filter's `AND`, `OR`, `NOT` and parentheses may nest.
        public static let maxFilterDepth = 32

        /// How deep `expression` nests, counted up to just past `limit`.
        static func depth(of expression: FilterExpression, limit: Int) -> Int {
            guard limit >= 0 else { return 1 }
            switch expression {
            case .condition: return 1
            case .not(let inner): return 1 + depth(of: inner, limit: limit - 1)
            case .and(let list), .or(let list): return 1 + (list.map { depth(of: $0, limit: limit - 1) }.max() ?? 0)
            }
        }

        /// Checks `request`: country codes upper-cased, an empty scope meaning all records,
        /// empty filters dropped.
        ///
        /// - Throws: ``SearchRequestError`` naming the parameter, for a request the server
        ///   answers with 400.
        public init(_ request: SearchRequest) throws(SearchRequestError) {
            let maxText = CatalogLimits.maxTextLength
            let maxFilters = CatalogLimits.maxFilters
            guard request.query.count <= maxText else {
                throw SearchRequestError("'q' is longer than \(maxText) characters")
            }
            let scope = request.scope?.isEmpty == true ? nil : request.scope
            if let scope, scope.count > maxText {
                throw SearchRequestError("'scope' is longer than \(maxText) characters")
            }
            guard (1...CatalogLimits.maxSearchLimit).contains(request.limit) else {
                throw SearchRequestError("'limit' must be a whole number from 1 to \(CatalogLimits.maxSearchLimit)")
            }
            let categories = request.categories.filter { !$0.isEmpty }
            guard categories.count <= maxFilters else {
                throw SearchRequestError("at most \(maxFilters) 'category' values")
            }
            if categories.contains(where: { $0.count > maxText }) {
                throw SearchRequestError("'category' is longer than \(maxText) characters")
            }
            let countries = request.countries.filter { !$0.isEmpty }
            guard countries.count <= maxFilters else {
                throw SearchRequestError("at most \(maxFilters) 'country' values")
            }
            self.countries = try countries.map { (code: String) throws(SearchRequestError) in
                try CountryCode(parsing: code)
            }
            if let after = request.after, after.isEmpty || after.utf8.count > BrowseCursor.maxTextLength {
                throw SearchRequestError("'after' is not a cursor")
            }
            self.query = request.query
            self.scope = scope
            self.categories = categories
            self.price = request.price
            if let filter = request.filter, filter.conditions.count > Self.maxFilterConditions {
                throw SearchRequestError("'filter' has more than \(Self.maxFilterConditions) conditions")
            }
            if let filter = request.filter, Self.depth(of: filter, limit: Self.maxFilterDepth) > Self.maxFilterDepth {
                throw SearchRequestError("'filter' nests more than \(Self.maxFilterDepth) levels deep")
            }
            self.filter = request.filter
            self.restriction = request.restriction
            var seen: Set<SearchFacet> = []
            let facets = request.facets.filter { seen.insert($0).inserted }
            guard facets.count <= maxFilters else { throw SearchRequestError("at most \(maxFilters) 'facets'") }
            self.facets = facets
            // An order made in code is held to what a `sort` parameter may say.
            let sort = try SearchSort(parameter: request.sort.rawValue)
            guard sort == request.sort else {
                throw SearchRequestError(
                    "'sort' names a field that a sort parameter cannot name (\(sort.rawValue.prefix(80)))")
            }
            self.sort = sort
            self.after = request.after
            self.limit = request.limit
        }
    }

    /// The request checked (``Checked/init(_:)``).
    ///
    /// - Throws: ``SearchRequestError`` naming the parameter.
    public func checked() throws(SearchRequestError) -> Checked {
        try Checked(self)
    }
}
