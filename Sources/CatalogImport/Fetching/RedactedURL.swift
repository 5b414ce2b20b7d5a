import Foundation

/// `url` fit for a message: a password in its user information becomes `***`
/// (`https://user:***@host/feed.xml`), and so does a user name given alone, which is often a
/// token (`https://***@host/feed.xml`). Anything that is not a URL with user information comes
/// back unchanged.
func redactedURL(_ url: String) -> String {
    guard let separator = url.range(of: "://") else { return url }
    let authorityStart = separator.upperBound
    let authorityEnd = url[authorityStart...].firstIndex { "/?#".contains($0) } ?? url.endIndex
    guard let at = url[authorityStart..<authorityEnd].lastIndex(of: "@") else { return url }
    let userInformation = url[authorityStart..<at]
    let shown: String
    if let colon = userInformation.firstIndex(of: ":") {
        shown = userInformation[..<colon] + ":***"
    } else {
        shown = "***"
    }
    return url[..<authorityStart] + shown + url[at...]
}
