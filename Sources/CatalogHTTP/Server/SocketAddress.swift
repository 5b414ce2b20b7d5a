// The socket types come from the C headers both Glibc and the libmicrohttpd shim include; which
// module the compiler credits them to can vary from build to build, so both are imported.
import CMicroHTTPD
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An IPv4 or IPv6 address and port to bind, as the `sockaddr` libmicrohttpd takes.
struct SocketAddress {
    private var storage = sockaddr_storage()
    let isIPv6: Bool

    init(host: String, port: Int) throws(HTTPServerError) {
        guard (0...65535).contains(port) else {
            throw HTTPServerError(.invalidAddress, "port \(port) is out of range (0-65535)")
        }
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        if inet_pton(AF_INET, host, &ipv4) == 1 {
            isIPv6 = false
            withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    address.pointee.sin_family = sa_family_t(AF_INET)
                    address.pointee.sin_port = in_port_t(UInt16(port).bigEndian)
                    address.pointee.sin_addr = ipv4
                }
            }
        } else if inet_pton(AF_INET6, host, &ipv6) == 1 {
            isIPv6 = true
            withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    address.pointee.sin6_family = sa_family_t(AF_INET6)
                    address.pointee.sin6_port = in_port_t(UInt16(port).bigEndian)
                    address.pointee.sin6_addr = ipv6
                }
            }
        } else {
            throw HTTPServerError(.invalidAddress, "'\(host)' is not an IPv4 or IPv6 address")
        }
    }

    /// Calls `body` with a pointer valid for the duration of the call.
    mutating func withPointer<T>(_ body: (UnsafeMutablePointer<sockaddr>) -> T) -> T {
        withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
        }
    }
}
