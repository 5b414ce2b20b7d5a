/// Why a ``SearchRequest`` cannot be run: the parameter and what is wrong with it.
public struct SearchRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A sentence naming the parameter (`'limit' must be …`).
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

extension SearchRequest {
    /// The longest query, scope or category label accepted, in characters.
    public static let maxTextLength = 200
    /// The most category or country filters one request carries.
    public static let maxFilters = 20

    /// The request as every search runs it (the server's API, the web app and offline catalogs):
    /// country codes upper-cased, an empty scope meaning all records, empty filters dropped.
    ///
    /// - Throws: ``SearchRequestError`` for a request the server would answer with 400.
    public func checked() throws(SearchRequestError) -> SearchRequest {
        var request = self
        guard query.count <= Self.maxTextLength else {
            throw SearchRequestError("'q' is longer than \(Self.maxTextLength) characters")
        }
        if request.scope?.isEmpty == true { request.scope = nil }
        if let scope = request.scope, scope.count > Self.maxTextLength {
            throw SearchRequestError("'scope' is longer than \(Self.maxTextLength) characters")
        }
        guard (1...Self.maxLimit).contains(limit) else {
            throw SearchRequestError("'limit' must be a whole number from 1 to \(Self.maxLimit)")
        }
        request.categories = categories.filter { !$0.isEmpty }
        guard request.categories.count <= Self.maxFilters else {
            throw SearchRequestError("at most \(Self.maxFilters) 'category' values")
        }
        if request.categories.contains(where: { $0.count > Self.maxTextLength }) {
            throw SearchRequestError("'category' is longer than \(Self.maxTextLength) characters")
        }
        let countries = countries.filter { !$0.isEmpty }
        guard countries.count <= Self.maxFilters else {
            throw SearchRequestError("at most \(Self.maxFilters) 'country' values")
        }
        request.countries = try countries.map { code throws(SearchRequestError) in
            guard code.count == 2, code.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic }) else {
                throw SearchRequestError("'country' must be a two-letter ISO 3166 code")
            }
            return code.uppercased()
        }
        if let after {
            guard !after.isEmpty, after.utf8.count <= 4096 else { throw SearchRequestError("'after' is not a cursor") }
        }
        return request
    }
}
