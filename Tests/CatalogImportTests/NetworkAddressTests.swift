#if canImport(Glibc)
    import Glibc
#endif
@testable import CatalogImport
import Testing

@Suite struct NetworkAddressTests {
    @Test(arguments: [
        ("93.184.216.34", NetworkAddress.Scope.public), ("8.8.8.8", .public), ("1.1.1.1", .public),
        ("127.0.0.1", .loopback), ("127.255.255.254", .loopback),
        ("10.0.0.1", .privateNetwork), ("10.255.255.255", .privateNetwork),
        ("172.16.0.1", .privateNetwork), ("172.31.255.255", .privateNetwork), ("172.32.0.1", .public),
        ("172.15.255.255", .public), ("192.168.1.1", .privateNetwork), ("192.169.0.1", .public),
        ("100.64.0.1", .sharedAddressSpace), ("100.127.255.255", .sharedAddressSpace), ("100.128.0.1", .public),
        ("169.254.169.254", .linkLocal), ("169.254.0.1", .linkLocal),
        ("0.0.0.0", .unspecified), ("0.1.2.3", .unspecified),
        ("224.0.0.1", .multicast), ("239.255.255.250", .multicast),
        ("240.0.0.1", .reserved), ("255.255.255.255", .reserved), ("192.0.0.8", .reserved), ("198.18.0.1", .reserved),
        ("2606:4700:4700::1111", .public), ("2001:db8::1", .public),
        ("::1", .loopback), ("[::1]", .loopback), ("::", .unspecified),
        ("fe80::1", .linkLocal), ("fe80::1%eth0", .linkLocal), ("febf::1", .linkLocal),
        ("fec0::1", .privateNetwork), ("fc00::1", .uniqueLocal), ("fd12:3456::1", .uniqueLocal),
        ("ff02::1", .multicast), ("100::1", .reserved),
        ("::ffff:127.0.0.1", .loopback), ("::ffff:7f00:1", .loopback), ("::ffff:10.1.2.3", .privateNetwork),
        ("::ffff:169.254.169.254", .linkLocal), ("::ffff:8.8.8.8", .public), ("::127.0.0.1", .loopback),
        ("64:ff9b::a9fe:a9fe", .linkLocal), ("64:ff9b::808:808", .public),
        ("2002:7f00:1::1", .loopback), ("2002:c0a8:101::1", .privateNetwork), ("2002:808:808::1", .public),
    ])
    func scopes(_ text: String, _ scope: NetworkAddress.Scope) throws {
        let address = try #require(NetworkAddress(text), "\(text) parses")
        #expect(address.scope == scope, "\(text)")
        #expect(address.isPublic == (scope == .public))
    }

    @Test(arguments: ["localhost", "example.org", "", "1.2.3", "256.1.1.1", "[::1", "::g", "127.0.0.1:80"])
    func namesAreNotAddresses(_ text: String) {
        #expect(NetworkAddress(text) == nil)
    }

    @Test func printsTheUsualNotation() throws {
        #expect(NetworkAddress("10.0.0.1")?.description == "10.0.0.1")
        #expect(NetworkAddress("0:0:0:0:0:0:0:1")?.description == "::1")
        #expect(NetworkAddress("FE80:0::1")?.description == "fe80::1")
    }

    @Test func readsSocketAddresses() throws {
        var v4 = sockaddr_in()
        v4.sin_family = sa_family_t(AF_INET)
        v4.sin_addr.s_addr = inet_addr("169.254.169.254")
        let fromV4 = withUnsafePointer(to: &v4) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                NetworkAddress(socketAddress: $0, length: MemoryLayout<sockaddr_in>.size)
            }
        }
        #expect(fromV4?.scope == .linkLocal)
        var v6 = sockaddr_in6()
        v6.sin6_family = sa_family_t(AF_INET6)
        _ = inet_pton(AF_INET6, "::ffff:192.168.0.1", &v6.sin6_addr)
        let fromV6 = withUnsafePointer(to: &v6) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                NetworkAddress(socketAddress: $0, length: MemoryLayout<sockaddr_in6>.size)
            }
        }
        #expect(fromV6?.scope == .privateNetwork)
        // Too short for its family: not read.
        let short = withUnsafePointer(to: &v6) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { NetworkAddress(socketAddress: $0, length: 16) }
        }
        #expect(short == nil)
    }
}
