import Foundation

extension CatalogClient {
    /// The bytes of a record's or category's image (SVG, PNG, JPEG, GIF or WebP, as stored).
    ///
    /// Images on the server (`/images/…`) can be asked for as thumbnails: `size` is the longest
    /// side in pixels (16–1024; SVGs come as they are). Absolute http(s) URLs are fetched as they
    /// are. Loads are shared: many rows asking for the same picture at once cause one request, and
    /// it is kept in memory and on disk.
    ///
    /// The demo catalogs' pictures are SVG documents, which `UIImage` and `NSImage` do not read:
    /// with `raster` (the default on Apple platforms, ``prefersRasterImages``) their PNG is asked
    /// for instead (`/images/demo/…/p001.png`, 128 pixels, or `size`).
    ///
    /// ```swift
    /// let thumbnail = try await client.image(for: record.image ?? "", size: 80)
    /// let picture = UIImage(data: thumbnail)   // a PNG, also for the demo's SVG pictures
    /// ```
    ///
    /// - Throws: ``CatalogClientError`` `.invalidArgument` for an empty path, `.notFound`.
    public func image(for path: String, size: Int? = nil, raster: Bool = CatalogClient.prefersRasterImages)
        async throws(CatalogClientError) -> Data
    {
        let url = try imageURL(for: path, size: size, raster: raster)
        let key = url.absoluteString
        do {
            return try await images.image(key: key) { [self] in
                try await fetch(url, in: images.disk).body
            }
        } catch let error as CatalogClientError {
            throw error
        } catch {
            throw CatalogClientError.transport(error, url: url)
        }
    }

    /// Whether ``image(for:size:raster:)`` asks for PNG versions of the demo's SVG pictures by
    /// default: on Apple platforms, whose image views do not read SVG.
    public static let prefersRasterImages: Bool = {
        #if canImport(Darwin)
            true
        #else
            false
        #endif
    }()

    /// The URL of an image path, a thumbnail's when `size` is given and the server scales it; with
    /// `raster`, a demo picture's PNG instead of its SVG.
    func imageURL(for path: String, size: Int?, raster: Bool = false) throws(CatalogClientError) -> URL {
        guard !path.isEmpty else { throw CatalogClientError(.invalidArgument, "the image has no path") }
        let lower = path.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            guard let url = URL(string: path) else { throw CatalogClientError(.invalidArgument, "invalid image URL") }
            return url
        }
        var segments = path.split(separator: "/").map(String.init)
        guard !segments.isEmpty, !segments.contains(where: { $0 == ".." || $0 == "." }) else {
            throw CatalogClientError(.invalidArgument, "invalid image path")
        }
        if raster, segments.count >= 3, segments[0] == "images", segments[1] == "demo", lower.hasSuffix(".svg") {
            segments[segments.count - 1] = String(segments[segments.count - 1].dropLast(4)) + ".png"
        }
        var query: [(String, String)] = []
        if let size, segments.first == "images", segments.last?.lowercased().hasSuffix(".svg") == false {
            query.append(("size", String(min(1024, max(16, size)))))
        }
        return url(segments, query: query)
    }
}
