import CatalogHTTP
import CatalogModel
import CatalogStorage
import Foundation

/// The frame of every page: head with the fingerprinted assets and the manifest, a top bar with
/// the title and a back link, the main content, an optional tab bar, and the headers every page
/// carries. Every word comes from ``strings``.
struct PageLayout {
    var title: String
    var strings: WebStrings
    var back: (href: String, label: String)?
    var catalog: CatalogDefinition?
    var session: WebSession?
    var tabs: [Tab] = []
    /// The path and query of this page, for the sign-in link's return.
    var here: String = "/"
    /// `split` for a list that shows records beside it on wide screens.
    var mainClass: String?
    /// False on the sign-in page itself, which needs no sign-in link.
    var showsAccount = true
    /// schema.org JSON-LD describing the page's record.
    var structuredData: String?
    /// The canonical URL of the page, when it has one (detail pages).
    var canonical: String?
    /// The catalog's change number the page shows (``StoredCatalog/change``), read in the same
    /// snapshot as its records: the script follows the catalog's changes from there, so nothing
    /// written between the page and the stream is missed.
    var change: Int?

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
        html.raw("<meta name=\"theme-color\" content=\"#0a63d1\">")
        html.element("title", text: title)
        html.element("link", ["rel": "stylesheet", "href": WebAssets.stylesheet.path])
        if let catalog, let tint = catalog.rowTint {
            html.element("link", ["rel": "stylesheet", "href": WebPaths.theme(catalog.id, tint: tint)])
        }
        html.element("link", ["rel": "icon", "href": WebAssets.icon.path, "type": "image/svg+xml"])
        html.element("link", ["rel": "apple-touch-icon", "href": WebAssets.icon192.path])
        html.element("link", ["rel": "manifest", "href": "/manifest.webmanifest?lang=" + strings.language])
        if let canonical { html.element("link", ["rel": "canonical", "href": canonical]) }
        html.element("script", ["type": "module", "src": WebAssets.script.path])
        // The modules it imports, asked for at once rather than as each import is read.
        for module in WebAssets.modules where module.path != WebAssets.script.path {
            html.element("link", ["rel": "modulepreload", "href": module.path])
        }
        if let structuredData { html.scriptJSON(type: "application/ld+json", structuredData) }
        html.close("head")
        html.open(
            "body",
            [
                "data-catalog": catalog?.id, "data-tabs": tabs.isEmpty ? nil : "",
                "data-signed-in": session?.user == nil ? nil : "", "data-csrf": session?.csrf,
                "data-lang": strings.language, "data-messages": ClientMessages.json(strings),
                "data-change": change.map(String.init),
            ])
        html.element("a", ["class": "skip", "href": "#main"], text: strings[.skipToContent])
        html.open("header", ["class": "bar"])
        if let back {
            html.element("a", ["class": "back", "href": back.href, "rel": "up"]) {
                $0.raw("<span class=\"back-arrow\" aria-hidden=\"true\"></span>")
                $0.element("span", ["class": "back-label"], text: back.label)
            }
        }
        html.element("h1", ["class": "bar-title", "id": "bar-title"], text: title)
        html.open("div", ["class": "account"])
        if showsAccount, let session, let user = session.user {
            html.element("form", ["method": "post", "action": "/signout", "class": "signout"]) {
                $0.element("input", ["type": "hidden", "name": "csrf", "value": session.csrf])
                $0.element("button", ["type": "submit", "title": user.name], text: strings[.signOut])
            }
        } else if showsAccount {
            html.element(
                "a", ["href": "/signin?next=" + WebPaths.encode(here), "class": "signin"], text: strings[.signIn])
        }
        html.close("div")
        html.close("header")
        html.element("div", ["class": "banner", "id": "banner", "role": "alert", "hidden": ""]) {
            $0.element("span", ["id": "banner-text"], text: strings[.unreachable])
            $0.raw(" ")
            $0.element("button", ["type": "button", "id": "retry"], text: strings[.retry])
        }
        html.element(
            "div",
            [
                "class": "spinner", "id": "spinner", "role": "status", "aria-live": "polite", "hidden": "",
                "aria-label": strings[.loading],
            ])
        html.open("main", ["id": "main", "tabindex": "-1", "class": mainClass])
        content(&html)
        html.close("main")
        if !tabs.isEmpty {
            html.open("nav", ["class": "tabs", "aria-label": catalog?.title ?? title])
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
        WebHeaders.apply(to: &response, signedIn: session?.user != nil)
        session?.decorate(&response)
        return response
    }
}

/// The words the page's script needs, in the page's language: handed over in a data attribute.
/// Only words: every count, price and plural the script shows is written by the server.
enum ClientMessages {
    static let keys: [WebStrings.Key] = [
        .noResults, .unreachable, .pickRecord, .close, .offlineBanner, .imageUnavailable, .recordDeleted,
        .catalogDeleted, .deletedToast, .restored, .undo, .dismiss, .saved, .saving, .notSaved, .conflict,
        .recordExists, .problemsTitle, .problemRecord, .problemID, .removeCategory, .previewShown, .mappingDetected,
        .importing, .importRead, .importFailed, .problemCatalogID, .problemCatalogTitle, .problemLocale, .problemLabel,
        .problemSource, .recentlyViewed, .clearRecent, .offlineSearch,
    ]

    static func json(_ strings: WebStrings) -> String {
        var output = JSONOutput(capacity: 2048)
        output.raw("{")
        for (index, key) in keys.enumerated() {
            if index > 0 { output.raw(",") }
            output.string(key.rawValue)
            output.raw(":")
            switch WebStrings.table(strings.language)[key.rawValue] {
            case .plural(let forms):
                output.raw("{")
                for (position, form) in forms.keys.sorted().enumerated() {
                    if position > 0 { output.raw(",") }
                    output.string(form)
                    output.raw(":")
                    output.string(forms[form] ?? "")
                }
                output.raw("}")
            default:
                output.string(strings[key])
            }
        }
        output.raw("}")
        return String(decoding: output.bytes, as: UTF8.self)
    }
}

/// Headers of every page.
enum WebHeaders {
    /// No inline script or style anywhere: only our own fingerprinted files, images from here
    /// (and https for imported catalogs' remote pictures), the manifest and the service worker.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; "
        + "connect-src 'self'; manifest-src 'self'; worker-src 'self'; form-action 'self'; frame-ancestors 'none'; "
        + "base-uri 'none'"

    /// The headers of a page; `signedIn` when it was made for a signed-in user.
    ///
    /// A page made for someone (their name on the sign-out button, their favorites, their
    /// form token) is never stored anywhere: `private, no-store`, which the service worker obeys
    /// too, so a shared device keeps nothing of theirs once they sign out. Pages for anonymous
    /// visitors are the same for everyone with the same cookies and language, revalidated
    /// with their ETag (``PrivateResponsesMiddleware`` makes any response that sets a cookie
    /// private).
    static func apply(to response: inout Response, signedIn: Bool) {
        response.headers.add("Content-Security-Policy", contentSecurityPolicy)
        response.headers.add("Cache-Control", signedIn ? personal : "no-cache")
        // They depend on the session cookie and on the language a browser asks for (the home
        // and sign-in pages).
        response.headers.add("Vary", "Accept-Language, Cookie")
    }

    /// The `Cache-Control` of every response that depends on who is signed in.
    static let personal = "private, no-store"
}

/// Building the web app's URLs.
enum WebPaths {
    static func encode(_ value: String) -> String {
        var output = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                output.unicodeScalars.append(UnicodeScalar(byte))
            default:
                output +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return output
    }

    static func catalog(_ id: String) -> String { "/c/" + encode(id) }

    static func item(_ catalog: String, _ item: String) -> String { "/c/" + encode(catalog) + "/i/" + encode(item) }

    static func category(_ catalog: String, _ number: Int) -> String {
        "/c/" + encode(catalog) + "/categories/\(number)"
    }

    /// The catalog's stylesheet of its own (the row tint), named after the tint so a changed tint
    /// is a new file.
    static func theme(_ catalog: String, tint: RowTint) -> String {
        "/themes/" + encode(catalog) + "/" + String(format: "%02x%02x%02x", tint.red, tint.green, tint.blue) + ".css"
    }

    /// A query string from the pairs whose value is not nil, or "" when none.
    static func query(_ pairs: [(String, String?)]) -> String {
        let parts = pairs.compactMap { name, value in value.map { encode(name) + "=" + encode($0) } }
        return parts.isEmpty ? "" : "?" + parts.joined(separator: "&")
    }
}
