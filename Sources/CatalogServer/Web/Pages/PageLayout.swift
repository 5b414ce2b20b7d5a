import CatalogHTTP
import CatalogStorage

/// The frame of every page: head with the fingerprinted assets, a top bar with the title and a
/// back link, the main content, an optional tab bar, and the headers every page carries.
struct PageLayout {
    var title: String
    var strings: WebStrings
    var back: (href: String, label: String)?
    var catalogID: String?
    var session: WebSession
    var tabs: [Tab] = []
    /// The path and query of this page, for the sign-in link's return.
    var here: String = "/"
    /// `split` for a list that shows records beside it on wide screens.
    var mainClass: String?
    /// False on the sign-in page itself, which needs no sign-in link.
    var showsAccount = true

    struct Tab {
        var label: String
        var href: String
        var selected: Bool
        var icon: StaticString
    }

    func render(status: HTTPStatus = .ok, _ content: (inout HTMLWriter) -> Void) -> Response {
        var html = HTMLWriter()
        html.raw("<!doctype html>")
        html.open("html", ["lang": strings.language])
        html.open("head")
        html.raw("<meta charset=\"utf-8\">")
        html.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1, viewport-fit=cover\">")
        html.raw("<meta name=\"color-scheme\" content=\"light dark\">")
        html.element("title", text: title)
        html.element("link", ["rel": "stylesheet", "href": WebAssets.stylesheet.path])
        html.element("link", ["rel": "icon", "href": WebAssets.icon.path, "type": "image/svg+xml"])
        html.element("script", ["type": "module", "src": WebAssets.script.path])
        html.close("head")
        html.open("body", ["data-catalog": catalogID, "data-tabs": tabs.isEmpty ? nil : ""])
        html.element("a", ["class": "skip", "href": "#main"], text: "Skip to content")
        html.open("header", ["class": "bar"])
        if let back {
            html.element("a", ["class": "back", "href": back.href, "rel": "up"]) {
                $0.raw("<span class=\"back-arrow\" aria-hidden=\"true\"></span>")
                $0.text(back.label)
            }
        }
        html.element("h1", ["class": "bar-title"], text: title)
        html.open("div", ["class": "account"])
        if showsAccount, let user = session.user {
            html.element("form", ["method": "post", "action": "/signout", "class": "signout"]) {
                $0.element("input", ["type": "hidden", "name": "csrf", "value": session.csrf])
                $0.element("button", ["type": "submit", "title": user.name], text: strings.signOut)
            }
        } else if showsAccount {
            html.element(
                "a", ["href": "/signin?next=" + WebPaths.encode(here), "class": "signin"], text: strings.signIn)
        }
        html.close("div")
        html.close("header")
        html.element("div", ["class": "banner", "id": "banner", "role": "alert", "hidden": ""]) {
            $0.element("span", text: strings.unreachable)
            $0.raw(" ")
            $0.element("button", ["type": "button", "id": "retry"], text: strings.retry)
        }
        html.element(
            "div", ["class": "spinner", "id": "spinner", "role": "status", "aria-live": "polite", "hidden": ""])
        html.open("main", ["id": "main", "tabindex": "-1", "class": mainClass])
        content(&html)
        html.close("main")
        if !tabs.isEmpty {
            html.open("nav", ["class": "tabs", "aria-label": title])
            for tab in tabs {
                html.element("a", ["href": tab.href, "class": "tab", "aria-current": tab.selected ? "page" : nil]) {
                    $0.element("span", ["class": "tab-icon", "aria-hidden": "true"]) { $0.raw(tab.icon) }
                    $0.element("span", ["class": "tab-label"], text: tab.label)
                }
            }
            html.close("nav")
        }
        html.close("body")
        html.close("html")
        var response = Response.text(html.output, status: status, contentType: "text/html; charset=utf-8")
        WebHeaders.apply(to: &response)
        session.decorate(&response)
        return response
    }
}

/// Headers of every page.
enum WebHeaders {
    /// No inline script or style anywhere: only our own fingerprinted files, images from here
    /// (and https for imported catalogs' remote pictures).
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; "
        + "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    static func apply(to response: inout Response) {
        response.headers.add("Content-Security-Policy", contentSecurityPolicy)
        // Pages depend on the session cookie: private, revalidated with their ETag.
        response.headers.add("Cache-Control", "private, no-cache")
    }
}

/// Building the web app's URLs.
enum WebPaths {
    static func encode(_ value: String) -> String {
        var allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        allowed.remove(0)
        var output = ""
        for byte in value.utf8 {
            if allowed.contains(byte) {
                output.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                output +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return output
    }

    static func catalog(_ id: String) -> String { "/c/" + encode(id) }

    static func item(_ catalog: String, _ item: String) -> String { "/c/" + encode(catalog) + "/i/" + encode(item) }

    /// A query string from the pairs whose value is not nil, or "" when none.
    static func query(_ pairs: KeyValuePairs<String, String?>) -> String {
        let parts = pairs.compactMap { name, value in value.map { encode(name) + "=" + encode($0) } }
        return parts.isEmpty ? "" : "?" + parts.joined(separator: "&")
    }
}
