#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address and what kind of network it belongs to: the one rule that decides
/// whether a redirect may lead a download there (``SourceFetcher/Options/allowPrivate``).
///
/// ```swift
/// NetworkAddress("10.1.2.3")?.scope          // .privateNetwork
/// NetworkAddress("::ffff:127.0.0.1")?.scope  // .loopback (an IPv4-mapped address counts as its IPv4)
/// NetworkAddress("93.184.216.34")?.isPublic  // true
/// ```
///
/// Pure: no I/O, no DNS. The fetcher classifies the address it is about to connect to, after
/// the name was resolved, so a name that resolves to 127.0.0.1 is caught as well.
struct NetworkAddress: Hashable, Sendable, CustomStringConvertible {
    /// What kind of network an address belongs to.
    enum Scope: String, Sendable, Equatable {
        /// Reachable on the internet.
        case `public`
        /// This host: 127.0.0.0/8, ::1.
        case loopback
        /// One link: 169.254.0.0/16 (cloud metadata services live there), fe80::/10.
        case linkLocal
        /// RFC 1918 (10/8, 172.16/12, 192.168/16) and the old IPv6 site-local fec0::/10.
        case privateNetwork
        /// Carrier-grade NAT, 100.64.0.0/10 (RFC 6598).
        case sharedAddressSpace
        /// IPv6 unique local addresses, fc00::/7.
        case uniqueLocal
        /// 0.0.0.0/8 and :: (on Linux, connecting to 0.0.0.0 reaches this host).
        case unspecified
        /// 224.0.0.0/4, ff00::/8.
        case multicast
        /// Reserved ranges: 240.0.0.0/4 and the broadcast address, 192.0.0.0/24, 198.18.0.0/15,
        /// the IPv6 discard prefix 100::/64.
        case reserved

        /// "a loopback address", for error messages.
        var phrase: String {
            switch self {
            case .public: "a public address"
            case .loopback: "a loopback address"
            case .linkLocal: "a link-local address"
            case .privateNetwork: "a private address"
            case .sharedAddressSpace: "a shared (carrier-grade NAT) address"
            case .uniqueLocal: "a unique local address"
            case .unspecified: "an unspecified address"
            case .multicast: "a multicast address"
            case .reserved: "a reserved address"
            }
        }
    }

    private enum Storage: Hashable, Sendable {
        case v4(UInt32)
        case v6(UInt64, UInt64)
    }

    private let storage: Storage

    /// An IPv4 address from its 32 bits (host order).
    init(ipv4 bits: UInt32) { storage = .v4(bits) }

    /// An IPv6 address from its 128 bits (host order, high half first).
    init(ipv6 high: UInt64, _ low: UInt64) { storage = .v6(high, low) }

    /// Parses a numeric address (`192.0.2.1`, `::1`, `[::1]`, `fe80::1%eth0`); nil for anything
    /// else, host names included.
    init?(_ text: String) {
        var text = Substring(text)
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        if let zone = text.firstIndex(of: "%") { text = text[..<zone] }
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, String(text), &v4) == 1 {
            storage = .v4(UInt32(bigEndian: v4.s_addr))
        } else if inet_pton(AF_INET6, String(text), &v6) == 1 {
            storage = Self.storage(v6)
        } else {
            return nil
        }
    }

    /// The address of a socket address (`sockaddr_in` or `sockaddr_in6`); nil for other families
    /// or a short one.
    init?(socketAddress: UnsafePointer<sockaddr>, length: Int) {
        switch Int32(socketAddress.pointee.sa_family) {
        case AF_INET where length >= MemoryLayout<sockaddr_in>.size:
            let address = UnsafeRawPointer(socketAddress).loadUnaligned(as: sockaddr_in.self)
            storage = .v4(UInt32(bigEndian: address.sin_addr.s_addr))
        case AF_INET6 where length >= MemoryLayout<sockaddr_in6>.size:
            let address = UnsafeRawPointer(socketAddress).loadUnaligned(as: sockaddr_in6.self)
            storage = Self.storage(address.sin6_addr)
        default:
            return nil
        }
    }

    private static func storage(_ address: in6_addr) -> Storage {
        withUnsafeBytes(of: address) { bytes in
            let high = bytes[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let low = bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return .v6(high, low)
        }
    }

    /// Whether the address is reachable on the internet.
    var isPublic: Bool { scope == .public }

    /// The kind of network the address belongs to. An IPv6 address that carries an IPv4 one
    /// (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4
    /// `2002::/16`) has the scope of that IPv4 address.
    var scope: Scope {
        switch storage {
        case .v4(let bits): return Self.scope(ipv4: bits)
        case .v6(let high, let low): return Self.scope(ipv6: high, low)
        }
    }

    private static func scope(ipv4 bits: UInt32) -> Scope {
        func within(_ network: UInt32, _ prefix: UInt32) -> Bool {
            bits >> (32 - prefix) == network >> (32 - prefix)
        }
        if within(0x0000_0000, 8) { return .unspecified }
        if within(0x7F00_0000, 8) { return .loopback }
        if within(0x0A00_0000, 8) || within(0xAC10_0000, 12) || within(0xC0A8_0000, 16) { return .privateNetwork }
        if within(0x6440_0000, 10) { return .sharedAddressSpace }
        if within(0xA9FE_0000, 16) { return .linkLocal }
        if within(0xE000_0000, 4) { return .multicast }
        if within(0xF000_0000, 4) || within(0xC000_0000, 24) || within(0xC612_0000, 15) { return .reserved }
        return .public
    }

    private static func scope(ipv6 high: UInt64, _ low: UInt64) -> Scope {
        if high == 0 {
            if low == 0 { return .unspecified }
            if low == 1 { return .loopback }
            // IPv4-mapped ::ffff:0:0/96 and the deprecated IPv4-compatible ::/96.
            if low >> 32 == 0xFFFF || low >> 32 == 0 { return scope(ipv4: UInt32(truncatingIfNeeded: low)) }
        }
        // NAT64 64:ff9b::/96.
        if high == 0x0064_FF9B_0000_0000, low >> 32 == 0 { return scope(ipv4: UInt32(truncatingIfNeeded: low)) }
        // 6to4 2002:V4HI:V4LO::/48.
        if high >> 48 == 0x2002 { return scope(ipv4: UInt32(truncatingIfNeeded: high >> 16)) }
        let top16 = high >> 48
        if top16 & 0xFFC0 == 0xFE80 { return .linkLocal }
        if top16 & 0xFFC0 == 0xFEC0 { return .privateNetwork }
        if top16 & 0xFE00 == 0xFC00 { return .uniqueLocal }
        if top16 & 0xFF00 == 0xFF00 { return .multicast }
        if high == 0x0100_0000_0000_0000 { return .reserved }
        return .public
    }

    /// The usual notation: `10.0.0.1`, `::1`.
    var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch storage {
        case .v4(let bits):
            var address = in_addr(s_addr: bits.bigEndian)
            inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
        case .v6(let high, let low):
            var address = in6_addr()
            withUnsafeMutableBytes(of: &address) { bytes in
                for index in 0..<8 {
                    bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * index))
                    bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * index))
                }
            }
            inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
        }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
