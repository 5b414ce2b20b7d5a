import Foundation

/// A block of IP addresses in CIDR notation (`127.0.0.0/8`, `10.1.2.3`, `::1/128`, `fd00::/8`), and
/// whether a client's address lies in it. An IPv4 address that arrives mapped into IPv6
/// (`::ffff:127.0.0.1`) is compared as the IPv4 address it is.
///
/// ```swift
/// let loopback = try AddressRange("127.0.0.0/8")
/// loopback.contains("127.0.0.1")  // true
/// ```
public struct AddressRange: Sendable, Equatable, CustomStringConvertible {
    /// The network's bytes (4 or 16), the bits beyond the prefix cleared.
    let network: [UInt8]
    /// How many leading bits must match.
    let prefixLength: Int

    /// The loopback addresses, IPv4 and IPv6: who may read the metrics unless configured.
    public static let loopback = [
        AddressRange(network: [127, 0, 0, 0], prefixLength: 8),
        AddressRange(network: Array(repeating: 0, count: 15) + [1], prefixLength: 128),
    ]

    private init(network: [UInt8], prefixLength: Int) {
        self.network = network
        self.prefixLength = prefixLength
    }

    /// Parses `text`: an address, optionally `/` and a prefix length (0–32 for IPv4, 0–128 for IPv6).
    ///
    /// - Throws: ``HTTPServerError`` (``HTTPServerError/Code/invalidAddress``) naming the text.
    public init(_ text: String) throws(HTTPServerError) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let bytes = Self.bytes(String(parts[0])) else {
            throw HTTPServerError(.invalidAddress, "'\(text)' is not an IP address or a CIDR block")
        }
        var length = bytes.count * 8
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...length).contains(given) else {
                throw HTTPServerError(.invalidAddress, "'\(text)': the prefix length must be 0 to \(length)")
            }
            length = given
        }
        network = Self.masked(bytes, to: length)
        prefixLength = length
    }

    /// Whether `address` (as a server writes a client's address: `203.0.113.9`, `::1`) lies in
    /// the block; false for anything that is not an address.
    public func contains(_ address: String) -> Bool {
        guard var bytes = Self.bytes(address) else { return false }
        if bytes.count == 16, network.count == 4, bytes.prefix(12) == Self.mappedPrefix[...] {
            bytes = Array(bytes.suffix(4))
        }
        guard bytes.count == network.count else { return false }
        return Self.masked(bytes, to: prefixLength) == network
    }

    public var description: String {
        let family = network.count == 4 ? AF_INET : AF_INET6
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        _ = network.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
        let address = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "\(address)/\(prefixLength)"
    }

    /// `::ffff:0:0/96`, the prefix of IPv4-mapped IPv6 addresses.
    private static let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xFF, 0xFF]

    private static func bytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    private static func masked(_ bytes: [UInt8], to length: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let bits = min(8, max(0, length - index * 8))
            return bits == 8 ? byte : byte & ~(UInt8(0xFF) >> bits)
        }
    }
}
