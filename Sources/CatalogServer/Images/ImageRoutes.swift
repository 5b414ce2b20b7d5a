import CatalogCore
import CatalogHTTP
import CatalogModel
import CatalogStorage
import Foundation

/// `GET /images/...`: the image directory's files, the demo pictures, and images stored in the
/// database for records (`/images/stored/…`, ``StoredImageLocation``), with ETag, Last-Modified
/// and a long Cache-Control; `?size=N` returns a raster image scaled to fit N×N (list-row
/// thumbnails).
struct ImageRoutes {
    let store: ImageStore
    let thumbnails: ThumbnailCache
    /// Where stored images are read.
    let stores: any CatalogDatabase
    /// Whose request it is: an API key with a record filter sees the stored images of the
    /// records it passes only.
    let authentication: RequestAuthentication

    /// A week: images change rarely, and a changed file gets a new ETag for revalidation.
    static let cacheControl = "public, max-age=604800"
    /// A stored image's URL names its content: what it serves never changes.
    static let storedCacheControl = "public, max-age=31536000, immutable"

    /// Whether a request of the image route asks for a thumbnail that is not made yet: those run
    /// on the `thumbnails` lane (one thread, a short queue, 503 with `Retry-After` beyond it),
    /// never on the workers that answer everyone else, since scaling a large image takes seconds.
    static func isThumbnailToMake(_ request: Request, cache: ThumbnailCache) -> Bool {
        guard request.segments.first == "images",
            let size = request.query("size").flatMap({ Int($0) }), (16...1024).contains(size)
        else { return false }
        let path = Array(request.segments.dropFirst())
        return !(path.last?.lowercased().hasSuffix(".svg") ?? true) && !cache.contains(path: path, size: size)
    }

    func register(in routes: inout RouterBuilder) {
        let store = store
        let thumbnails = thumbnails
        let stores = stores
        let authentication = authentication
        let options = RouteOptions(
            lane: RouteLane(ServerLanes.thumbnails) { Self.isThumbnailToMake($0, cache: thumbnails) },
            rateClass: .expensive)
        routes.get("/images/{path...}", options: options) { request, context in
            let location = StoredImageLocation(segments: context.remainder)
            let filter = try location == nil ? nil : authentication.recordFilter(for: request)
            guard
                var image = try location.map({ try Self.stored($0, in: stores, narrowedBy: filter) })
                    ?? store.image(at: context.remainder)
            else {
                throw HTTPError.notFound("no such image")
            }
            let cacheControl = location == nil ? Self.cacheControl : Self.storedCacheControl
            let size = try request.integer("size", in: 16...1024, default: 0)
            if size > 0, image.contentType != "image/svg+xml" {
                do {
                    image = try thumbnails.thumbnail(of: image, path: context.remainder, size: size)
                } catch Thumbnailer.Failure.notAnImage {
                    throw HTTPError(.unprocessableContent, code: "not_an_image", "the image cannot be decoded")
                } catch Thumbnailer.Failure.tooLarge(let width, let height) {
                    throw HTTPError(
                        .unprocessableContent, code: "image_too_large",
                        "the image is \(width) × \(height) pixels; thumbnails are made of images up to "
                            + "\(Thumbnailer.maxPixels / 1_000_000) megapixels")
                }
            }
            let lastModified = HTTPDate.format(image.modified)
            let etag = ConditionalGetMiddleware.etag(of: image.bytes)
            var headers = HTTPHeaders([
                ("Content-Type", image.contentType), ("Cache-Control", cacheControl), ("ETag", etag),
                ("Last-Modified", lastModified),
            ])
            if image.contentType == "image/svg+xml" {
                // An SVG opened directly runs no script and loads nothing.
                headers["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
            }
            if request.headers["If-None-Match"] == nil, let since = request.headers["If-Modified-Since"],
                let date = HTTPDate.parse(since), image.modified <= date
            {
                return Response(
                    status: .notModified,
                    headers: HTTPHeaders([
                        ("ETag", etag), ("Cache-Control", cacheControl), ("Last-Modified", lastModified),
                    ]))
            }
            return Response(status: .ok, headers: headers, body: image.bytes)
        }
    }
}

extension ImageRoutes {
    /// The stored image at `location`, nil when the record has none or another one (the URL of
    /// an image replaced since names a hash no longer stored), or is outside `filter` (an API
    /// key's record filter).
    static func stored(
        _ location: StoredImageLocation, in stores: any CatalogDatabase, narrowedBy filter: RecordFilter? = nil
    ) throws -> ImageStore.Image? {
        guard
            let stored = try stores.read(
                narrowedBy: filter, { try $0.storedImage(of: location.catalog, item: location.item) }),
            stored.hash == location.hash, stored.contentType == location.contentType
        else { return nil }
        let modified =
            ISO8601DateFormatter().date(from: String(stored.storedAt.prefix(19)) + "Z")
            ?? Date(timeIntervalSince1970: 0)
        return ImageStore.Image(bytes: stored.bytes, contentType: stored.contentType, modified: modified)
    }
}

/// IMF-fixdate, the one date format HTTP uses: `Sun, 29 Nov 2026 18:00:00 GMT`.
enum HTTPDate {
    static func format(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard parts.count == 6, parts[5] == "GMT", let day = Int32(parts[1]),
            let month = months.firstIndex(of: String(parts[2])), let year = Int32(parts[3])
        else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int32($0) }
        guard clock.count == 3 else { return nil }
        var date = tm()
        date.tm_year = year - 1900
        date.tm_mon = Int32(month)
        date.tm_mday = day
        date.tm_hour = clock[0]
        date.tm_min = clock[1]
        date.tm_sec = clock[2]
        return Date(timeIntervalSince1970: Double(timegm(&date)))
    }
}
