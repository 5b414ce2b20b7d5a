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
    static let all = [stylesheet, script]
}
