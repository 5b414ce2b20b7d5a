import CatalogHTTP

/// The server's own absolute URL, for links that must be absolute (the cookbook's image URLs).
///
/// Configured with `--public-url` behind a proxy. Otherwise the request's `Host` is used only
/// when it names one of the host names the server answers as (`--host-name`; by default
/// `localhost` and the listening address), with an optional port; any other `Host` falls back to
/// the listening address, so a client can never make the server print a host of its choosing. The
/// scheme is the request's (``ClientAddress/scheme``): `https` when a trusted proxy says so.
struct BaseURL: Sendable {
    /// `--public-url`, without a trailing slash.
    let configured: String?
    /// Host names (lower case) a request's `Host` may name.
    let hostNames: Set<String>
    /// The listening socket's `http://host:port`.
    let listening: Listening

    init(configured: String?, hostNames: [String], listening: Listening) {
        self.configured = configured
        self.hostNames = Set(hostNames.map { $0.lowercased() })
        self.listening = listening
    }

    func resolve(for request: Request) -> String {
        if let configured { return configured }
        if let host = request.headers["Host"], let name = Self.hostName(host), hostNames.contains(name) {
            return request.client.scheme + "://" + host
        }
        return listening.value
    }

    /// The name part of a `Host` value (`localhost:8080` → `localhost`, `[::1]:80` → `[::1]`),
    /// lower case; nil unless it is a plain name or address with an optional numeric port.
    static func hostName(_ host: String) -> String? {
        guard !host.isEmpty, host.utf8.count <= 255 else { return nil }
        var name = Substring(host.lowercased())
        var port: Substring = ""
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return nil }
            port = name[name.index(after: close)...]
            name = name[...close]
            guard name.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                return nil
            }
        } else {
            if let colon = name.firstIndex(of: ":") {
                port = name[colon...]
                name = name[..<colon]
            }
            guard CatalogServerSettings.isValidHostName(String(name)) else { return nil }
        }
        if !port.isEmpty {
            guard port.first == ":", port.count > 1, port.count <= 6, port.dropFirst().allSatisfy(\.isASCII),
                port.dropFirst().allSatisfy(\.isNumber)
            else { return nil }
        }
        return String(name)
    }

    /// `path` made absolute against `base`; absolute http(s) URLs stay as they are; nil is "".
    static func absolute(_ path: String?, base: String) -> String {
        guard let path, !path.isEmpty else { return "" }
        let lower = path.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return path }
        return base + (path.hasPrefix("/") ? path : "/" + path)
    }
}
