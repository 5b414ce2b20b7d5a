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

    /// The demo pictures as PNG beside their SVGs (DemoPNG), for image views that do not read SVG.
    @Test func demoPicturesComeAsPNGToo() throws {
        func decoded(_ path: String) throws -> (width: Int, height: Int, pixel: (Int, Int) -> (Int, Int, Int, Int)) {
            let reply = try fixture.request(path)
            #expect(reply.status == 200, "\(path)")
            #expect(reply.response.headers["Content-Type"] == "image/png")
            var bytes = reply.body
            let image = try #require(
                bytes.withUnsafeMutableBytes { gdImageCreateFromPngPtr(Int32($0.count), $0.baseAddress) })
            let size = (Int(cgd_width(image)), Int(cgd_height(image)))
            var pixels: [[Int32]] = []
            for y in 0..<size.1 {
                pixels.append((0..<size.0).map { gdImageGetTrueColorPixel(image, Int32($0), Int32(y)) })
            }
            gdImageDestroy(image)
            return (
                size.0, size.1,
                { x, y in
                    let p = Int(pixels[y][x])
                    return (p >> 16 & 0xFF, p >> 8 & 0xFF, p & 0xFF, p >> 24 & 0x7F)
                }
            )
        }
        func near(_ a: (Int, Int, Int, Int), _ b: (Int, Int, Int, Int)) -> Bool {
            abs(a.0 - b.0) < 24 && abs(a.1 - b.1) < 24 && abs(a.2 - b.2) < 24 && abs(a.3 - b.3) < 8
        }
        // The German flag: 3 : 2, black, red and gold stripes.
        let flag = try decoded("/images/demo/flags/de.png")
        #expect(flag.width == 128 && flag.height == 85)
        #expect(near(flag.pixel(64, 12), (0, 0, 0, 0)))
        #expect(near(flag.pixel(64, 42), (0xDD, 0, 0, 0)))
        #expect(near(flag.pixel(64, 72), (0xFF, 0xCE, 0, 0)))
        // A product tile: rounded corners stay transparent, the tile is opaque, the initial white.
        let tile = try decoded("/images/demo/products/p001.png")
        #expect(tile.width == 128 && tile.height == 128)
        #expect(tile.pixel(1, 1).3 == 127)
        #expect(tile.pixel(64, 4).3 == 0)
        if FileManager.default.fileExists(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf") {
            let white = (40..<88).flatMap { y in (40..<88).map { x in tile.pixel(x, y) } }
                .filter { near($0, (255, 255, 255, 0)) }
            #expect(white.count > 100, "the initial is drawn")
        }
        // Thumbnails of them, and what is not a picture.
        let thumbnail = try fixture.request("/images/demo/recipes/r01.png?size=40")
        #expect(thumbnail.status == 200 && thumbnail.body.count > 24)
        #expect(Int(thumbnail.body[19]) == 40 && Int(thumbnail.body[23]) == 40)
        #expect(try fixture.request("/images/demo/flags/zz.png").status == 404)
        #expect(try fixture.request("/images/demo/products/p001.jpg").status == 404)
        #expect(try fixture.request("/images/demo/products/nope.png").status == 404)
    }

    @Test func pathDataBecomesOutlines() {
        let cross = SVGPathData.outlines("M0 0L30 20M30 0L0 20")
        #expect(cross.count == 2 && cross.allSatisfy { !$0.closed && $0.points.count == 2 })
        // A half circle by an arc with its flags run together, closed.
        let bowl = SVGPathData.outlines("M10 10a5 5 0 0110 0z")
        #expect(bowl.count == 1 && bowl[0].closed)
        for point in bowl[0].points.dropFirst() {
            #expect(abs(hypot(point.x - 15, point.y - 10) - 5) < 0.001)
        }
        #expect(bowl[0].points.last == SVGPoint(x: 20, y: 10))
        #expect(SVGPathData.numbers("1.5-2 .5,3e1") == [1.5, -2, 0.5, 30])
        #expect(SVGPathData.outlines("M1").isEmpty && SVGPathData.outlines("x y z").isEmpty)
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
