import Foundation

/// Why a catalog could not be created or changed as asked: the document (or the options that
/// made it) has problems, each at a JSON pointer (`/locale`, `/roles/colour`), or the catalog is
/// no longer the revision the change was made against. Nothing changed.
///
/// The catalog's absence and an id already taken are ``StorageError``s
/// (`catalogNotFound`, `constraint`), as they are for every other route.
public struct CatalogChangeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for callers to match on; codes may be added.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The document is not JSON at all.
        public static let malformed = Code(name: "malformed")
        /// The document has problems (``CatalogChangeError/problems``).
        public static let invalid = Code(name: "invalid")
        /// The catalog changed since the revision the change names (`If-Match`).
        public static let staleRevision = Code(name: "staleRevision")

        /// The code's name.
        public let name: String

        public var description: String { name }
    }

    /// One problem of a document: where, and what is wrong there.
    public struct Problem: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
        /// An RFC 6901 JSON pointer into the document (`/labels/price/xx`); empty for the whole.
        public var pointer: String
        /// A sentence for users.
        public var message: String

        /// Creates a problem.
        public init(pointer: String, message: String) {
            self.pointer = pointer
            self.message = message
        }

        /// `/locale: unknown locale …`.
        public var description: String { pointer.isEmpty ? message : "\(pointer): \(message)" }
    }

    /// What went wrong.
    public let code: Code
    /// A sentence for users.
    public let message: String
    /// Every problem found, in document order (for ``Code/invalid``).
    public let problems: [Problem]

    /// Creates an error.
    public init(_ code: Code, _ message: String, problems: [Problem] = []) {
        self.code = code
        self.message = message
        self.problems = problems
    }

    /// The document's problems.
    public static func invalid(_ problems: [Problem]) -> CatalogChangeError {
        let count = problems.count == 1 ? "a problem" : "\(problems.count) problems"
        return CatalogChangeError(.invalid, "the catalog has \(count)", problems: problems)
    }

    /// One problem at `pointer`.
    public static func invalid(at pointer: String, _ message: String) -> CatalogChangeError {
        invalid([Problem(pointer: pointer, message: message)])
    }

    /// The message, then each problem.
    public var description: String {
        problems.isEmpty ? message : message + ": " + problems.map(\.description).joined(separator: "; ")
    }
}
