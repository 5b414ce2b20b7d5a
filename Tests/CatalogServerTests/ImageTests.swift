import CatalogHTTP
import Foundation
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
        #expect(try fixture.request("/images/shop/bomb.png?size=40").status == 422)
        #expect(try fixture.request("/images/shop/red.png?size=5").status == 400)
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
