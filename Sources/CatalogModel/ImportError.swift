import CatalogSupport

/// Why an import failed, and where.
///
/// `description` is one line a user can act on: `products.csv:12:7: unterminated quoted field`.
public struct ImportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is, for callers that react to it.
    public enum Code: String, Sendable, Equatable, CaseIterable {
        /// The input is not well-formed XML, JSON or CSV.
        case malformed
        /// The input is not valid UTF-8 (or declares an encoding we do not read).
        case encoding
        /// The input holds no records, or is empty.
        case empty
        /// The record element, table or column asked for does not exist.
        case notFound
        /// A value does not fit its role (a price that is not a number, …).
        case invalidValue
        /// A usage problem: unknown role, unknown format, conflicting options.
        case invalidArgument
        /// The document uses a feature we refuse (DTD entities, external entities).
        case forbidden
        /// The input exceeds a limit (size, depth, field length).
        case tooLarge
        /// Reading the file or URL failed (missing file, HTTP status, timeout).
        case io
    }

    /// What kind of failure this is.
    public var code: Code
    /// The explanation, without the location.
    public var message: String
    /// Where the problem is, as precisely as known.
    public var location: SourceLocation
    /// The field involved, if any.
    public var field: String?

    /// Creates an error.
    public init(_ code: Code, _ message: String, at location: SourceLocation = SourceLocation(), field: String? = nil) {
        self.code = code
        self.message = message
        self.location = location
        self.field = field
    }

    /// `file:line:column: field "price": message`, with any URL's password hidden
    /// (``Credentials``).
    public var description: String {
        // An error of the options or the mapping is not at a place in the input.
        var text = location == SourceLocation() ? "" : "\(location): "
        if let field { text += "field \"\(field)\": " }
        return Credentials.scrubbed(text + message)
    }
}
