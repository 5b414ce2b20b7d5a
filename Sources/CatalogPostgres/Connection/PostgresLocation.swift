import CatalogModel
import CatalogSupport
import Foundation

/// A PostgreSQL database named by a `postgres://` or `postgresql://` URL: the URL as given, which
/// libpq reads (host, port, user, password, database, `sslmode` and every other parameter), and
/// the same URL with its password hidden (``Credentials``), for messages and logs.
///
/// ```swift
/// let location = PostgresLocation("postgres://ada:secret@db.example/catalog?sslmode=require")
/// location.redacted  // "postgres://ada:***@db.example/catalog?sslmode=require"
/// ```
///
/// A user part that libpq would read differently from what was meant (a password with an
/// unencoded `@`, `/`, `?` or `#`: libpq takes what follows for the host and quotes it in its
/// errors) is refused before libpq sees it: ``problem``.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    /// The URL exactly as given.
    public let url: String
    /// The URL with the password of its user part and its parameters hidden.
    public let redacted: String
    /// The password as written and percent-decoded, to keep out of any message.
    let secrets: [String]
    /// Why the URL cannot be handed to libpq as it is, if it cannot.
    public let problem: String?

    /// Whether `text` is a PostgreSQL URL.
    public static func isPostgres(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Reads a URL; anything that is not a well-formed `postgres://` URL is left for libpq to
    /// reject, with its password (if one can be found) still hidden.
    public init(_ url: String) {
        self.url = url
        var redacted = Credentials.redacted(url: url)
        var secrets: [String] = []
        var problem: String?
        if let schemeEnd = url.firstRange(of: "://") {
            let rest = url[schemeEnd.upperBound...]
            let queryStart = rest.firstIndex { $0 == "?" || $0 == "#" } ?? rest.endIndex
            // The user part runs to the last '@' before the parameters, as ``Credentials`` reads it.
            if let at = rest[..<queryStart].lastIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":") {
                secrets.append(String(rest[rest.index(after: colon)..<at]))
            }
            // A password with an unencoded '?' or '#' hides its end from that reading (when no
            // path comes before it, the '?' cannot start the parameters): the last '@' tells.
            // Such a URL is refused, shown only up to the user name.
            let userEnd =
                rest[..<queryStart].contains("@") || rest[..<queryStart].contains("/")
                ? rest[..<queryStart].lastIndex(of: "@") : rest.lastIndex(of: "@")
            if let at = userEnd, let colon = rest[..<at].firstIndex(of: ":"),
                let bad = rest[rest.index(after: colon)..<at].first(where: { "@/?#[] ".contains($0) })
            {
                secrets.append(String(rest[rest.index(after: colon)..<at]))
                redacted =
                    url[..<schemeEnd.upperBound] + rest[..<colon] + ":" + Credentials.mask + "@"
                    + Credentials.redacted(url: "x://" + rest[rest.index(after: at)...]).dropFirst(4)
                problem =
                    "the password holds \"\(bad == " " ? "a space" : String(bad))\", which must be percent-encoded "
                    + "in a URL (@ as %40, / as %2F, ? as %3F, # as %23, space as %20)"
            }
            if queryStart < rest.endIndex {
                for parameter in rest[rest.index(after: queryStart)...].split(separator: "&")
                where parameter.lowercased().hasPrefix("password=") {
                    secrets.append(String(parameter.dropFirst("password=".count)))
                }
            }
        }
        self.redacted = redacted
        for secret in secrets {
            if let decoded = secret.removingPercentEncoding, decoded != secret { secrets.append(decoded) }
        }
        self.secrets = secrets.filter { !$0.isEmpty }
        self.problem = problem
    }

    public var description: String { redacted }

    /// `text` with every occurrence of the password replaced.
    func scrubbed(_ text: String) -> String {
        var result = text
        for secret in secrets.sorted(by: { $0.count > $1.count }) { result = result.replacing(secret, with: "***") }
        return Credentials.scrubbed(result)
    }
}
