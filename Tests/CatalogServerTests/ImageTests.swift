import CGD
import CatalogHTTP
import CatalogTestSupport
import Foundation
import Synchronization
import Testing

@testable import CatalogServer

@Suite struct ImageTests {
    let fixture: ServerFixture

    init() throws {
        fixture = try ServerFixture()
        let png = Data(base64Encoded: Self.png)!
        try FileManager.default.createDirectory(
            at: fixture.images.appendingPathComponent("shop"), withIntermediateDirectories: true)
        try png.write(to: fixture.images.appendingPathComponent("shop/red.png"))
        try Data(base64Encoded: Self.bomb)!.write(to: fixture.images.appendingPathComponent("shop/bomb.png"))
        try Data("secret".utf8).write(to: fixture.directory.appendingPathComponent("secret.png"))
        try FileManager.default.createSymbolicLink(
            atPath: fixture.images.appendingPathComponent("shop/link.png").path,
            withDestinationPath: fixture.directory.appendingPathComponent("secret.png").path)
    }

    /// 120 × 90 pixels, one color.
    static let png =
        "iVBORw0KGgoAAAANSUhEUgAAAHgAAABaCAIAAAD8YgW4AAAAj0lEQVR42u3QQQkAAAgEsEtiEvtjLFuIj8ESLFPNgSgQLRrRokVbEC0a0aJFWxAtGtGiRSNaNKJFi0a0aESLFo1o0YgWLRrRohEtWjSiRSNatGhEi0a0aNGIFo1o0aIRLRrRokUjWjSiRYtGtGhEixaNaNGIFi0a0aIRLVo0okUjWrRoRItGtGjRiBaN6C8WbHzNIgdh+DcAAAAASUVORK5CYII="
    /// A header claiming 60,000 × 60,000 pixels.
    static let bomb = "iVBORw0KGgoAAAANSUhEUgAA6mAAAOpgCAIAAAAPsOIVAAAADElEQVR42mM4IWcDAALUASNMnwvaAAAAAElFTkSuQmCC"

    @Test func demoPicturesWithCachingHeaders() throws {
        let reply = try fixture.request("/images/demo/flags/de.svg")
        #expect(reply.status == 200)
        #expect(reply.response.headers["Content-Type"] == "image/svg+xml")
        #expect(reply.response.headers["Cache-Control"] == "public, max-age=604800")
        #expect(reply.response.headers["Last-Modified"]?.hasSuffix(" GMT") == true)
        #expect(reply.response.headers["Content-Security-Policy"]?.contains("sandbox") == true)
        let etag = try #require(reply.response.headers["ETag"])
        #expect(try fixture.request("/images/demo/flags/de.svg", headers: [("If-None-Match", etag)]).status == 304)
        let since = try #require(reply.response.headers["Last-Modified"])
        #expect(try fixture.request("/images/demo/flags/de.svg", headers: [("If-Modified-Since", since)]).status == 304)
    }

    @Test func storedImagesAndThumbnails() throws {
        let original = try fixture.request("/images/shop/red.png")
        #expect(original.status == 200)
        #expect(original.response.headers["Content-Type"] == "image/png")
        let thumbnail = try fixture.request("/images/shop/red.png?size=40")
        #expect(thumbnail.status == 200)
        #expect(thumbnail.response.headers["Content-Type"] == "image/png")
        let bytes = thumbnail.body
        #expect(bytes.count > 24)
        let width = Int(bytes[16]) << 24 | Int(bytes[17]) << 16 | Int(bytes[18]) << 8 | Int(bytes[19])
        let height = Int(bytes[20]) << 24 | Int(bytes[21]) << 16 | Int(bytes[22]) << 8 | Int(bytes[23])
        #expect(width == 40 && height == 30)
        let bomb = try fixture.request("/images/shop/bomb.png?size=40")
        #expect(bomb.status == 422)
        #expect(bomb.text.contains("\"image_too_large\""), "\(bomb.text)")
        #expect(bomb.text.contains("60000 × 60000 pixels"), "refused from its header, before decoding")
        #expect(try fixture.request("/images/shop/red.png?size=5").status == 400)
    }

    /// A 3000 × 3000 PNG with some detail: scaling it takes a noticeable part of a second.
    static let large: Data = {
        let image = gdImageCreateTrueColor(3000, 3000)!
        defer { gdImageDestroy(image) }
        for column in stride(from: 0, to: 3000, by: 3) {
            let color = gdImageColorAllocate(
                image, Int32(column % 256), Int32(column / 12 % 256), Int32(column * 7 % 256))
            gdImageFilledRectangle(image, Int32(column), Int32(column % 97), Int32(column + 2), 2999, color)
        }
        var size: Int32 = 0
        let bytes = gdImagePngPtr(image, &size)!
        defer { gdFree(bytes) }
        return Data(bytes: bytes, count: Int(size))
    }()

    @Test func thumbnailsAreMadeOnALaneOfTheirOwn() throws {
        // One event-loop worker: were thumbnails scaled on it, every other request would wait.
        let live = try SignInTests.Live(threads: 1)
        try Self.large.write(to: live.fixture.images.appendingPathComponent("big.png"))
        let thumbnails = live.fixture.application.thumbnails
        let sent = LockedLines()
        func fetch(_ sizes: [Int], into answers: LockedLines) -> [Thread] {
            sizes.map { size in
                Thread {
                    let client = RawClient(port: live.port)
                    guard let socket = try? client.connect() else { return answers.append("no connection") }
                    defer { close(socket) }
                    let request = "GET /images/big.png?size=\(size) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                    RawClient.sendAll(Array(request.utf8), on: socket)
                    sent.append("\(size)")
                    let reply = RawClient.parse(client.readUntilClosed(socket, timeout: 60).bytes)
                    answers.append("\(reply.status) \(reply.headers["retry-after"] ?? "-")")
                }
            }
        }
        // Twelve different thumbnails at once: one is scaled at a time, eight wait, the rest are 503.
        let answers = LockedLines()
        let threads = fetch(Array(stride(from: 100, to: 220, by: 10)), into: answers)
        threads.forEach { $0.start() }
        #expect(sent.wait(forCount: 12), "every thumbnail request was sent")
        // The server's own counter says when it holds them (or the first answer came back).
        waitUntil { live.server.requestsInFlight >= 9 || !answers.lines.isEmpty }
        let plain = try RawClient(port: live.port).request("GET", "/api/v1/catalogs")
        let answeredBefore = answers.lines.filter { $0.hasPrefix("200") }.count
        #expect(plain.status == 200)
        #expect(answeredBefore < 9, "the plain GET was answered while thumbnails were still being made")
        #expect(answers.wait(forCount: 12))
        let made = answers.lines.filter { $0 == "200 -" }.count
        #expect(made >= 1 && made <= 9, "\(answers.lines)")
        #expect(answers.lines.allSatisfy { $0 == "200 -" || $0 == "503 1" }, "\(answers.lines)")
        #expect(answers.lines.contains("503 1"), "the queue is bounded: \(answers.lines)")
        #expect(thumbnails.made.load(ordering: .relaxed) == made)

        // Identical requests at once are scaled once.
        let before = thumbnails.made.load(ordering: .relaxed)
        let identical = LockedLines()
        let same = fetch([Int](repeating: 64, count: 6), into: identical)
        same.forEach { $0.start() }
        #expect(identical.wait(forCount: 6))
        #expect(identical.lines == [String](repeating: "200 -", count: 6), "\(identical.lines)")
        #expect(thumbnails.made.load(ordering: .relaxed) == before + 1)
    }

    @Test(arguments: [
        "/images/../test.sqlite", "/images/%2E%2E/test.sqlite", "/images/shop/..%2F..%2Ftest.sqlite",
        "/images/%2Fetc%2Fpasswd", "/images//etc/passwd.png", "/images/shop/link.png", "/images/shop/.hidden.png",
        "/images/shop%5C..%5Csecret.png", "/images/demo/../../secret.png", "/images/shop/red.png%00.svg",
        "/images/C:%5Cwindows.png", "/images/shop/missing.png", "/images/shop/red.exe",
    ])
    func pathTricksAre404(_ target: String) throws {
        let reply = try fixture.request(target)
        #expect(reply.status == 404 || reply.status == 400)
        #expect(!reply.text.contains("secret"))
    }
}
