import CatalogHTTP
import Testing

@testable import CatalogServer

/// Absolute links take the scheme a trusted proxy reports, and the host only from the names the
/// server answers as.
@Suite struct BaseURLTests {
    let base = BaseURL(configured: nil, hostNames: ["catalog.example"], listening: Listening())

    func request(from peer: String, _ fields: [(String, String)]) throws -> Request {
        let headers = HTTPHeaders([("Host", "catalog.example")] + fields)
        var request = try #require(Request(method: .get, target: "/robots.txt", headers: headers))
        request.client = ClientAddress.resolve(
            peer: peer, headers: headers, trusting: [try AddressRange("127.0.0.1/32")])
        return request
    }

    @Test func theSchemeComesFromATrustedProxy() throws {
        let proto = [("X-Forwarded-Proto", "https")]
        #expect(base.resolve(for: try request(from: "127.0.0.1", proto)) == "https://catalog.example")
        #expect(base.resolve(for: try request(from: "192.0.2.7", proto)) == "http://catalog.example")
        #expect(base.resolve(for: try request(from: "127.0.0.1", [])) == "http://catalog.example")
        let configured = BaseURL(configured: "http://public.example", hostNames: [], listening: Listening())
        #expect(configured.resolve(for: try request(from: "127.0.0.1", proto)) == "http://public.example")
    }
}
