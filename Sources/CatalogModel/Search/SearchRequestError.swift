import Foundation

/// Why a ``SearchRequest`` cannot be run: the parameter and what is wrong with it. Each kind of
/// mistake has one wording, written where the value is parsed (``CountryCode/init(parsing:)``,
/// ``SearchSort/init(parameter:)``, ``NumericRange/parse(parameter:)``,
/// ``SearchFacet/list(parameter:)``, and CatalogCore's `SearchRequest.Checked`).
public struct SearchRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A sentence naming the parameter (`'limit' must be …`).
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

extension CountryCode {
    /// The code a search parameter (`country=de`) spells.
    ///
    /// - Throws: ``SearchRequestError`` `'country' must be a two-letter ISO 3166 code`.
    public init(parsing text: some StringProtocol) throws(SearchRequestError) {
        guard let code = CountryCode(text) else {
            throw SearchRequestError("'country' must be \(CountryCode.requirement)")
        }
        self = code
    }
}

extension SearchSort {
    /// The order a `sort` parameter names: `relevance`, or up to ``maxKeys`` comma-separated
    /// keys, each `title`, `price` or a field's name, `-` in front for descending. Whether the
    /// catalog has the fields named is the search's to say.
    ///
    /// - Throws: ``SearchRequestError`` for an empty or repeated key, too many keys, or
    ///   `relevance` among other keys.
    public init(parameter text: String) throws(SearchRequestError) {
        if text == "relevance" {
            self = .relevance
            return
        }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= Self.maxKeys else {
            throw SearchRequestError("'sort' takes at most \(Self.maxKeys) keys")
        }
        var keys: [Key] = []
        for part in parts {
            let descending = part.hasPrefix("-")
            let name = String(descending ? part.dropFirst() : part).trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else {
                throw SearchRequestError("'sort' has an empty key: each is title, price or a field's name")
            }
            guard name.utf8.count <= Self.maxFieldBytes, !name.utf8.contains(0) else {
                throw SearchRequestError("'sort' names a field longer than \(Self.maxFieldBytes) bytes")
            }
            guard name != "relevance" else {
                throw SearchRequestError("'sort' takes relevance alone, not as one of several keys")
            }
            let field: Field =
                switch name {
                case "title": .title
                case "price": .price
                default: .field(name)
                }
            guard !keys.contains(where: { $0.field == field }) else {
                throw SearchRequestError("'sort' names \"\(name.prefix(80))\" twice")
            }
            keys.append(Key(field, descending: descending))
        }
        self.init(keys: keys)
    }
}

extension SearchFacet {
    /// The facets a `facets` parameter lists, comma-separated: `categories`, `country` or any
    /// field's name (whether the catalog has the field, its search decides).
    ///
    /// - Throws: ``SearchRequestError`` for a name that cannot be a facet.
    public static func list(parameter text: String) throws(SearchRequestError) -> [SearchFacet] {
        try text.split(separator: ",").map { (name: Substring) throws(SearchRequestError) -> SearchFacet in
            guard let facet = SearchFacet(rawValue: String(name)) else {
                throw SearchRequestError(
                    "'facets' takes categories, country or field names, comma-separated; "
                        + "\"\(name.prefix(40))\" is not one")
            }
            return facet
        }
    }
}

extension NumericRange {
    /// The longest `price` parameter read, in characters.
    public static let maxParameterLength = 60

    /// The range a `price` parameter spells (`MIN..MAX`, either side may be empty); nil for `..`.
    ///
    /// - Throws: ``SearchRequestError`` for a malformed or overlong range.
    public static func parse(parameter text: String) throws(SearchRequestError) -> NumericRange? {
        guard text != ".." else { return nil }
        guard text.count <= maxParameterLength, let range = NumericRange(parsing: text) else {
            throw SearchRequestError("'price' must be MIN..MAX, either side may be empty")
        }
        return range
    }
}
