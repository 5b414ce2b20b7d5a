import CatalogModel
import CatalogStorage

/// Where the next page of a search starts: opaque to clients, checked strictly.
///
/// - Ranked results: the tier and document number of the last result (`r3.1f0x`); the next page
///   continues in that tier after that document, then in the tiers below.
/// - Sorted results (by title, price, or an empty query in index order): the position in that
///   order (`o2a1`).
///
/// Both are base-36 numbers, so a cursor never needs escaping in a URL.
public enum SearchCursor: Sendable, Equatable {
    case ranked(tier: Int, document: Int)
    case ordered(position: Int)

    /// The text form.
    public var text: String {
        switch self {
        case .ranked(let tier, let document): "r\(tier).\(String(document, radix: 36))"
        case .ordered(let position): "o\(String(position, radix: 36))"
        }
    }

    /// Parses a cursor of a previous page.
    ///
    /// - Throws: ``StorageError`` `.invalidArgument` for anything else.
    public init(parsing text: String) throws(StorageError) {
        func number(_ digits: Substring) -> Int? {
            guard (1...12).contains(digits.utf8.count),
                digits.utf8.allSatisfy({ (48...57).contains($0) || (97...122).contains($0) })
            else { return nil }
            return Int(digits, radix: 36)
        }
        let invalid = StorageError(.invalidArgument, "invalid cursor \"\(text.prefix(32))\"")
        if text.hasPrefix("r") {
            let parts = text.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, let tier = Int(parts[0]), (0..<SearchTier.allCases.count).contains(tier),
                parts[0].utf8.allSatisfy({ (48...57).contains($0) }), let document = number(parts[1])
            else { throw invalid }
            self = .ranked(tier: tier, document: document)
        } else if text.hasPrefix("o"), let position = number(text.dropFirst()) {
            self = .ordered(position: position)
        } else {
            throw invalid
        }
    }
}
