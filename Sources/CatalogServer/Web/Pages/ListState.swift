import CatalogCore
import CatalogHTTP
import CatalogModel

/// Where a list is and what it shows, all of it in the URL, so that reload, Back, the detail
/// page's back link and a shared link land on the same rows:
///
/// - browsing: `at=CURSOR` (the first row on screen), `from=LABEL` (the index rail without the
///   script), `after=` and `before=` (the page links without the script);
/// - searching (`search=1`, or any of these): `q`, `scope`, `category` (repeatable, all must
///   hold), `country` (repeatable, any may hold), `price=MIN..MAX` (or the form's `pmin` and
///   `pmax`), `sort`, and `after=` for the next page of results;
/// - `open=ITEM`: the record shown beside the list on a wide screen.
struct ListState {
    var query = ""
    var scope: String?
    var searching = false
    var categories: [String] = []
    var countries: [CountryCode] = []
    var price: NumericRange?
    var sort: SearchSort = .relevance
    /// The next page of results (while searching) or of rows (browsing).
    var after: String?
    var before: String?
    var at: String?
    var from: String?
    var open: String?

    /// The plain list: no search, from the start.
    init() {}

    /// The state a request's query names; a malformed value is a 400, in the words of the API
    /// (the values are parsed by their types, the search checked by ``SearchRequest/Checked``).
    init(_ request: Request) throws {
        let maxText = CatalogLimits.maxTextLength
        query = try request.text("q", maxLength: maxText) ?? ""
        scope = try request.text("scope", maxLength: maxText)
        categories = try request.texts("category", maxLength: maxText)
        do {
            countries = try request.texts("country").map { (code: String) throws(SearchRequestError) in
                try CountryCode(parsing: code)
            }
            let low = try request.text("pmin", maxLength: 30) ?? ""
            let high = try request.text("pmax", maxLength: 30) ?? ""
            let priceText =
                try request.text("price", maxLength: NumericRange.maxParameterLength)
                ?? (low.isEmpty && high.isEmpty ? "" : "\(low)..\(high)")
            if !priceText.isEmpty { price = try NumericRange.parse(parameter: priceText) }
            if let sort = try request.text("sort", maxLength: SearchSort.maxParameterLength) {
                self.sort = try SearchSort(parameter: sort)
            }
        } catch let error as SearchRequestError {
            throw HTTPError.badParameter(error.message)
        }
        searching =
            !query.isEmpty || scope != nil || request.query("search") == "1" || !categories.isEmpty
            || !countries.isEmpty || price != nil || sort != .relevance
        after = try request.cursor("after")
        before = try request.cursor("before")
        at = try request.cursor("at")
        from = try request.text("from", maxLength: 64)
        open = try request.text("open", maxLength: 512)
    }

    /// How many filters are set (the filter button's count).
    var filterCount: Int { categories.count + countries.count + (price == nil ? 0 : 1) + (sort == .relevance ? 0 : 1) }

    /// The search's part of the URL, without a page cursor.
    var searchPairs: [(String, String?)] {
        var pairs: [(String, String?)] = [("q", query.isEmpty ? nil : query), ("scope", scope)]
        pairs += categories.map { ("category", $0) }
        pairs += countries.map { ("country", $0.text) }
        pairs.append(("price", price?.description))
        pairs.append(("sort", sort == .relevance ? nil : sort.rawValue))
        pairs.append(("search", "1"))
        return pairs
    }

    /// The query string that brings a detail page's back link (or a reload) here: the search, or
    /// the place in the list.
    var backQuery: String {
        if searching { return WebPaths.query(searchPairs) }
        return WebPaths.query([("at", at)])
    }

    /// The search as the API's request, checked.
    ///
    /// - Throws: a 400 for a request ``SearchRequest/Checked`` refuses.
    func searchRequest(within category: String?, limit: Int) throws -> SearchRequest.Checked {
        let request = SearchRequest(
            query: query, scope: scope, categories: categories + (category.map { [$0] } ?? []),
            countries: countries.map(\.text), price: price, facets: [.categories, .country], sort: sort, after: after,
            limit: limit)
        do {
            return try request.checked()
        } catch {
            throw HTTPError.badParameter(error.message)
        }
    }
}
