import CatalogDemo
import CatalogModel
import Foundation

/// Where images come from: the demo pictures (in memory) and a directory of stored images.
///
/// Paths are checked segment by segment before they touch the file system: no empty, `.` or
/// `..` segments, no hidden files, no slashes, backslashes or NULs inside a segment (an encoded
/// `%2F` arrives as a slash inside one segment), and the resolved file must still lie inside the
/// image directory after symbolic links are followed.
struct ImageStore: Sendable {
    /// The directory of stored images, or nil for demo pictures only.
    let directory: String?

    /// Largest image file served (a guard against a stray huge file in the store).
    static let maxFileBytes = 32 << 20

    /// An image found: its bytes, type and modification time.
    struct Image {
        var bytes: [UInt8]
        var contentType: String
        var modified: Date
    }

    /// The content types served, by lowercase extension.
    static let contentTypes: [String: String] = [
        "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg",
        "gif": "image/gif", "webp": "image/webp",
    ]

    /// When the process started: the demo pictures' modification time.
    static let demoModified = Date(timeIntervalSince1970: Double(Int(Date().timeIntervalSince1970)))

    /// Where the flag of `country` is served (`/images/demo/flags/de.svg`), or nil for a code
    /// ISO has not assigned, which has no flag.
    static func flagPath(of country: CountryCode) -> String? {
        country.isAssigned ? "/images/demo/flags/\(country.text.lowercased()).svg" : nil
    }

    /// The image at `segments` (already percent-decoded, one per path segment), or nil.
    func image(at segments: [String]) -> Image? {
        guard Self.isSafe(segments), let name = segments.last,
            let type = Self.contentTypes[(name as NSString).pathExtension.lowercased()]
        else { return nil }
        if segments.first == "demo" {
            // Every picture is an SVG document; its PNG (DemoPNG) is served beside it.
            let raster = name.hasSuffix(".png")
            guard raster || name.hasSuffix(".svg") else { return nil }
            let path = String(segments.dropFirst().joined(separator: "/").dropLast(4)) + ".svg"
            let flag =
                segments.count == 3 && segments[1] == "flags" ? DemoImages.flag(String(name.dropLast(4))) : nil
            guard let svg = DemoImages.files[path] ?? flag else { return nil }
            guard raster else { return Image(bytes: Array(svg.utf8), contentType: type, modified: Self.demoModified) }
            guard let png = DemoPNG.png(path: path, svg: svg) else { return nil }
            return Image(bytes: png, contentType: "image/png", modified: Self.demoModified)
        }
        guard let directory, let root = Self.resolved(directory) else { return nil }
        let candidate = root + "/" + segments.joined(separator: "/")
        guard let real = Self.resolved(candidate), real.hasPrefix(root + "/") else { return nil }
        var info = stat()
        guard stat(real, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) <= Self.maxFileBytes,
            let data = FileManager.default.contents(atPath: real)
        else { return nil }
        let modified = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec))
        return Image(bytes: Array(data), contentType: type, modified: modified)
    }

    static func isSafe(_ segments: [String]) -> Bool {
        !segments.isEmpty && segments.count <= 16
            && segments.allSatisfy { segment in
                !segment.isEmpty && !segment.hasPrefix(".") && segment.utf8.count <= 255
                    && !segment.unicodeScalars.contains { $0 == "/" || $0 == "\\" || $0.value < 0x20 || $0 == ":" }
            }
    }

    /// The canonical absolute path (symbolic links resolved), or nil when it does not exist.
    static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
