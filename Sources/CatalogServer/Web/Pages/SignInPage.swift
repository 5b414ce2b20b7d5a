import CatalogHTTP
import CatalogModel
import Foundation

/// `/signin`: name and password (users from `catalog user add … --password-stdin`).
struct SignInPage {
    /// What the page reports above the form.
    enum Outcome: Equatable {
        /// Nothing yet.
        case form
        /// A wrong name or password (401).
        case failed
        /// Too many failed sign-ins: 429 with `Retry-After`, and the page says when to try again.
        case locked(retryAfter: Int)
    }

    let session: WebSession
    let next: String
    let outcome: Outcome
    /// The words: those of the catalog the sign-in returns to, else the browser's language.
    let strings: WebStrings
    /// The catalog the sign-in returns to, whose tabs the page keeps.
    var catalog: CatalogDefinition?
    /// The name typed before a refused sign-in, drawn into the form again (the password never is).
    var name = ""

    func render() -> Response {
        let strings = strings
        var back: (href: String, label: String) = ("/", strings[.catalogs])
        if let catalog, next != "/" { back = (next, catalog.title) }
        var layout = PageLayout(
            title: strings[.signIn], strings: strings, back: back, catalog: catalog, session: session,
            tabs: catalog.map { CollectionPages.tabs(for: $0, strings: strings, selected: "favorites") } ?? [])
        if let catalog, !next.hasSuffix("/favorites") {
            layout.tabs = CollectionPages.tabs(for: catalog, strings: strings, selected: "")
        }
        layout.showsAccount = false
        let status: HTTPStatus
        switch outcome {
        case .form: status = .ok
        case .failed: status = .unauthorized
        case .locked: status = .tooManyRequests
        }
        var response = layout.render(status: status) { html in
            html.open("form", ["method": "post", "action": "/signin", "class": "signin-form"])
            switch outcome {
            case .form: break
            case .failed:
                html.element("p", ["class": "error", "role": "alert"], text: strings[.wrongCredentials])
            case .locked(let seconds):
                html.element(
                    "p", ["class": "error", "role": "alert", "id": "signin-wait"],
                    text: Self.waitMessage(seconds: seconds, now: Date(), strings: strings))
            }
            html.element("input", ["type": "hidden", "name": "csrf", "value": session.csrf])
            html.element("input", ["type": "hidden", "name": "next", "value": next])
            // The favorites kept in this browser, filled in by the script: merged into the account.
            html.element("input", ["type": "hidden", "name": "favorites", "id": "local-favorites", "value": ""])
            html.element("label", ["for": "name"], text: strings[.name])
            html.element(
                "input",
                [
                    "id": "name", "name": "name", "autocomplete": "username", "required": "", "maxlength": "64",
                    "autocapitalize": "off", "value": name.isEmpty ? nil : String(name.prefix(64)),
                ])
            html.element("label", ["for": "password"], text: strings[.password])
            html.open("div", ["class": "password-field"])
            html.element(
                "input",
                [
                    "id": "password", "name": "password", "type": "password", "autocomplete": "current-password",
                    "required": "", "maxlength": "1024",
                    "autofocus": outcome == .form || name.isEmpty ? nil : "",
                ])
            // Shown by the script (signin.js), which switches the field between hidden and plain text.
            html.element(
                "button",
                [
                    "type": "button", "id": "show-password", "class": "show-password", "aria-pressed": "false",
                    "aria-controls": "password", "hidden": "",
                ], text: strings[.showPassword])
            html.close("div")
            html.element("button", ["type": "submit", "id": "signin-submit"], text: strings[.signIn])
            html.close("form")
        }
        if case .locked(let seconds) = outcome { response.headers["Retry-After"] = String(seconds) }
        return response
    }

    /// "Too many failed sign-ins. Try again in 2 minutes (after 14:05:09 UTC)." in the page's language.
    static func waitMessage(seconds: Int, now: Date, strings: WebStrings) -> String {
        let wait = seconds < 60 ? strings.plural(.seconds, seconds) : strings.plural(.minutes, (seconds + 59) / 60)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.hour, .minute, .second], from: now.addingTimeInterval(Double(seconds)))
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        let time = "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
        return strings.format(.tooManySignIns, ["wait": wait, "time": time])
    }

    /// Only paths of this site are followed after signing in (no open redirects).
    static func safeNext(_ value: String?) -> String {
        guard let value, value.hasPrefix("/"), !value.hasPrefix("//"), !value.contains("\\"),
            !value.unicodeScalars.contains(where: { $0.value < 0x20 })
        else { return "/" }
        return value
    }
}
