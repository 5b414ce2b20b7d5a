import Testing

@testable import CatalogHTTP

/// The framing rules on their own, without sockets.
@Suite struct RequestFramingTests {
    static func check(_ headers: [(String, String)], nul: Bool = false) -> RequestFraming.Verdict {
        check(version: "HTTP/1.1", headers, nul: nul)
    }

    static func check(version: String, _ headers: [(String, String)], nul: Bool = false) -> RequestFraming.Verdict {
        RequestFraming.check(
            version: version, targetHasNUL: nul, targetIsVisible: true,
            headers: headers.map { (name: $0.0, value: $0.1) })
    }

    @Test func plainRequestsPass() {
        #expect(Self.check([("Host", "localhost:8080")]) == .accept)
        #expect(Self.check([("Host", "x"), ("Content-Length", "12")]) == .accept)
        #expect(Self.check([("Host", "x"), ("Transfer-Encoding", "chunked")]) == .accept)
        #expect(Self.check([("Host", "x"), ("Transfer-Encoding", "Chunked")]) == .accept)
        #expect(Self.check([("Host", "x"), ("Content-Length", "3"), ("Content-Length", "3")]) == .accept)
        #expect(Self.check(version: "HTTP/1.0", []) == .accept, "HTTP/1.0 needs no Host")
        #expect(Self.check([("Host", "[::1]:80")]) == .accept)
    }

    @Test(arguments: [
        [("Host", "x"), ("Content-Length", "3"), ("Transfer-Encoding", "chunked")],
        [("Host", "x"), ("Transfer-Encoding", "chunked"), ("Content-Length", "0")],
        [("Host", "x"), ("Content-Length", "5"), ("Content-Length", "30")],
        [("Host", "x"), ("Content-Length", "5, 5")],
        [("Host", "x"), ("Content-Length", "-1")],
        [("Host", "x"), ("Transfer-Encoding", "chunked, chunked")],
        [("Host", "x"), ("Transfer-Encoding", "chunked"), ("Transfer-Encoding", "chunked")],
        [("Host", "x"), ("Transfer-Encoding", "chunked ")],
        [],
        [("Host ", "x")],
        [("Host", "a"), ("Host", "b")],
        [("Host", "a b")],
        [("Host", "evil.example/path")],
        [("Host", "x"), ("X\tBad", "1")],
    ])
    func ambiguousHeadsAre400(_ headers: [(String, String)]) {
        guard case .reject(let status, _) = Self.check(headers) else {
            Issue.record("accepted \(headers)")
            return
        }
        #expect(status == .badRequest, "\(headers)")
    }

    @Test func transferEncodingOnHTTP10Is400() {
        guard
            case .reject(let status, let message) = Self.check(version: "HTTP/1.0", [("Transfer-Encoding", "chunked")])
        else {
            Issue.record("accepted")
            return
        }
        #expect(status == .badRequest)
        #expect(message.contains("HTTP/1.0"))
    }

    @Test(arguments: ["xchunked", "gzip", "gzip, chunked", "identity"])
    func unknownCodingsAre501(_ coding: String) {
        guard case .reject(let status, let message) = Self.check([("Host", "x"), ("Transfer-Encoding", coding)]) else {
            Issue.record("accepted \(coding)")
            return
        }
        #expect(status == .notImplemented)
        #expect(message.contains("not supported"))
    }

    @Test func targetsWithANulOrSpacesAre400() {
        #expect(
            Self.check([("Host", "x")], nul: true) == .reject(.badRequest, "the request target contains a NUL byte"))
        let spaced = RequestFraming.check(
            version: "HTTP/1.1", targetHasNUL: false, targetIsVisible: false, headers: [("Host", "x")])
        #expect(spaced == .reject(.badRequest, "the request target contains spaces or control characters"))
        let bytes: [UInt8] = Array("/a b".utf8)
        #expect(!bytes.withUnsafeBufferPointer { RequestFraming.isVisible($0) })
        let fine: [UInt8] = Array("/api/v1/catalogs?q=a+b%20c&x=ä".utf8)
        #expect(fine.withUnsafeBufferPointer { RequestFraming.isVisible($0) })
    }

    @Test func otherVersionsAre505() {
        #expect(
            Self.check(version: "HTTP/2.0", [("Host", "x")])
                == .reject(HTTPStatus(rawValue: 505), "only HTTP/1.0 and HTTP/1.1 are supported"))
    }
}
