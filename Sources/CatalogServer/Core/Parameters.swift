import Foundation
import CatalogCore
import CatalogHTTP
import CatalogModel

/// Reading and checking query parameters: a bad value is a 400 that names the parameter.
extension Request {
    /// An integer parameter in `range`, or `defaultValue` when absent.
    func integer(_ name: String, in range: ClosedRange<Int>, default defaultValue: Int) throws -> Int {
        guard let text = query(name) else { return defaultValue }
        guard let value = Int(text), range.contains(value) else {
            throw HTTPError.badParameter(
                "'\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// The `limit` of a browse page: 1 to ``CatalogLimits/maxPageSize``, by default
    /// ``CatalogLimits/defaultPageSize``.
    func pageLimit() throws -> Int {
        try integer("limit", in: 1...CatalogLimits.maxPageSize, default: CatalogLimits.defaultPageSize)
    }

    /// The `limit` of a list of featured records: 1 to ``CatalogLimits/maxFeatured``, by default
    /// ``CatalogLimits/defaultPageSize``.
    func featuredLimit() throws -> Int {
        try integer("limit", in: 1...CatalogLimits.maxFeatured, default: CatalogLimits.defaultPageSize)
    }

    /// A text parameter of at most `maxLength` characters, or nil when absent or empty.
    func text(_ name: String, maxLength: Int = 500) throws -> String? {
        guard let value = query(name), !value.isEmpty else { return nil }
        guard value.count <= maxLength else {
            throw HTTPError.badParameter("'\(name)' is longer than \(maxLength) characters")
        }
        return value
    }

    /// A cursor parameter (`after`, `before`): absent, or a non-empty value (an empty one is a
    /// mistake, not "none").
    func cursor(_ name: String = "after") throws -> String? {
        guard let value = query(name) else { return nil }
        guard !value.isEmpty, value.utf8.count <= 4096 else {
            throw HTTPError.badParameter("'\(name)' is not a cursor")
        }
        return value
    }

    /// Every value of a repeated parameter (`category=a&category=b`), each at most `maxLength`.
    func texts(_ name: String, maxLength: Int = 500, maxCount: Int = 20) throws -> [String] {
        let values = query.filter { $0.name == name && !$0.value.isEmpty }.map(\.value)
        guard values.count <= maxCount else { throw HTTPError.badParameter("at most \(maxCount) '\(name)' values") }
        for value in values where value.count > maxLength {
            throw HTTPError.badParameter("'\(name)' is longer than \(maxLength) characters")
        }
        return values
    }

    /// A parameter that, when given, must not be empty (`facets=`, `sort=` are mistakes).
    func present(_ name: String, maxLength: Int) throws -> String? {
        guard let value = query(name) else { return nil }
        guard !value.isEmpty, value.count <= maxLength else { throw HTTPError.badParameter("'\(name)' is malformed") }
        return value
    }

    /// A required text parameter.
    func requiredText(_ name: String, maxLength: Int = 500) throws -> String {
        guard let value = try text(name, maxLength: maxLength) else {
            throw HTTPError.badParameter("the query parameter '\(name)' is required")
        }
        return value
    }
}

/// The search parameters of the API: `q`, `scope`, `category` (repeatable: all must hold),
/// `country` (repeatable: any may hold), `price=MIN..MAX`, `filter=EXPRESSION` (the filter
/// language, ``FilterExpression``), `facets=categories,country`,
/// `sort=relevance|title|-title|price|-price`, `after`, `limit`, and any other name as a record
/// field (`Origin=Japan`, `Year=1970..1975`; repeated: any value may hold). The values are parsed
/// by their types and checked by ``SearchRequest/Checked``, as the CLI's and offline catalogs' are.
enum SearchParameters {
    /// The parameters that are not field names: the search's own and those of other routes that
    /// clients send along. A field with one of these names is filtered with `filter=`.
    static let reserved: Set<String> = [
        "q", "scope", "limit", "after", "before", "category", "country", "price", "filter", "facets", "sort",
        "position", "at", "lang", "format", "callback", "search",
    ]

    /// The most field parameters in one search.
    static let maxFieldParameters = 20

    /// The filter a request's `filter` and field parameters spell together, nil for none.
    static func filter(from request: Request) throws -> FilterExpression? {
        var conditions: [FilterExpression] = []
        if let text = request.query("filter") {
            do {
                conditions.append(try FilterExpression(parsing: text))
            } catch {
                throw HTTPError.badParameter("'filter' at character \(error.column): \(error.message)")
            }
        }
        var fields: [String: [String]] = [:]
        var order: [String] = []
        for (name, value) in request.query
        where !reserved.contains(name) && !name.hasPrefix("_") && !name.isEmpty {
            if fields[name] == nil { order.append(name) }
            fields[name, default: []].append(value)
        }
        guard order.count <= maxFieldParameters else {
            throw HTTPError.badParameter("at most \(maxFieldParameters) field parameters (Origin=Japan)")
        }
        for name in order {
            let values = fields[name]!
            guard values.count <= FilterExpression.maxListValues, values.allSatisfy({ $0.count <= 200 }) else {
                throw HTTPError.badParameter("'\(name.prefix(40))' has too many or too long values")
            }
            let tests = values.map { value -> FilterTest in
                let ends = value.components(separatedBy: "..")
                guard ends.count == 2, !(ends[0].isEmpty && ends[1].isEmpty) else {
                    return .compare(.equal, FilterValue(value))
                }
                return .range(
                    ends[0].isEmpty ? nil : FilterValue(ends[0]), ends[1].isEmpty ? nil : FilterValue(ends[1]))
            }
            if let any = FilterExpression.any(tests.map { .condition(FilterCondition(field: name, test: $0)) }) {
                conditions.append(any)
            }
        }
        return FilterExpression.all(conditions)
    }

    /// The search a request asks for, narrowed to the records `filter` (an API key's) passes.
    static func request(from request: Request, narrowedBy filter: RecordFilter? = nil) throws
        -> SearchRequest.Checked
    {
        do {
            var search = SearchRequest(query: request.query("q") ?? "")
            search.scope = request.query("scope")
            search.limit = try request.integer(
                "limit", in: 1...CatalogLimits.maxSearchLimit, default: CatalogLimits.defaultSearchLimit)
            search.after = try request.cursor()
            search.categories = try request.texts("category", maxLength: CatalogLimits.maxTextLength)
            search.countries = try request.texts("country")
            if let price = request.query("price") { search.price = try NumericRange.parse(parameter: price) }
            if let facets = try request.present("facets", maxLength: 1000) {
                search.facets = try SearchFacet.list(parameter: facets)
            }
            if let sort = try request.present("sort", maxLength: SearchSort.maxParameterLength) {
                search.sort = try SearchSort(parameter: sort)
            }
            search.filter = try Self.filter(from: request)
            if let filter { search = filter.narrowing(search) }
            return try search.checked()
        } catch let error as SearchRequestError {
            throw HTTPError.badParameter(error.message)
        }
    }
}
