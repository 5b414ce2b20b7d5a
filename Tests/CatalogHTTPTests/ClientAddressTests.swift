import CatalogTestSupport
import Foundation
import Testing

@testable import CatalogHTTP

/// Who a request comes from behind trusted proxies: `Forwarded` and `X-Forwarded-For` read from
/// the right, skipping trusted hops, and ignored from any other peer.
@Suite struct ClientAddressTests {
    let proxies: [AddressRange]

    init() throws {
        proxies = [try AddressRange("127.0.0.1/32"), try AddressRange("10.0.0.0/8"), try AddressRange("fd00::/8")]
    }

    func resolve(peer: String = "127.0.0.1", _ fields: [(String, String)]) -> ClientAddress {
        ClientAddress.resolve(peer: peer, headers: HTTPHeaders(fields), trusting: proxies)
    }

    @Test func xForwardedForGivesTheRightMostHopThatIsNotAProxy() {
        #expect(resolve([("X-Forwarded-For", "203.0.113.9")]).address == "203.0.113.9")
        // Spoofed left-most entries are what the client sent; only the hop our proxy saw counts.
        #expect(resolve([("X-Forwarded-For", "1.1.1.1, 8.8.8.8, 203.0.113.9")]).address == "203.0.113.9")
        #expect(resolve([("X-Forwarded-For", "1.1.1.1, 203.0.113.9, 10.1.2.3, 10.4.5.6")]).address == "203.0.113.9")
        // Every hop trusted: the left-most.
        #expect(resolve([("X-Forwarded-For", "10.9.9.9, 10.1.2.3")]).address == "10.9.9.9")
        // Several lines are one list, in order.
        let lines = resolve([("X-Forwarded-For", "1.1.1.1, 198.51.100.7"), ("X-Forwarded-For", "10.0.0.2")])
        #expect(lines.address == "198.51.100.7")
        #expect(lines.peer == "127.0.0.1")
        #expect(lines.peerIsTrustedProxy && lines.headersAreTrusted)
    }

    @Test func ipv6AndPortsAreUnderstoodAndWrittenAsTheServerWritesAddresses() {
        #expect(resolve([("X-Forwarded-For", "2001:DB8:0:0::1")]).address == "2001:db8::1")
        #expect(resolve([("X-Forwarded-For", "[2001:db8::1]:4711")]).address == "2001:db8::1")
        #expect(resolve([("X-Forwarded-For", "203.0.113.9:51000")]).address == "203.0.113.9")
        #expect(resolve([("X-Forwarded-For", "203.0.113.9, fd00::5")]).address == "203.0.113.9")
        #expect(resolve(peer: "fd00::1", [("X-Forwarded-For", "198.51.100.7")]).address == "198.51.100.7")
    }

    @Test func forwardedIsPreferredAndReadAsRFC7239Says() {
        let both = resolve([("Forwarded", "for=198.51.100.7"), ("X-Forwarded-For", "203.0.113.9")])
        #expect(both.address == "198.51.100.7")
        #expect(resolve([("Forwarded", #"for="[2001:db8::1]:4711""#)]).address == "2001:db8::1")
        #expect(resolve([("Forwarded", #"For="198.51.100.7:80";proto=https;by=10.0.0.1"#)]).address == "198.51.100.7")
        let chain = resolve([("Forwarded", "for=1.1.1.1, for=203.0.113.9;proto=https, for=10.0.0.3;proto=http")])
        #expect(chain.address == "203.0.113.9")
        #expect(chain.scheme == "https", "the scheme the chosen hop was received over")
        // Quoted commas and semicolons do not split.
        #expect(resolve([("Forwarded", #"for=203.0.113.9;by="a,b;c""#)]).address == "203.0.113.9")
        // Several lines are one list.
        let lines = resolve([("Forwarded", "for=1.1.1.1"), ("Forwarded", "for=203.0.113.9")])
        #expect(lines.address == "203.0.113.9")
    }

    @Test func unknownAndObfuscatedHopsEndTheWalk() {
        // Nothing left of a hop the proxy could not name can be believed: the proxy is the client.
        #expect(resolve([("Forwarded", "for=1.1.1.1, for=unknown")]).address == "127.0.0.1")
        #expect(resolve([("Forwarded", "for=1.1.1.1, for=_hidden, for=10.0.0.7")]).address == "10.0.0.7")
        #expect(resolve([("Forwarded", #"for="_gazonk""#)]).address == "127.0.0.1")
        #expect(resolve([("X-Forwarded-For", "1.1.1.1, unknown")]).address == "127.0.0.1")
        // An obfuscated port is still an address.
        #expect(resolve([("Forwarded", #"for="198.51.100.7:_port""#)]).address == "198.51.100.7")
    }

    @Test func garbageNeverCrashesAndFallsBackToThePeer() {
        let garbage = [
            "", ",", ";;;", "for=", "for=\"", #"for="[2001:db8::1"#, "for=[::1]x", "for=1.2.3.4:", "for=1.2.3.4:99x",
            "for=999.1.1.1", "for=\"1.2.3.4\"junk", "=;=,=", String(repeating: "for=\"\\", count: 500),
            "for=1.2.3.4:5:6", "\u{0}\u{1}", "for=ĳ.example",
        ]
        for value in garbage {
            #expect(resolve([("Forwarded", value)]).address == "127.0.0.1", "Forwarded: \(value)")
            #expect(resolve([("X-Forwarded-For", value)]).address == "127.0.0.1", "X-Forwarded-For: \(value)")
        }
        let many = (0..<2000).map { "10.0.\($0 / 256).\($0 % 256)" }.joined(separator: ", ")
        #expect(resolve([("X-Forwarded-For", "203.0.113.9, " + many)]).address == "203.0.113.9")
    }

    @Test func theSchemeComesFromTheTrustedProxyOnly() {
        #expect(resolve([("X-Forwarded-Proto", "https")]).scheme == "https")
        #expect(resolve([("X-Forwarded-For", "203.0.113.9"), ("X-Forwarded-Proto", "HTTPS")]).scheme == "https")
        // One scheme per hop: the chosen hop's.
        let perHop = resolve([("X-Forwarded-For", "203.0.113.9, 10.0.0.2"), ("X-Forwarded-Proto", "https, http")])
        #expect(perHop.scheme == "https")
        #expect(resolve([("X-Forwarded-Proto", "gopher")]).scheme == "http")
        #expect(resolve(peer: "192.0.2.1", [("X-Forwarded-Proto", "https")]).scheme == "http")
    }

    @Test func anUntrustedPeersHeadersAreIgnored() {
        let direct = resolve(peer: "192.0.2.1", [("X-Forwarded-For", "203.0.113.9"), ("Forwarded", "for=1.1.1.1")])
        #expect(direct.address == "192.0.2.1")
        #expect(!direct.peerIsTrustedProxy && !direct.headersAreTrusted)
        // No proxies configured: nobody's headers count, and everyone may still name a request id.
        let none = ClientAddress.resolve(
            peer: "127.0.0.1", headers: HTTPHeaders([("X-Forwarded-For", "203.0.113.9")]), trusting: [])
        #expect(none.address == "127.0.0.1")
        #expect(none.headersAreTrusted)
    }

    @Test func onlyTrustedProxiesChooseTheRequestIDWhenProxiesAreConfigured() throws {
        let ids = RequestID { "fresh" }
        var request = try #require(Request(method: .get, target: "/", headers: HTTPHeaders([("X-Request-Id", "mine")])))
        #expect(ids.id(for: request) == "mine", "no proxies configured: today's rule")
        request.client = resolve(peer: "192.0.2.1", [])
        #expect(ids.id(for: request) == "fresh")
        request.client = resolve(peer: "127.0.0.1", [])
        #expect(ids.id(for: request) == "mine")
    }

    @Test func aLiveServerResolvesTheClientOnceForEveryRequest() throws {
        let loopback = try AddressRange("127.0.0.1/32")
        let server = try HTTPServerTests.makeServer { $0.trustedProxies = [loopback] }
        defer { server.shutdown() }
        func client(from source: String, _ headers: String) throws -> String {
            let client = RawClient(port: server.port)
            let socket = try client.connect(from: source)
            defer { close(socket) }
            RawClient.sendAll(
                Array("GET /client HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\(headers)\r\n".utf8), on: socket)
            return RawClient.parse(client.readUntilClosed(socket, timeout: 10).bytes).text
        }
        let forwarded = "X-Forwarded-For: 6.6.6.6, 203.0.113.9\r\nX-Forwarded-Proto: https\r\n"
        #expect(try client(from: "127.0.0.1", forwarded) == "203.0.113.9 https")
        #expect(try client(from: "127.0.0.2", forwarded) == "127.0.0.2 http")
    }
}
