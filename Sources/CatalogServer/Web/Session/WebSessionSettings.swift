import CatalogAuth
import CatalogHTTP
import Foundation

/// What the web app's sessions share: how cookies are set and how form tokens are made.
struct WebSessionSettings: Sendable {
    /// Cookies carry `Secure` (the public URL is https): browsers then send them over https only.
    /// Without it they still do for a request a trusted proxy says came over https
    /// (``ClientAddress/scheme``).
    let secureCookies: Bool
    /// CSRF tokens: bound to the session when signed in, signed by this server before.
    let tokens: FormTokens
    /// Origins besides the request's own host that forms may come from (the public URL's).
    let trustedOrigins: [String]

    init(publicURL: String?, random: RandomBytes = .system) {
        secureCookies = publicURL?.lowercased().hasPrefix("https://") == true
        tokens = FormTokens(random: random)
        trustedOrigins = publicURL.flatMap(Self.origin).map { [$0] } ?? []
    }

    /// `Set-Cookie` value for `name=value` with the attributes every cookie of ours has, for an
    /// answer to `request`.
    func cookie(_ name: String, _ value: String, sameSite: String, maxAge: Int?, for request: Request) -> String {
        var text = "\(name)=\(value); Path=/; HttpOnly; SameSite=\(sameSite)"
        if let maxAge { text += "; Max-Age=\(maxAge)" }
        if secureCookies || request.client.scheme == "https" { text += "; Secure" }
        return text
    }

    /// `scheme://host[:port]` of an absolute URL, lower case.
    static func origin(_ url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host
        else { return nil }
        return "\(scheme)://\(host)".lowercased() + (components.port.map { ":\($0)" } ?? "")
    }
}
