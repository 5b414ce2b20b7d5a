import CatalogAuth
import CatalogHTTP
import CatalogStorage
import Foundation

/// Who is signed in to the web app, and the CSRF token of their forms.
///
/// The session is an HttpOnly, SameSite=Lax cookie (`catalog_session`) made by
/// ``Authenticator/startSession(for:in:lifetime:)``. Every form that changes state carries a
/// token that must equal the `catalog_csrf` cookie (double submit; the cookie is HttpOnly and
/// SameSite=Strict, so another site can neither read nor send it), and a POST whose `Origin`
/// names another host is refused as well.
struct WebSession {
    static let sessionCookie = "catalog_session"
    static let csrfCookie = "catalog_csrf"
    static let lifetime: TimeInterval = 30 * 24 * 3600

    /// The signed-in user, if any.
    let user: User?
    /// The CSRF token for forms on this page.
    let csrf: String
    /// True when the CSRF cookie must be set with the response.
    let isNewCSRF: Bool

    init(request: Request, stores: any CatalogDatabase, authenticator: Authenticator) throws {
        let cookies = Self.cookies(request)
        if let value = cookies[Self.sessionCookie] {
            user = try authenticator.user(sessionCookie: value, in: stores.users())
        } else {
            user = nil
        }
        if let token = cookies[Self.csrfCookie], token.utf8.count == 43,
            token.utf8.allSatisfy({ Self.isTokenByte($0) })
        {
            csrf = token
            isNewCSRF = false
        } else {
            csrf = RandomBytes.system.base64URL(count: 32)
            isNewCSRF = true
        }
    }

    /// Adds the CSRF cookie when it is new.
    func decorate(_ response: inout Response) {
        if isNewCSRF {
            response.headers.add("Set-Cookie", "\(Self.csrfCookie)=\(csrf); Path=/; HttpOnly; SameSite=Strict")
        }
    }

    /// Checks a state-changing form: the token field equals the cookie, and the origin is ours.
    static func checkForm(_ request: Request, fields: [String: String]) throws {
        if let origin = request.headers["Origin"], let host = request.headers["Host"] {
            guard origin == "http://\(host)" || origin == "https://\(host)" else {
                throw HTTPError(.forbidden, code: "forbidden", "the form came from another site")
            }
        }
        guard let cookie = cookies(request)[csrfCookie], let field = fields["csrf"],
            ConstantTime.equal(Array(field.utf8), Array(cookie.utf8))
        else { throw HTTPError(.forbidden, code: "forbidden", "the form has expired; reload the page and try again") }
    }

    /// `name=value` pairs of the Cookie header.
    static func cookies(_ request: Request) -> [String: String] {
        var result: [String: String] = [:]
        for header in request.headers.values("Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                let name = parts[0].trimmingCharacters(in: .whitespaces)
                if result[name] == nil { result[name] = parts[1].trimmingCharacters(in: .whitespaces) }
            }
        }
        return result
    }

    static func isTokenByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D
            || byte == 0x5F
    }

    /// A form body (`application/x-www-form-urlencoded`) as fields.
    static func formFields(_ request: Request) throws -> [String: String] {
        let type = request.headers["Content-Type"]?.lowercased() ?? ""
        guard type.hasPrefix("application/x-www-form-urlencoded") else {
            throw HTTPError(.unsupportedMediaType, code: "unsupported_media_type", "send a form")
        }
        guard let parsed = Request(method: .post, target: "/?" + String(decoding: request.body, as: UTF8.self)) else {
            throw HTTPError.badParameter("the form is malformed")
        }
        var fields: [String: String] = [:]
        for (name, value) in parsed.query where fields[name] == nil { fields[name] = value }
        return fields
    }
}
