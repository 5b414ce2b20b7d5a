import Foundation

/// Where a stored image is served, the one spelling of it: `/images/stored/{catalog}/{item}/{hash}.{ext}`,
/// the record's id percent-encoded. The path names the image's content hash, so a new image of
/// the record gets a new URL and caches never serve the old one; a record's `image` field holds it.
///
/// ```swift
/// let location = StoredImageLocation(catalog: "shop", item: "p 1", hash: "9f2c…", contentType: "image/png")
/// location?.path  // "/images/stored/shop/p%201/9f2c….png"
/// ```
public struct StoredImageLocation: Sendable, Equatable {
    /// The catalog's id.
    public var catalog: String
    /// The record's id.
    public var item: String
    /// The image's content hash (lowercase hex).
    public var hash: String
    /// The file name's extension: `jpg`, `png` or `webp`.
    public var fileExtension: String

    /// The first segments of every stored image's path.
    public static let prefix = "/images/stored/"

    /// The extension of each content type a stored image can have.
    public static let extensions = ["image/jpeg": "jpg", "image/png": "png", "image/webp": "webp"]

    /// The location of an image of `contentType`; nil for a type stored images never have.
    public init?(catalog: String, item: String, hash: String, contentType: String) {
        guard let fileExtension = Self.extensions[contentType] else { return nil }
        self.catalog = catalog
        self.item = item
        self.hash = hash
        self.fileExtension = fileExtension
    }

    /// The location a path names, given as the path segments after `/images/` (each already
    /// percent-decoded, as the image route reads them): `["stored", catalog, item, "hash.ext"]`.
    public init?(segments: [String]) {
        guard segments.count == 4, segments[0] == "stored", !segments[1].isEmpty, !segments[2].isEmpty else {
            return nil
        }
        let name = segments[3]
        guard let dot = name.lastIndex(of: ".") else { return nil }
        let hash = String(name[..<dot])
        let fileExtension = String(name[name.index(after: dot)...])
        guard !hash.isEmpty, hash.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
            Self.extensions.values.contains(fileExtension)
        else { return nil }
        catalog = segments[1]
        item = segments[2]
        self.hash = hash
        self.fileExtension = fileExtension
    }

    /// The location a record's `image` field names, nil when it names something else.
    public init?(path: String) {
        guard path.hasPrefix(Self.prefix) else { return nil }
        let segments = path.dropFirst("/images/".count).split(separator: "/", omittingEmptySubsequences: false)
        let decoded = segments.map { $0.removingPercentEncoding }
        guard decoded.allSatisfy({ $0 != nil }) else { return nil }
        self.init(segments: decoded.map { $0! })
    }

    /// The content type its extension stands for.
    public var contentType: String {
        Self.extensions.first { $0.value == fileExtension }?.key ?? "application/octet-stream"
    }

    /// The path, as a record's `image` field holds it.
    public var path: String {
        Self.prefix + Self.escaped(catalog) + "/" + Self.escaped(item) + "/" + hash + "." + fileExtension
    }

    /// The path segments after `/images/`, as the image route and the thumbnail cache key them.
    public var segments: [String] { ["stored", catalog, item, hash + "." + fileExtension] }

    /// A path segment with everything but unreserved characters percent-encoded.
    static func escaped(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: unreserved) ?? segment
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
