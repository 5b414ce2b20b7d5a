import CatalogSupport

/// ETag and Cache-Control on every successful GET, and `304 Not Modified` when the client's
/// `If-None-Match` already names the current representation. Event streams pass through
/// untouched.
///
/// Handlers may set their own `ETag` (a streamed feed uses the catalog's version) and
/// `Cache-Control` (images are cached long); otherwise the ETag is a hash of the body and
/// Cache-Control is `no-cache`: clients keep the copy and revalidate it.
public struct ConditionalGetMiddleware: Middleware {
    /// What ``CompressionMiddleware`` appends to the ETag of a gzip representation.
    public static let gzipSuffix = "-gzip"

    /// The Cache-Control of responses that do not set their own.
    public var defaultCacheControl: String

    /// Creates the middleware.
    public init(defaultCacheControl: String = "no-cache") {
        self.defaultCacheControl = defaultCacheControl
    }

    public func respond(to request: Request, context: RequestContext, next: any Responder) throws -> Response {
        var response = try next.respond(to: request, context: context)
        // A stream has no representation to validate: never an ETag, never a 304.
        if case .eventStream = response.body { return response }
        guard request.method == .get || request.method == .head, response.status == .ok else { return response }
        if response.headers["Cache-Control"] == nil { response.headers["Cache-Control"] = defaultCacheControl }
        if response.headers["ETag"] == nil, let bytes = response.bytes {
            response.headers["ETag"] = Self.etag(of: bytes)
        }
        guard let etag = response.headers["ETag"], let condition = request.headers["If-None-Match"],
            Self.matches(condition, etag: etag)
        else { return response }
        var notModified = Response(status: .notModified)
        for name in ["ETag", "Cache-Control", "Vary", "Last-Modified", "Content-Location", "Expires"] {
            if let value = response.headers[name] { notModified.headers[name] = value }
        }
        return notModified
    }

    /// A strong ETag from the body's ``ContentDigest`` (the one content hash) and its length:
    /// `"<32 hex digits>-<length in hex>"`.
    public static func etag(of bytes: [UInt8]) -> String {
        "\"" + ContentDigest.hex(of: bytes) + "-" + String(bytes.count, radix: 16) + "\""
    }

    /// Weak comparison (RFC 9110 §13.1.2): `W/` prefixes ignored, `*` matches anything, and the
    /// gzip variant of a tag matches the tag.
    public static func matches(_ condition: String, etag: String) -> Bool {
        let current = normalize(etag)
        for candidate in condition.split(separator: ",") {
            let trimmed = candidate.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }
            let tag = String(trimmed.reversed())
            if tag == "*" || normalize(tag) == current { return true }
        }
        return false
    }

    private static func normalize(_ tag: String) -> String {
        var value = tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
        let suffix = gzipSuffix + "\""
        if value.hasSuffix(suffix) { value = String(value.dropLast(suffix.count)) + "\"" }
        return value
    }
}
