import CCurl
import CatalogModel
import CatalogSupport

/// A URL as libcurl parses it (`CURLU`), so the URL whose origin and address are checked is the
/// very one libcurl connects to. Owns its handle and frees it in `deinit`.
final class CurlURL {
    /// The scheme, host and port a URL's requests go to.
    struct Origin: Hashable, Sendable {
        var scheme: String
        var host: String
        var port: String
    }

    let handle: OpaquePointer

    private init(handle: OpaquePointer) {
        self.handle = handle
    }

    /// Parses an absolute URL; nil when libcurl finds it malformed.
    convenience init?(_ text: String) {
        guard let handle = curl_url() else { return nil }
        guard curl_url_set(handle, CURLUPART_URL, text, UInt32(CURLU_NON_SUPPORT_SCHEME)) == CURLUE_OK else {
            curl_url_cleanup(handle)
            return nil
        }
        self.init(handle: handle)
    }

    deinit { curl_url_cleanup(handle) }

    /// A redirect's `Location` resolved against this URL (it may be relative); nil when malformed.
    func resolving(_ location: String) -> CurlURL? {
        guard let copy = curl_url_dup(handle) else { return nil }
        let resolved = CurlURL(handle: copy)
        guard curl_url_set(copy, CURLUPART_URL, location, UInt32(CURLU_NON_SUPPORT_SCHEME)) == CURLUE_OK else {
            return nil
        }
        return resolved
    }

    /// The lower-cased scheme.
    var scheme: String { part(CURLUPART_SCHEME)?.lowercased() ?? "" }

    /// The host as written in a URL (an IPv6 address in brackets).
    var host: String { part(CURLUPART_HOST) ?? "" }

    /// The scheme, host and port (the scheme's default when none is written).
    var origin: Origin {
        Origin(scheme: scheme, host: host.lowercased(), port: part(CURLUPART_PORT, flags: CURLU_DEFAULT_PORT) ?? "")
    }

    /// Whether the URL carries a user name or password.
    var hasCredentials: Bool { part(CURLUPART_USER) != nil || part(CURLUPART_PASSWORD) != nil }

    /// Gives this URL the user name and password of `other` (as written, percent-encoded).
    func copyCredentials(from other: CurlURL) {
        for component in [CURLUPART_USER, CURLUPART_PASSWORD] {
            if let value = other.part(component) { curl_url_set(handle, component, value, 0) }
        }
    }

    /// The whole URL, credentials included: never for messages (use ``display``).
    var text: String { part(CURLUPART_URL) ?? "" }

    /// The URL with its credentials redacted, for messages.
    var display: String { Credentials.redacted(url: text) }

    private func part(_ component: CURLUPart, flags: Int32 = 0) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, component, &value, UInt32(flags)) == CURLUE_OK, let value else { return nil }
        defer { curl_free(value) }
        return String(cString: value)
    }
}
