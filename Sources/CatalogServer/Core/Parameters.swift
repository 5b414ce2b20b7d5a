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

/// The search parameters of the API and the web app: `q`, `scope`, `category` (repeatable: all
/// must hold), `country` (repeatable: any may hold), `price=MIN..MAX`, `facets=categories,country`,
/// `sort=relevance|title|-title|price|-price`, `after`, `limit`.
enum SearchParameters {
    static func request(from request: Request) throws -> SearchRequest {
        var search = SearchRequest(query: try request.text("q", maxLength: 200) ?? "")
        search.scope = try request.text("scope", maxLength: 200)
        search.limit = try request.integer("limit", in: 1...SearchRequest.maxLimit, default: 50)
        search.after = try request.cursor()
        search.categories = try request.texts("category", maxLength: 200)
        search.countries = try request.texts("country", maxLength: 2).map { code in
            guard code.count == 2, code.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic }) else {
                throw HTTPError.badParameter("'country' must be a two-letter ISO 3166 code")
            }
            return code.uppercased()
        }
        if let price = request.query("price"), price != ".." {
            guard price.count <= 60, let range = NumericRange(parsing: price) else {
                throw HTTPError.badParameter("'price' must be MIN..MAX, either side may be empty")
            }
            search.price = range
        }
        if let facets = try request.present("facets", maxLength: 60) {
            search.facets = try facets.split(separator: ",").map { name in
                guard let facet = SearchFacet(rawValue: String(name)) else {
                    throw HTTPError.badParameter("'facets' takes categories and/or country")
                }
                return facet
            }
        }
        if let sort = try request.present("sort", maxLength: 20) {
            guard let order = SearchSort(rawValue: sort) else {
                throw HTTPError.badParameter("'sort' must be relevance, title, -title, price or -price")
            }
            search.sort = order
        }
        do {
            return try search.checked()
        } catch {
            throw HTTPError.badParameter(error.message)
        }
    }
}
