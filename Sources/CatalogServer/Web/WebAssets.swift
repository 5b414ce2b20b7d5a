import Foundation

/// The web app's stylesheet, script and icons: real files in `Web/Assets/`, embedded into the
/// binary at build time (the EmbedFiles plugin), served under fingerprinted names
/// (`/assets/app-1a2b3c4d.css`) with a year of `immutable` caching: a changed file gets a new
/// name, so browsers never see a stale one.
enum WebAssets {
    struct Asset: Sendable {
        let name: String
        let stem: String
        let ext: String
        let contentType: String
        let bytes: [UInt8]

        /// The embedded file `Web/Assets/<stem>.<ext>`, named `<stem>-<hash>.<ext>`.
        init(stem: String, ext: String, contentType: String) {
            guard let bytes = EmbeddedFiles.bytes(of: "Web/Assets/\(stem).\(ext)") else {
                fatalError("Web/Assets/\(stem).\(ext) is not embedded: see embedded.txt")
            }
            self.bytes = bytes
            self.stem = stem
            self.ext = ext
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
    static let icon192 = Asset(stem: "icon-192", ext: "png", contentType: "image/png")
    static let icon512 = Asset(stem: "icon-512", ext: "png", contentType: "image/png")
    static let all = [stylesheet, script, icon, icon192, icon512]

    /// `/manifest.webmanifest`: the app's name, colors and icons (their fingerprinted paths).
    static let manifest: [UInt8] = {
        var text = String(decoding: EmbeddedFiles.bytes(of: "Web/Assets/manifest.webmanifest") ?? [], as: UTF8.self)
        for asset in all { text = text.replacingOccurrences(of: "{\(asset.stem).\(asset.ext)}", with: asset.path) }
        return Array(text.utf8)
    }()

    /// `/sw.js`: the service worker, told the app shell to keep (the assets and the offline page in
    /// every language) and a version that changes with any of them.
    static let serviceWorker: [UInt8] = {
        let shell = all.map(\.path) + WebStrings.supported.map { "/offline/" + $0 }
        let version = Asset.fingerprint(Array(shell.joined(separator: " ").utf8))
        var text = String(decoding: EmbeddedFiles.bytes(of: "Web/Assets/sw.js") ?? [], as: UTF8.self)
        let list = "[" + shell.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        text = text.replacingOccurrences(of: "/*SHELL*/[]/*END*/", with: list)
        text = text.replacingOccurrences(of: "/*VERSION*/\"dev\"/*END*/", with: "\"\(version)\"")
        return Array(text.utf8)
    }()
}
