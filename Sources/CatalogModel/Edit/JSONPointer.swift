import CatalogSupport
import Foundation

/// RFC 6901 JSON pointers, as problems of a request body spell them (``RecordProblem/pointer``,
/// a catalog's ``CatalogChangeError``): `""` is the whole document, `/3/upsert/price` a member of
/// an element; `~` is written `~0` and `/` is written `~1`.
///
/// ```swift
/// JSONPointer.make("labels", "a/b")   // "/labels/a~1b"
/// ```
public enum JSONPointer {
    /// `pointer` followed by the member `key`.
    public static func appending(_ pointer: String, _ key: String) -> String {
        guard key.utf8.contains(where: { $0 == 0x7E || $0 == 0x2F }) else { return pointer + "/" + key }
        return pointer + "/" + escape(key)
    }

    /// `pointer` followed by the array element `index`.
    public static func appending(_ pointer: String, _ index: Int) -> String {
        pointer + "/" + String(index)
    }

    /// `/` followed by each token, escaped.
    public static func make(_ tokens: String...) -> String {
        make(tokens)
    }

    /// `/` followed by each token, escaped.
    public static func make(_ tokens: [String]) -> String {
        tokens.map { "/" + escape($0) }.joined()
    }

    /// One token escaped.
    public static func escape(_ token: String) -> String {
        token.replacingScalars(of: "~", with: "~0").replacingScalars(of: "/", with: "~1")
    }

    /// The tokens of `pointer`, unescaped: `"/labels/a~1b"` is `["labels", "a/b"]`, `""` is `[]`.
    public static func tokens(_ pointer: String) -> [String] {
        pointer.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            String(String.UnicodeScalarView($0)).replacingScalars(of: "~1", with: "/").replacingScalars(
                of: "~0", with: "~")
        }
    }
}
