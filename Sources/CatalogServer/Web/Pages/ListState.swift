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
///   `pmax`), a record field's values `f:NAME=VALUE` (repeatable, any may hold) and range
///   `min:NAME=A`, `max:NAME=B` (numbers and dates), `sort`, and `after=` for the next page of results;
/// - `open=ITEM`: the record shown beside the list on a wide screen.
struct ListState {
    var query = ""
    var scope: String?
    var searching = false
    var categories: [String] = []
    var countries: [CountryCode] = []
    var price: NumericRange?
    /// The record fields the filter sheet filters by, in the order the URL names them.
    var fields: [FieldChoice] = []
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
        fields = try FieldChoice.choices(in: request)
        searching =
            !query.isEmpty || scope != nil || request.query("search") == "1" || !categories.isEmpty
            || !countries.isEmpty || price != nil || sort != .relevance || !fields.isEmpty
        after = try request.cursor("after")
        before = try request.cursor("before")
        at = try request.cursor("at")
        from = try request.text("from", maxLength: 64)
        open = try request.text("open", maxLength: 512)
    }

    /// How many filters are set (the filter button's count).
    var filterCount: Int {
        categories.count + countries.count + (price == nil ? 0 : 1) + (sort == .relevance ? 0 : 1)
            + fields.reduce(0) { $0 + $1.values.count + ($1.lower == nil && $1.upper == nil ? 0 : 1) }
    }

    /// The search's part of the URL, without a page cursor.
    var searchPairs: [(String, String?)] {
        var pairs: [(String, String?)] = [("q", query.isEmpty ? nil : query), ("scope", scope)]
        pairs += categories.map { ("category", $0) }
        pairs += countries.map { ("country", $0.text) }
        pairs.append(("price", price?.description))
        for field in fields {
            pairs += field.values.map { ("f:" + field.name, $0) }
            if let lower = field.lower { pairs.append(("min:" + field.name, lower)) }
            if let upper = field.upper { pairs.append(("max:" + field.name, upper)) }
        }
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
    ///
    /// - Parameter sheet: the record fields the filter sheet offers; those with value lists are counted.
    func searchRequest(within category: String?, limit: Int, sheet: [FilterPanel.SheetField] = []) throws
        -> SearchRequest.Checked
    {
        let counted = sheet.filter { $0.kind == .values }.map { SearchFacet.field($0.name) }
        let request = SearchRequest(
            query: query, scope: scope, categories: categories + (category.map { [$0] } ?? []),
            countries: countries.map(\.text), price: price, filter: FieldChoice.filter(fields),
            facets: [.categories, .country] + counted, sort: sort, after: after, limit: limit)
        do {
            return try request.checked()
        } catch {
            throw HTTPError.badParameter(error.message)
        }
    }
}

/// One record field the filter sheet filters by: values any of which may hold (`f:NAME=VALUE`),
/// and a range of numbers or dates (`min:NAME`, `max:NAME`, either end open).
struct FieldChoice: Equatable {
    var name: String
    var values: [String] = []
    var lower: String?
    var upper: String?

    /// The most fields, and values of one field, a URL may choose.
    static let maxFields = 20
    static let maxValues = 100

    /// The choices a request's query names, in the order of their first parameter.
    static func choices(in request: Request) throws -> [FieldChoice] {
        var choices: [FieldChoice] = []
        for (name, value) in request.query where !value.isEmpty {
            let parts = name.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, ["f", "min", "max"].contains(parts[0]) else { continue }
            let field = String(parts[1])
            guard value.count <= CatalogLimits.maxTextLength, field.count <= CatalogLimits.maxTextLength else {
                throw HTTPError.badParameter(
                    "'\(name.prefix(40))' is longer than \(CatalogLimits.maxTextLength) characters")
            }
            let index = choices.firstIndex { $0.name == field } ?? choices.count
            if index == choices.count {
                guard choices.count < maxFields else {
                    throw HTTPError.badParameter("at most \(maxFields) fields may be filtered")
                }
                choices.append(FieldChoice(name: field))
            }
            switch parts[0] {
            case "f":
                guard choices[index].values.count < maxValues else {
                    throw HTTPError.badParameter("at most \(maxValues) values of one field")
                }
                if !choices[index].values.contains(value) { choices[index].values.append(value) }
            case "min": choices[index].lower = value
            default: choices[index].upper = value
            }
        }
        return choices
    }

    /// The search's filter for `choices`: each field's values (any) and range, all of them.
    static func filter(_ choices: [FieldChoice]) -> FilterExpression? {
        var all: [FilterExpression] = []
        for choice in choices {
            // A value the sheet offers is the text as records have it: quoted, so it is matched as text.
            let values = choice.values.map {
                FilterExpression.condition(
                    FilterCondition(field: choice.name, test: .compare(.equal, FilterValue($0, quoted: true))))
            }
            if let any = FilterExpression.any(values) { all.append(any) }
            if choice.lower != nil || choice.upper != nil {
                let test = FilterTest.range(choice.lower.map { FilterValue($0) }, choice.upper.map { FilterValue($0) })
                all.append(.condition(FilterCondition(field: choice.name, test: test)))
            }
        }
        return FilterExpression.all(all)
    }
}
