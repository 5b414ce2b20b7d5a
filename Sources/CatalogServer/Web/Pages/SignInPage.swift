import CatalogHTTP

/// `/signin`: name and password (users from `catalog user add … --password-stdin`).
struct SignInPage {
    let session: WebSession
    let next: String
    let failed: Bool

    func render() -> Response {
        let strings = WebStrings.english
        var layout = PageLayout(
            title: strings.signIn, strings: strings, back: ("/", strings.catalogs), session: session)
        layout.showsAccount = false
        return layout.render(status: failed ? .unauthorized : .ok) { html in
            html.open("form", ["method": "post", "action": "/signin", "class": "signin-form"])
            if failed {
                html.element("p", ["class": "error", "role": "alert"], text: strings.wrongCredentials)
            }
            html.element("input", ["type": "hidden", "name": "csrf", "value": session.csrf])
            html.element("input", ["type": "hidden", "name": "next", "value": next])
            html.element("label", ["for": "name"], text: strings.name)
            html.element(
                "input",
                [
                    "id": "name", "name": "name", "autocomplete": "username", "required": "", "maxlength": "64",
                    "autocapitalize": "off",
                ])
            html.element("label", ["for": "password"], text: strings.password)
            html.element(
                "input",
                [
                    "id": "password", "name": "password", "type": "password", "autocomplete": "current-password",
                    "required": "", "maxlength": "1024",
                ])
            html.element("button", ["type": "submit", "id": "signin-submit"], text: strings.signIn)
            html.close("form")
        }
    }

    /// Only paths of this site are followed after signing in (no open redirects).
    static func safeNext(_ value: String?) -> String {
        guard let value, value.hasPrefix("/"), !value.hasPrefix("//"), !value.contains("\\"),
            !value.unicodeScalars.contains(where: { $0.value < 0x20 })
        else { return "/" }
        return value
    }
}
