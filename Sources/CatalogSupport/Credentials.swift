/// The one rule for keeping secrets out of what the server shows: URLs lose their passwords and
/// their secret-looking query parameters before they appear in a message, a log line, a snapshot
/// or an answer.
///
/// A feed URL such as `https://shop:s3cret@feeds.example/items.xml?token=abc` is kept as given
/// where the server needs it (to download the feed again), and written everywhere else as
/// `https://shop:***@feeds.example/items.xml?token=***`. A web URL's user name given alone is
/// usually a token and is hidden too (`https://***@host/feed.xml`); a database URL's is not.
///
/// ```swift
/// Credentials.redacted(url: "postgres://ada:secret@db/catalog")      // "postgres://ada:***@db/catalog"
/// Credentials.scrubbed("cannot download https://u:p@h/f.xml: HTTP 404")  // "… https://u:***@h/f.xml: …"
/// ```
///
/// The user part of a URL runs to the last `@` before the path's query, so a password written
/// with an unencoded `@` or `/` (`postgres://u:p@ss/w@host/db`) is hidden whole, not cut at its
/// first special character.
public enum Credentials {
    /// What stands in for a secret.
    public static let mask = "***"

    /// Query parameters whose values are secrets, compared ignoring ASCII case.
    public static let sensitiveParameters: Set<String> = [
        "password", "passwd", "pwd", "pass", "token", "access_token", "api_key", "apikey", "key", "secret",
        "client_secret", "auth", "signature", "sig",
    ]

    /// `url` with the password of its user part, and the values of secret query parameters,
    /// replaced by ``mask``. Text that is not a URL is returned as it is.
    public static func redacted(url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://"), isScheme(url[..<schemeEnd.lowerBound]) else { return url }
        let rest = url[schemeEnd.upperBound...]
        // The user part ends at the last '@' before the query or fragment: a password with an
        // unencoded '/' or '@' is still all of it.
        let queryStart = rest.firstIndex { $0 == "?" || $0 == "#" } ?? rest.endIndex
        var output = String(url[..<schemeEnd.upperBound])
        var afterAuthority = rest.startIndex
        if let at = rest[..<queryStart].lastIndex(of: "@") {
            let userInfo = rest[..<at]
            if let colon = userInfo.firstIndex(of: ":") {
                output += rest[..<colon]
                output += ":" + mask
            } else if ["http", "https"].contains(url[..<schemeEnd.lowerBound].lowercased()) {
                // A web URL's user name alone is usually a token (`https://TOKEN@host/feed.xml`).
                output += mask
            } else {
                output += userInfo
            }
            output += "@"
            afterAuthority = rest.index(after: at)
        }
        output += rest[afterAuthority..<queryStart]
        if queryStart < rest.endIndex {
            output += redactedQuery(rest[queryStart...])
        }
        return output
    }

    /// `text` with every URL in it redacted as ``redacted(url:)`` does; a URL ends at white space,
    /// a quote or an angle bracket.
    public static func scrubbed(_ text: String) -> String {
        guard text.contains("://") else { return text }
        var output = ""
        var rest = Substring(text)
        while let separator = rest.firstRange(of: "://") {
            // Back up over the scheme's letters.
            var start = separator.lowerBound
            while start > rest.startIndex {
                let previous = rest.index(before: start)
                let character = rest[previous]
                guard character.isASCII, character.isLetter || character.isNumber || "+-.".contains(character) else {
                    break
                }
                start = previous
            }
            let end = rest[separator.upperBound...].firstIndex(where: endsURL) ?? rest.endIndex
            output += rest[..<start]
            let found = String(rest[start..<end])
            output += start < separator.lowerBound ? redacted(url: found) : found
            rest = rest[end...]
        }
        return output + rest
    }

    /// Whether `name` is a query parameter whose value is a secret.
    public static func isSensitive(parameter name: Substring) -> Bool {
        sensitiveParameters.contains(name.lowercased())
    }

    // MARK: - Internals

    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    private static func endsURL(_ character: Character) -> Bool {
        character.isWhitespace || character == "\"" || character == "'" || character == "<" || character == ">"
            || character == "`"
    }

    /// `?a=1&token=x#f` → `?a=1&token=***#f`.
    private static func redactedQuery(_ tail: Substring) -> String {
        let fragmentStart = tail.firstIndex(of: "#") ?? tail.endIndex
        guard tail.first == "?" else { return String(tail) }
        let query = tail[tail.index(after: tail.startIndex)..<fragmentStart]
        let parameters = query.split(separator: "&", omittingEmptySubsequences: false).map { parameter -> String in
            guard let equals = parameter.firstIndex(of: "="), isSensitive(parameter: parameter[..<equals]) else {
                return String(parameter)
            }
            return parameter[...equals] + mask
        }
        return "?" + parameters.joined(separator: "&") + tail[fragmentStart...]
    }
}
