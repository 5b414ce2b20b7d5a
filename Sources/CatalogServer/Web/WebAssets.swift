import CatalogJSON
import Foundation

/// The web app's stylesheet, script modules and icons: real files in `Web/Assets/` and
/// `Web/Scripts/`, embedded into the binary at build time (the EmbedFiles plugin), served under
/// fingerprinted names with a year of `immutable` caching: a changed file gets a new name, so
/// browsers never see a stale one.
///
/// The script is ES modules that import each other by relative name (`import … from
/// "./page.js"`), so they are served together in one folder named after all of them
/// (`/assets/js-1a2b3c4d/app.js`): a change to any module renames the folder, and the imports
/// stay as they are written.
enum WebAssets {
    struct Asset: Sendable {
        /// Where it is served: `/assets/app-1a2b3c4d.css`, `/assets/js-1a2b3c4d/page.js`.
        let path: String
        let stem: String
        let ext: String
        let contentType: String
        let bytes: [UInt8]

        /// The embedded file `Web/Assets/<stem>.<ext>`, named `<stem>-<hash>.<ext>`.
        init(stem: String, ext: String, contentType: String) {
            guard let bytes = EmbeddedFiles.bytes(of: "Web/Assets/\(stem).\(ext)") else {
                fatalError("Web/Assets/\(stem).\(ext) is not embedded: see embedded.txt")
            }
            self.init(
                path: "/assets/\(stem)-\(Self.fingerprint(bytes)).\(ext)", stem: stem, ext: ext,
                contentType: contentType, bytes: bytes)
        }

        init(path: String, stem: String, ext: String, contentType: String, bytes: [UInt8]) {
            self.path = path
            self.stem = stem
            self.ext = ext
            self.contentType = contentType
            self.bytes = bytes
        }

        /// FNV-1a of the bytes, as 8 hex digits.
        static func fingerprint(_ bytes: [UInt8]) -> String {
            var hash: UInt32 = 2_166_136_261
            for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
            let hex = String(hash, radix: 16)
            return String(repeating: "0", count: 8 - hex.count) + hex
        }
    }

    static let stylesheet = Asset(stem: "app", ext: "css", contentType: "text/css; charset=utf-8")
    static let icon = Asset(stem: "icon", ext: "svg", contentType: "image/svg+xml")
    static let icon192 = Asset(stem: "icon-192", ext: "png", contentType: "image/png")
    static let icon512 = Asset(stem: "icon-512", ext: "png", contentType: "image/png")

    /// Every module of the script (`Web/Scripts/*.js`), in one fingerprinted folder.
    static let modules: [Asset] = {
        let prefix = "Web/Scripts/"
        let files = EmbeddedFiles.paths.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".js") }
        var everything: [UInt8] = []
        let contents = files.map { file -> (name: String, bytes: [UInt8]) in
            let bytes = EmbeddedFiles.bytes(of: file) ?? []
            let name = String(file.dropFirst(prefix.count))
            everything += Array(name.utf8) + [0] + bytes + [0]
            return (name, bytes)
        }
        let folder = "/assets/js-" + Asset.fingerprint(everything) + "/"
        return contents.map { file in
            Asset(
                path: folder + file.name, stem: String(file.name.dropLast(3)), ext: "js",
                contentType: "text/javascript; charset=utf-8", bytes: file.bytes)
        }
    }()

    /// The script's entry module, the one the pages load (`<script type="module">`).
    static let script: Asset = {
        guard let entry = modules.first(where: { $0.stem == "app" }) else {
            fatalError("Web/Scripts/app.js is not embedded: see embedded.txt")
        }
        return entry
    }()

    static let all = [stylesheet, icon, icon192, icon512] + modules

    /// Every asset by its path.
    static let byPath: [String: Asset] = Dictionary(all.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })

    /// `/manifest.webmanifest?lang=…`: the app's name, colors and icons (their fingerprinted
    /// paths), its description and language in each language of the web app (English for one
    /// it does not have). A page links the manifest of its own language: a catalog's, or the
    /// browser's on the home page, so an installed app is named and described in it.
    static func manifest(language: String) -> [UInt8] {
        manifests[language] ?? manifests["en"] ?? []
    }

    private static let manifests: [String: [UInt8]] = {
        let template = String(
            decoding: EmbeddedFiles.bytes(of: "Web/Assets/manifest.webmanifest") ?? [], as: UTF8.self)
        var manifests: [String: [UInt8]] = [:]
        for language in WebStrings.supported {
            var text = template
            for asset in [stylesheet, icon, icon192, icon512] {
                text = text.replacingOccurrences(of: "{\(asset.stem).\(asset.ext)}", with: asset.path)
            }
            var description = JSONOutput(capacity: 200)
            description.string(WebStrings.forLocale(language)[.appDescription])
            // The placeholder sits inside quotes: the escaped string without its own.
            let escaped = String(decoding: description.bytes.dropFirst().dropLast(), as: UTF8.self)
            text = text.replacingOccurrences(of: "{description}", with: escaped)
            text = text.replacingOccurrences(of: "{lang}", with: language)
            manifests[language] = Array(text.utf8)
        }
        return manifests
    }()

    /// `/sw.js`: the service worker, told the app shell to keep (the assets, every script module,
    /// and the offline page in every language) and a version that changes with any of them.
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
