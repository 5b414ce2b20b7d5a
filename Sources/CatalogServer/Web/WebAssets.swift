/// The web app's stylesheet, script and icons: real files in `Web/Assets/`, embedded into the
/// binary at build time (the EmbedFiles plugin), served under fingerprinted names
/// (`/assets/app-1a2b3c4d.css`) with a year of `immutable` caching: a changed file gets a new
/// name, so browsers never see a stale one.
enum WebAssets {
    struct Asset: Sendable {
        let name: String
        let contentType: String
        let bytes: [UInt8]

        /// The embedded file `Web/Assets/<stem>.<ext>`, named `<stem>-<hash>.<ext>`.
        init(stem: String, ext: String, contentType: String) {
            guard let bytes = EmbeddedFiles.bytes(of: "Web/Assets/\(stem).\(ext)") else {
                fatalError("Web/Assets/\(stem).\(ext) is not embedded: see embedded.txt")
            }
            self.bytes = bytes
            name = "\(stem)-\(Self.fingerprint(bytes)).\(ext)"
            self.contentType = contentType
        }

        var path: String { "/assets/" + name }

        /// FNV-1a of the bytes, as 8 hex digits.
        static func fingerprint(_ bytes: [UInt8]) -> String {
            var hash: UInt32 = 2_166_136_261
            for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
            let hex = String(hash, radix: 16)
            return String(repeating: "0", count: 8 - hex.count) + hex
        }
    }

    static let stylesheet = Asset(stem: "app", ext: "css", contentType: "text/css; charset=utf-8")
    static let script = Asset(stem: "app", ext: "js", contentType: "text/javascript; charset=utf-8")
    static let icon = Asset(stem: "icon", ext: "svg", contentType: "image/svg+xml")
    static let all = [stylesheet, script, icon]
}
