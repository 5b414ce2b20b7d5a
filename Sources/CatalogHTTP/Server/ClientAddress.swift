import Foundation

/// Who a request comes from: the address and scheme every consumer keys on (throttles, CPU
/// budgets, access log, absolute links, `Secure` cookies), resolved once per request by
/// ``resolve(peer:headers:trusting:)``.
///
/// Behind a trusted proxy (`--trusted-proxy`) the address is taken from `Forwarded` (RFC 7239
/// `for=`) or else `X-Forwarded-For`, and the scheme from the same `Forwarded` element's
/// `proto=` or else `X-Forwarded-Proto`. From any other peer those headers are ignored: the
/// address is the TCP peer's and the scheme `http`.
///
/// ```swift
/// let proxies = [try AddressRange("127.0.0.1/32")]
/// var headers = HTTPHeaders()
/// headers.add("X-Forwarded-For", "198.51.100.7, 203.0.113.9")
/// let client = ClientAddress.resolve(peer: "127.0.0.1", headers: headers, trusting: proxies)
/// client.address  // "203.0.113.9": the right-most hop that is not a trusted proxy
/// ```
public struct ClientAddress: Sendable, Equatable, CustomStringConvertible {
    /// The client's address as the server writes addresses (`203.0.113.9`, `2001:db8::1`), or `-`
    /// when the server does not record addresses.
    public var address: String
    /// `http` or `https`: how the client reached the server (or its proxy).
    public var scheme: String
    /// The TCP peer: the client itself, or the proxy in front of the server.
    public var peer: String
    /// Whether the peer is one of the trusted proxies.
    public var peerIsTrustedProxy: Bool
    /// Whether any trusted proxies are configured at all.
    public var trustedProxiesConfigured: Bool

    /// A client reached directly: the peer's address, plain http.
    public init(peer: String) {
        address = peer
        scheme = "http"
        self.peer = peer
        peerIsTrustedProxy = false
        trustedProxiesConfigured = false
    }

    /// Whether headers that only the server's own proxy should choose (`X-Request-Id`) are
    /// taken from the request: when the peer is a trusted proxy, or when no trusted proxies are
    /// configured (then every client may, as before trusted proxies existed).
    public var headersAreTrusted: Bool { peerIsTrustedProxy || !trustedProxiesConfigured }

    public var description: String { address }

    /// The client of a request that arrived from `peer` with `headers`.
    ///
    /// Unless `peer` lies in one of `proxies`, the forwarding headers are ignored. Otherwise the
    /// hops they list (every `Forwarded` line, in order, or when there is none every
    /// `X-Forwarded-For` line) are walked from the right, skipping trusted proxies; the first other address is
    /// the client. A hop that is no address (`unknown`, an obfuscated `_name`, garbage) ends the
    /// walk: the client is then the last trusted hop passed (or the peer), since nothing to its
    /// left can be believed. When every hop is trusted, the left-most one is the client.
    public static func resolve(peer: String, headers: HTTPHeaders, trusting proxies: [AddressRange])
        -> ClientAddress
    {
        var client = ClientAddress(peer: peer)
        client.trustedProxiesConfigured = !proxies.isEmpty
        guard !proxies.isEmpty, proxies.contains(where: { $0.contains(peer) }) else { return client }
        client.peerIsTrustedProxy = true
        let forwarded = ForwardedHeader.hops(headers.values("Forwarded"))
        let hops: [ForwardedHeader.Hop]
        // The scheme the proxy next to the server reports, for when no hop is chosen.
        let nearestScheme: String?
        if !forwarded.isEmpty {
            hops = forwarded
            nearestScheme = forwarded.last?.scheme
        } else {
            let list = ForwardedHeader.hops(forwardedFor: headers.values("X-Forwarded-For"))
            let protocols = ForwardedHeader.list(headers.values("X-Forwarded-Proto"))
            hops = list.enumerated().map { index, hop in
                var hop = hop
                // One scheme per hop when the proxies appended theirs, else the last proxy's.
                hop.scheme = protocols.count == list.count ? protocols[index] : protocols.last
                return hop
            }
            nearestScheme = protocols.last
        }
        guard let chosen = choose(hops, trusting: proxies) else {
            if let scheme = ForwardedHeader.scheme(nearestScheme) { client.scheme = scheme }
            return client
        }
        if let address = chosen.address { client.address = address }
        if let scheme = ForwardedHeader.scheme(chosen.scheme) { client.scheme = scheme }
        return client
    }

    /// The hop that is the client, walking from the right; nil: the peer itself.
    private static func choose(_ hops: [ForwardedHeader.Hop], trusting proxies: [AddressRange])
        -> ForwardedHeader.Hop?
    {
        var lastTrusted: ForwardedHeader.Hop?
        for hop in hops.reversed() {
            guard let address = hop.address else { return lastTrusted }
            guard proxies.contains(where: { $0.contains(address) }) else { return hop }
            lastTrusted = hop
        }
        return lastTrusted
    }
}
