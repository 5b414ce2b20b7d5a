/// The web app's stylesheet and script, served under fingerprinted names
/// (`/assets/app-1a2b3c4d.css`) with a year of `immutable` caching: a changed file gets a new
/// name, so browsers never see a stale one.
enum WebAssets {
    struct Asset: Sendable {
        let name: String
        let contentType: String
        let bytes: [UInt8]

        init(stem: String, ext: String, contentType: String, text: String) {
            bytes = Array(text.utf8)
            var hash: UInt32 = 2_166_136_261
            for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
            let hex = String(hash, radix: 16)
            name = "\(stem)-\(String(repeating: "0", count: 8 - hex.count))\(hex).\(ext)"
            self.contentType = contentType
        }

        var path: String { "/assets/" + name }
    }

    static let stylesheet = Asset(
        stem: "app", ext: "css", contentType: "text/css; charset=utf-8", text: AppStylesheet.text)
    static let script = Asset(
        stem: "app", ext: "js", contentType: "text/javascript; charset=utf-8", text: AppScript.text)
    static let icon = Asset(
        stem: "icon", ext: "svg", contentType: "image/svg+xml",
        text: """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" \
            fill="#0a63d1"/><g fill="#fff"><circle cx="9" cy="10" r="2"/><circle cx="9" cy="16" r="2"/>\
            <circle cx="9" cy="22" r="2"/><rect x="13" y="9" width="12" height="2.2" rx="1.1"/>\
            <rect x="13" y="15" width="12" height="2.2" rx="1.1"/><rect x="13" y="21" width="12" height="2.2" \
            rx="1.1"/></g></svg>
            """)
    static let all = [stylesheet, script, icon]
}
