import Foundation

/// A PostgreSQL database named by a `postgres://` or `postgresql://` URL: the URL as given, which
/// libpq reads (host, port, user, password, database, `sslmode` and every other parameter), and
/// the same URL without its password, for messages and logs.
///
/// ```swift
/// let location = PostgresLocation("postgres://ada:secret@db.example/catalog?sslmode=require")
/// location.redacted  // "postgres://ada@db.example/catalog?sslmode=require"
/// ```
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    /// The URL exactly as given.
    public let url: String
    /// The URL without a password in its user part or its parameters.
    public let redacted: String
    /// The password as written and percent-decoded, to keep out of any message.
    let secrets: [String]

    /// Whether `text` is a PostgreSQL URL.
    public static func isPostgres(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Reads a URL; anything that is not a well-formed `postgres://` URL is left for libpq to
    /// reject, with its password (if one can be found) still hidden.
    public init(_ url: String) {
        self.url = url
        var secrets: [String] = []
        guard let schemeEnd = url.firstRange(of: "://") else {
            redacted = url
            self.secrets = []
            return
        }
        let scheme = url[..<schemeEnd.upperBound]
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var authority = String(rest[..<authorityEnd])
        var tail = String(rest[authorityEnd...])
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            if let colon = userInfo.firstIndex(of: ":") {
                let password = String(userInfo[userInfo.index(after: colon)...])
                secrets.append(password)
                authority = String(userInfo[..<colon]) + authority[at...]
            }
        }
        if let question = tail.firstIndex(of: "?") {
            let parameters = tail[tail.index(after: question)...].split(
                separator: "&", omittingEmptySubsequences: false)
            var kept: [Substring] = []
            for parameter in parameters {
                if parameter.lowercased().hasPrefix("password=") {
                    secrets.append(String(parameter.dropFirst("password=".count)))
                } else {
                    kept.append(parameter)
                }
            }
            tail = String(tail[..<question]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
        }
        for secret in secrets {
            if let decoded = secret.removingPercentEncoding, decoded != secret { secrets.append(decoded) }
        }
        self.secrets = secrets.filter { !$0.isEmpty }
        redacted = scheme + authority + tail
    }

    public var description: String { redacted }

    /// `text` with every occurrence of the password replaced.
    func scrubbed(_ text: String) -> String {
        var result = text
        for secret in secrets { result = result.replacing(secret, with: "***") }
        return result
    }
}
