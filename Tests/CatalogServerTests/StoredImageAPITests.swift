import CGD
import CatalogHTTP
import CatalogImages
import CatalogStorage
import Foundation
import Testing

@testable import CatalogServer

/// Stored images through the API: `PUT …/items/{item}/image` recognises the file by its bytes,
/// stores it encoded again (without its metadata), and changes the record as any change does;
/// the image and its thumbnails are served from the database; `DELETE` removes it.
@Suite struct StoredImageAPITests {
    let fixture: ServerFixture
    let item = "/api/v1/catalogs/cookbook/items/r01"

    init() throws {
        fixture = try ServerFixture()
    }

    /// A 120 × 90 image drawn with libgd, in `format`.
    static func picture(_ format: ImageFormat) -> [UInt8] {
        let image = gdImageCreateTrueColor(120, 90)!
        defer { gdImageDestroy(image) }
        gdImageFilledRectangle(image, 0, 0, 119, 89, gdImageColorAllocate(image, 200, 30, 30))
        gdImageFilledRectangle(image, 30, 20, 80, 60, gdImageColorAllocate(image, 20, 40, 220))
        var size: Int32 = 0
        let output: UnsafeMutableRawPointer? =
            switch format {
            case .jpeg: gdImageJpegPtr(image, &size, 90)
            case .png: gdImagePngPtr(image, &size)
            case .gif: gdImageGifPtr(image, &size)
            case .webp: gdImageWebpPtr(image, &size)
            }
        defer { gdFree(output) }
        return Array(UnsafeRawBufferPointer(start: output, count: Int(size)))
    }

    /// A JPEG with an EXIF block holding a GPS position right after its start marker, as a
    /// phone's camera writes it.
    static func jpegWithLocation() -> [UInt8] {
        let jpeg = picture(.jpeg)
        // "Exif\0\0", a little-endian TIFF header, IFD0 with one entry: the GPS IFD pointer, then
        // a GPS IFD with GPSLatitudeRef "N".
        var tiff: [UInt8] = Array("II".utf8) + [0x2A, 0x00, 0x08, 0x00, 0x00, 0x00]
        tiff += [0x01, 0x00, 0x25, 0x88, 0x04, 0x00, 0x01, 0x00, 0x00, 0x00, 0x1A, 0x00, 0x00, 0x00]
        tiff += [0x00, 0x00, 0x00, 0x00]
        tiff += [0x01, 0x00, 0x01, 0x00, 0x02, 0x00, 0x02, 0x00, 0x00, 0x00] + Array("N".utf8) + [0, 0, 0]
        tiff += [0x00, 0x00, 0x00, 0x00] + Array("GPS 47.4979 N 19.0402 E".utf8)
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
    }

    /// A 40 × 20 JPEG, its left half red and its right half blue, whose EXIF block says how it
    /// is to be turned (`orientation`, a big-endian TIFF this time).
    static func sideways(orientation: UInt8) -> [UInt8] {
        let image = gdImageCreateTrueColor(40, 20)!
        defer { gdImageDestroy(image) }
        gdImageFilledRectangle(image, 0, 0, 19, 19, gdImageColorAllocate(image, 230, 0, 0))
        gdImageFilledRectangle(image, 20, 0, 39, 19, gdImageColorAllocate(image, 0, 0, 230))
        var size: Int32 = 0
        let output = gdImageJpegPtr(image, &size, 95)
        defer { gdFree(output) }
        let jpeg = Array(UnsafeRawBufferPointer(start: output, count: Int(size)))
        let tiff: [UInt8] =
            Array("MM".utf8) + [0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01]
            + [0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, orientation, 0x00, 0x00] + [0, 0, 0, 0]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return Array(jpeg[0..<2]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
            + Array(jpeg[2...])
    }

    /// Whether the pixel at `x`, `y` of a JPEG is more red than blue.
    static func isRed(_ jpeg: [UInt8], _ x: Int32, _ y: Int32) -> Bool {
        var copy = jpeg
        let image = copy.withUnsafeMutableBytes { gdImageCreateFromJpegPtr(Int32($0.count), $0.baseAddress) }!
        defer { gdImageDestroy(image) }
        let color = gdImageGetTrueColorPixel(image, x, y)
        return (color >> 16) & 0xFF > color & 0xFF
    }

    @Test func aPhotoIsTurnedAsItsEXIFOrientationSays() throws {
        let upright = try ImageReader.read(Self.sideways(orientation: 1))
        #expect(upright.width == 40 && Self.isRed(upright.bytes, 5, 10) && !Self.isRed(upright.bytes, 35, 10))
        // 6: a quarter turn clockwise, so the left half comes on top.
        let six = try ImageReader.read(Self.sideways(orientation: 6))
        #expect(six.width == 20 && six.height == 40)
        #expect(Self.isRed(six.bytes, 10, 5) && !Self.isRed(six.bytes, 10, 35))
        // 8: a quarter turn counter-clockwise, so the left half comes at the bottom.
        let eight = try ImageReader.read(Self.sideways(orientation: 8))
        #expect(eight.width == 20 && !Self.isRed(eight.bytes, 10, 5) && Self.isRed(eight.bytes, 10, 35))
        // 3: half a turn; 2: mirrored.
        let three = try ImageReader.read(Self.sideways(orientation: 3))
        #expect(three.width == 40 && !Self.isRed(three.bytes, 5, 10) && Self.isRed(three.bytes, 35, 10))
        let two = try ImageReader.read(Self.sideways(orientation: 2))
        #expect(two.width == 40 && !Self.isRed(two.bytes, 5, 10))
        #expect(!String(decoding: six.bytes, as: UTF8.self).contains("Exif"))
    }

    func put(_ body: [UInt8], headers: [(String, String)] = [], token: String? = nil) throws -> ServerFixture.Reply {
        try fixture.request(
            .put, item + "/image", headers: [("Content-Type", "image/jpeg")] + headers, body: body,
            token: token ?? fixture.adminToken)
    }

    @Test func aJPEGIsStoredWithoutItsLocation() throws {
        let upload = Self.jpegWithLocation()
        #expect(upload.starts(with: [0xFF, 0xD8, 0xFF, 0xE1]))
        #expect(String(decoding: upload, as: UTF8.self).contains("GPS 47.4979"))
        let before = try fixture.request(item)
        let reply = try put(upload, headers: [("If-Match", try #require(before.headers["ETag"]))])
        #expect(reply.status == 200, "\(reply.text)")
        let change = try #require(reply.headers["Catalog-Change"].flatMap(Int.init))
        #expect(change == (before.headers["Catalog-Change"].flatMap(Int.init) ?? 0) + 1)
        #expect(reply.headers["ETag"] != before.headers["ETag"])
        let path = try #require(reply.object["image"] as? String)
        #expect(path.hasPrefix("/images/stored/cookbook/r01/") && path.hasSuffix(".jpg"))
        #expect(try fixture.request(item).object["image"] as? String == path)

        let image = try fixture.request(path)
        #expect(image.status == 200)
        #expect(image.headers["Content-Type"] == "image/jpeg")
        #expect(image.headers["Cache-Control"]?.contains("immutable") == true)
        let served = image.body
        #expect(served.starts(with: [0xFF, 0xD8]))
        #expect(!String(decoding: served, as: UTF8.self).contains("Exif"), "the EXIF block is gone")
        #expect(!String(decoding: served, as: UTF8.self).contains("GPS"))
        #expect(try ImageReader.read(served).width == 120)
        let etag = try #require(image.headers["ETag"])
        #expect(!etag.hasPrefix("W/"))
        #expect(try fixture.request(path, headers: [("If-None-Match", etag)]).status == 304)

        let thumbnail = try fixture.request(path + "?size=40")
        #expect(thumbnail.status == 200)
        #expect(thumbnail.headers["Content-Type"] == "image/jpeg")
        #expect(try ImageReader.read(thumbnail.body).width == 40)
    }

    @Test(arguments: [ImageFormat.png, .gif, .webp])
    func otherFormatsAreRecognisedByTheirBytes(format: ImageFormat) throws {
        // The Content-Type says JPEG for every one of them: the bytes decide.
        let reply = try put(Self.picture(format))
        #expect(reply.status == 200, "\(reply.text)")
        let path = try #require(reply.object["image"] as? String)
        #expect(path.hasSuffix(format == .webp ? ".webp" : ".png"))
        let image = try fixture.request(path)
        #expect(image.headers["Content-Type"] == (format == .webp ? "image/webp" : "image/png"))
        #expect(ImageFormat(recognising: image.body) == (format == .webp ? .webp : .png))
    }

    @Test func whatIsNoImageIsRefused() throws {
        let before = try fixture.request(item).headers["ETag"]
        let text = try put(Array("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8))
        #expect(text.status == 415)
        #expect(text.text.contains("not a JPEG, PNG, GIF or WebP image"), "\(text.text)")
        #expect(try put([]).status == 415)
        let damaged = try put(Array(Self.picture(.png).prefix(40)))
        #expect(damaged.status == 422)
        #expect(damaged.errorCode == "not_an_image")
        // A PNG header claiming 60,000 × 60,000 pixels is refused before it is decoded.
        let bomb = try put(Array(Data(base64Encoded: ImageTests.bomb)!))
        #expect(bomb.status == 422)
        #expect(bomb.errorCode == "image_too_large")
        #expect(try fixture.request(item).headers["ETag"] == before, "the record did not change")
    }

    @Test func onlyEditorsStoreImagesOfRecordsThatExist() throws {
        let picture = Self.picture(.png)
        #expect(try put(picture, token: fixture.userToken).status == 403)
        #expect(try fixture.request(.put, item + "/image", body: picture).status == 401)
        let missing = try fixture.request(
            .put, "/api/v1/catalogs/cookbook/items/nope/image", body: picture, token: fixture.adminToken)
        #expect(missing.status == 404)
        #expect(try put(picture, headers: [("If-Match", "\"stale\"")]).status == 412)
        try fixture.elsewhere { _ = try $0.users().grant(user: "mari", catalog: "cookbook", role: .editor) }
        #expect(try put(picture, token: fixture.userToken).status == 200)
    }

    @Test func deletingRemovesTheImageAndClearsTheRecord() throws {
        let stored = try put(Self.picture(.png))
        let path = try #require(stored.object["image"] as? String)
        let change = try #require(stored.headers["Catalog-Change"].flatMap(Int.init))
        let removed = try fixture.request(.delete, item + "/image", token: fixture.adminToken)
        #expect(removed.status == 200)
        #expect(removed.object["image"] is NSNull)
        #expect(removed.headers["Catalog-Change"].flatMap(Int.init) == change + 1)
        #expect(try fixture.request(path).status == 404)
        #expect(try fixture.request(.delete, item + "/image", token: fixture.adminToken).status == 404)

        // A replaced image's old URL is no longer served; deleting the record removes the new one.
        let first = try #require(try put(Self.picture(.png)).object["image"] as? String)
        let second = try #require(try put(Self.picture(.jpeg)).object["image"] as? String)
        #expect(first != second)
        #expect(try fixture.request(first).status == 404)
        #expect(try fixture.request(second).status == 200)
        #expect(try fixture.request(.delete, item, token: fixture.adminToken).status == 204)
        #expect(try fixture.request(second).status == 404)
    }

    @Test func deletingTheCatalogRemovesItsImages() throws {
        let path = try #require(try put(Self.picture(.png)).object["image"] as? String)
        #expect(try fixture.request(path + "?size=32").status == 200)
        #expect(try fixture.request(.delete, "/api/v1/catalogs/cookbook", token: fixture.adminToken).status == 204)
        #expect(try fixture.request(path).status == 404)
        #expect(try fixture.request(path + "?size=32").status == 404)
    }
}
