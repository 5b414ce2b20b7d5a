import CatalogHTTP
import CatalogTestSupport
import Foundation
import Testing

@testable import CatalogServer

/// The application behind a real server on a loopback port.
@Suite struct LiveServerTests {
    let fixture: ServerFixture
    let server: HTTPServer
    let client: RawClient

    init() throws {
        fixture = try ServerFixture { $0.maxUploadBytes = 64 * 1024 }
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        // The routes' body limits (the import's upload cap), without their lanes.
        let router = fixture.application.router
        configuration.routeOptions = { router.options(method: $0, segments: $1) }
        configuration.maxBodyBytes = 4096
        server = HTTPServer(configuration: configuration, responder: fixture.application.responder, log: { _ in })
        try server.start()
        client = RawClient(port: server.port)
    }

    @Test func aPreviewAndAnImportJobReadAURL() throws {
        // The server's own JSON of five records is the source: a loopback URL may be given (only
        // redirects to private addresses are refused).
        let source = "http://127.0.0.1:\(server.port)/api/v1/catalogs/products/items?limit=5"
        let query = "url=" + source.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! + "&record=items"
        let preview = try fixture.request(
            .post, "/api/v1/catalogs/copied/import/preview?\(query)", token: fixture.adminToken)
        #expect(preview.status == 200, "\(preview.text)")
        #expect(preview.object["format"] as? String == "json")
        #expect((preview.object["records"] as? [Any])?.count == 5)
        let started = try fixture.request(
            .post, "/api/v1/catalogs/copied/import?\(query)", headers: [("Prefer", "respond-async")],
            token: fixture.adminToken)
        #expect(started.status == 202, "\(started.text)")
        let id = try #require(started.object["id"] as? String)
        #expect(fixture.application.importJobs.waitForEnd(of: id)?.state == .done)
        let catalog = try fixture.request("/api/v1/catalogs/copied").object
        #expect(catalog["count"] as? Int == 5)
        // A URL and a body at once is a mistake.
        let both = try fixture.request(
            .post, "/api/v1/catalogs/copied/import/preview?\(query)", headers: [("Content-Type", "text/csv")],
            body: Array("title\nA\n".utf8), token: fixture.adminToken)
        #expect(both.status == 400)
    }

    @Test func jsonOverTheWireWithGzipAndETags() throws {
        let plain = try client.request("GET", "/api/v1/catalogs/products/items?limit=40")
        #expect(plain.status == 200)
        #expect(plain.headers["content-type"] == "application/json; charset=utf-8")
        let zipped = try client.request(
            "GET", "/api/v1/catalogs/products/items?limit=40", headers: [("Accept-Encoding", "gzip, deflate")])
        #expect(zipped.headers["content-encoding"] == "gzip")
        #expect(zipped.body.count < plain.body.count / 3)
        let etag = try #require(zipped.headers["etag"])
        let revalidated = try client.request(
            "GET", "/api/v1/catalogs/products/items?limit=40", headers: [("If-None-Match", etag)])
        #expect(revalidated.status == 304)
    }

    @Test func feedStreamsInChunks() throws {
        let reply = try client.request("GET", "/catalogs/cookbook/feed.xml")
        #expect(reply.status == 200)
        #expect(reply.headers["transfer-encoding"] == "chunked")
        #expect(reply.text.hasPrefix("<?xml"))
        #expect(reply.text.components(separatedBy: "<record>").count - 1 == 32)
    }

    @Test func headOfTheFeedSendsNoBodyAndKeepsTheConnectionInStep() throws {
        let two =
            "HEAD /catalogs/sequencers/feed.xml HTTP/1.1\r\nHost: localhost\r\n\r\n"
            + "GET /api/v1/catalogs HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
        let (raw, closed) = try client.exchangeUntilClosed(Array(two.utf8), timeout: 5)
        let text = String(decoding: raw, as: UTF8.self)
        let firstEnd = try #require(text.range(of: "\r\n\r\n"))
        #expect(text.hasPrefix("HTTP/1.1 200"))
        #expect(text[firstEnd.upperBound...].hasPrefix("HTTP/1.1 200"), "\(text.prefix(600))")
        #expect(text.contains("\"catalogs\""))
        #expect(closed)
    }

    @Test func uploadsBeyondTheLimitAre413() throws {
        let big = [UInt8](repeating: 65, count: 70 * 1024)
        let reply = try client.request(
            "POST", "/api/v1/catalogs/x/import?format=csv",
            headers: [("Authorization", "Bearer \(fixture.adminToken)")],
            body: big)
        #expect(reply.status == 413)
        #expect(reply.text.contains("payload_too_large"))
        // Other routes keep the small default limit.
        let favorites = try client.request(
            "PUT", "/api/v1/favorites/cookbook/r01", body: [UInt8](repeating: 1, count: 5000))
        #expect(favorites.status == 413)
    }

    @Test func hostileParametersComeBackAsData() throws {
        let reply = try client.request("GET", "/api/v1/catalogs/products/search?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E")
        #expect(reply.status == 200)
        #expect(reply.headers["x-content-type-options"] == "nosniff")
        let missing = try client.request("GET", "/api/v1/catalogs/%3Cscript%3E/items")
        #expect(missing.status == 404)
        #expect(!missing.text.contains("<script>"))
    }

    @Test func everyStatusIsLoggedOnce() throws {
        let log = AccessLogProbe()
        var configuration = ServerConfiguration()
        configuration.port = 0
        let logged = HTTPServer(
            configuration: configuration,
            responder: fixture.application.router.wrapped(in: [
                AccessLogMiddleware(log: AccessLog(descriptor: log.writeDescriptor)), ErrorMiddleware(log: { _ in }),
            ]), log: { _ in })
        try logged.start()
        defer { logged.shutdown() }
        _ = try RawClient(port: logged.port).request("GET", "/api/v1/catalogs")
        _ = try RawClient(port: logged.port).request("GET", "/api/v1/catalogs/nope/items")
        let lines = log.read().split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.contains(" GET /api/v1/catalogs 200 ") == true)
        #expect(lines.last?.contains(" GET /api/v1/catalogs/nope/items 404 ") == true)
        #expect(lines.allSatisfy { $0.hasSuffix("us") })
    }
}

/// A pipe the access log writes into.
final class AccessLogProbe {
    let readDescriptor: Int32
    let writeDescriptor: Int32

    init() {
        var descriptors: [Int32] = [0, 0]
        pipe(&descriptors)
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
        _ = fcntl(readDescriptor, F_SETFL, O_NONBLOCK)
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    func read() -> String {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = buffer.withUnsafeMutableBytes { Foundation.read(readDescriptor, $0.baseAddress, $0.count) }
        return String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
    }
}
