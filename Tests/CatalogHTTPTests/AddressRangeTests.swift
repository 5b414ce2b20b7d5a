import Testing

@testable import CatalogHTTP

/// Who may read `/metrics`: CIDR blocks matched against the client's address as the server
/// writes it.
@Suite struct AddressRangeTests {
    @Test(arguments: [
        ("127.0.0.0/8", "127.0.0.1", true),
        ("127.0.0.0/8", "127.255.3.4", true),
        ("127.0.0.0/8", "128.0.0.1", false),
        ("10.1.2.3", "10.1.2.3", true),
        ("10.1.2.3", "10.1.2.4", false),
        ("192.168.0.0/20", "192.168.15.255", true),
        ("192.168.0.0/20", "192.168.16.0", false),
        ("0.0.0.0/0", "203.0.113.9", true),
        ("::1/128", "::1", true),
        ("::1", "::2", false),
        ("fd00::/8", "fd12:3456::1", true),
        ("fd00::/8", "fe80::1", false),
        // An IPv4 client on an IPv6 socket arrives mapped.
        ("127.0.0.0/8", "::ffff:127.0.0.1", true),
        ("10.0.0.0/8", "::ffff:127.0.0.1", false),
        // IPv4 blocks never match IPv6 clients and the other way round; non-addresses never match.
        ("127.0.0.0/8", "::1", false),
        ("::/0", "127.0.0.1", false),
        ("0.0.0.0/0", "-", false),
    ])
    func blocksContainTheirAddresses(_ block: String, _ address: String, _ contained: Bool) throws {
        #expect(try AddressRange(block).contains(address) == contained, "\(block) ∋ \(address)")
    }

    @Test func theLoopbackDefaultCoversBothFamilies() {
        #expect(AddressRange.loopback.contains { $0.contains("127.0.0.1") })
        #expect(AddressRange.loopback.contains { $0.contains("::1") })
        #expect(!AddressRange.loopback.contains { $0.contains("192.0.2.7") })
    }

    @Test func theNetworkIsNormalizedAndPrinted() throws {
        #expect(try AddressRange("10.1.2.3/8").description == "10.0.0.0/8")
        #expect(try AddressRange("192.0.2.7").description == "192.0.2.7/32")
        #expect(try AddressRange("fd12::1/16").description == "fd12::/16")
    }

    @Test(arguments: ["", "localhost", "10.0.0.0/33", "::1/129", "10.0.0.0/-1", "10.0.0.0/x", "1.2.3.4.5"])
    func badBlocksAreRefusedNamingThem(_ text: String) {
        #expect(throws: HTTPServerError.self) { try AddressRange(text) }
    }
}
