import Foundation

/// Compresses response bodies with gzip when the client accepts it and the type is text; event
/// streams never (``Response/Body/eventStream(_:)``).
///
/// A compressed response's strong ETag gets a `-gzip` suffix, so the two representations never
/// share a validator (``ConditionalGetMiddleware`` accepts either in `If-None-Match`).
public struct CompressionMiddleware: Middleware {
    /// Bodies smaller than this are sent as they are: the gzip header costs more than it saves.
    public var minimumSize: Int

    /// Creates the middleware.
    public init(minimumSize: Int = 860) {
        self.minimumSize = minimumSize
    }

    public func respond(to request: Request, context: RequestContext, next: any Responder) throws -> Response {
        var response = try next.respond(to: request, context: context)
        // Events go out one by one as they happen; a compressor would hold them back.
        if case .eventStream = response.body { return response }
        guard response.status == .ok, response.headers["Content-Encoding"] == nil,
            let type = response.headers["Content-Type"], Self.isCompressible(type)
        else { return response }
        if response.headers["Vary"] == nil { response.headers.add("Vary", "Accept-Encoding") }
        guard Self.acceptsGzip(request.headers["Accept-Encoding"]) else { return response }
        switch response.body {
        case .bytes(let bytes):
            guard bytes.count >= minimumSize else { return response }
            response.body = .bytes(GzipCompressor.compress(bytes))
        case .stream(let open):
            response.body = .stream { GzipBodyStream(try open()) }
        case .file:
            // Sent as stored, so byte ranges of it stay meaningful.
            return response
        case .eventStream:
            return response  // never reached: returned above
        }
        response.headers["Content-Encoding"] = "gzip"
        if let etag = response.headers["ETag"], etag.hasSuffix("\"") {
            response.headers["ETag"] = String(etag.dropLast()) + ConditionalGetMiddleware.gzipSuffix + "\""
        }
        return response
    }

    static func isCompressible(_ contentType: String) -> Bool {
        let type = Array(contentType.utf8.prefix(64).map { $0 | 0x20 })
        func has(_ word: String) -> Bool {
            let needle = Array(word.utf8)
            guard type.count >= needle.count else { return false }
            return (0...(type.count - needle.count)).contains { type[$0..<($0 + needle.count)].elementsEqual(needle) }
        }
        return type.starts(with: Array("text/".utf8)) || has("json") || has("xml") || has("javascript")
    }

    /// True when `Accept-Encoding` lists gzip (or `*`) without `q=0`.
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let coding = parts.first?.lowercased(), coding == "gzip" || coding == "*" else { continue }
            let refused = parts.dropFirst().contains { parameter in
                let pair = parameter.replacingOccurrences(of: " ", with: "").lowercased()
                return pair == "q=0" || pair == "q=0.0" || pair == "q=0.00" || pair == "q=0.000"
            }
            return !refused
        }
        return false
    }
}
