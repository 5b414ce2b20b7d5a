import Foundation

extension CatalogClient {
    /// The bytes of a record's or category's image (SVG, PNG, JPEG, GIF or WebP, as stored).
    ///
    /// Images on the server (`/images/…`) can be asked for as thumbnails: `size` is the longest
    /// side in pixels (16–1024; SVGs come as they are). Absolute http(s) URLs are fetched as they
    /// are. Loads are shared: many rows asking for the same picture at once cause one request, and
    /// it is kept in memory and on disk.
    ///
    /// ```swift
    /// let thumbnail = try await client.image(for: record.image ?? "", size: 80)
    /// ```
    ///
    /// - Throws: ``CatalogClientError`` `.invalidArgument` for an empty path, `.notFound`.
    public func image(for path: String, size: Int? = nil) async throws(CatalogClientError) -> Data {
        let url = try imageURL(for: path, size: size)
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

    /// The URL of an image path, a thumbnail's when `size` is given and the server scales it.
    func imageURL(for path: String, size: Int?) throws(CatalogClientError) -> URL {
        guard !path.isEmpty else { throw CatalogClientError(.invalidArgument, "the image has no path") }
        let lower = path.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            guard let url = URL(string: path) else { throw CatalogClientError(.invalidArgument, "invalid image URL") }
            return url
        }
        let segments = path.split(separator: "/").map(String.init)
        guard !segments.isEmpty, !segments.contains(where: { $0 == ".." || $0 == "." }) else {
            throw CatalogClientError(.invalidArgument, "invalid image path")
        }
        var query: [(String, String)] = []
        if let size, segments.first == "images", !lower.hasSuffix(".svg") {
            query.append(("size", String(min(1024, max(16, size)))))
        }
        return url(segments, query: query)
    }
}
