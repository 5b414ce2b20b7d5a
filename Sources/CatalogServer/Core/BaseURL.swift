import CatalogHTTP

/// The server's own absolute URL, for links that must be absolute (the cookbook's image URLs).
///
/// Configured with `--public-url` behind a proxy; otherwise taken from the request's `Host`
/// header when that is a plain host name or address with an optional port (anything else, say
/// a header trying to inject a path, falls back to the listening address).
struct BaseURL: Sendable {
    /// `--public-url`, without a trailing slash.
    let configured: String?
    /// The listening socket's `http://host:port`.
    let listening: Listening

    func resolve(for request: Request) -> String {
        if let configured { return configured }
        if let host = request.headers["Host"], Self.isPlainHost(host) { return "http://" + host }
        return listening.value
    }

    static func isPlainHost(_ host: String) -> Bool {
        !host.isEmpty && host.utf8.count <= 255
            && host.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || ".-:[]".unicodeScalars.contains($0))
            }
    }

    /// `path` made absolute against `base`; absolute http(s) URLs stay as they are; nil is "".
    static func absolute(_ path: String?, base: String) -> String {
        guard let path, !path.isEmpty else { return "" }
        let lower = path.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return path }
        return base + (path.hasPrefix("/") ? path : "/" + path)
    }
}
