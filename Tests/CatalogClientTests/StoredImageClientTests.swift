import CatalogClient
import Foundation
import Testing

/// A record's stored image through the client, against a live server: `putImage` and
/// `deleteImage` answer the record as stored, the image is served from the database, bad files
/// are typed errors, and an offline snapshot keeps the record's image URL.
@Suite struct StoredImageClientTests {
    let live: LiveServer
    let admin: CatalogClient

    init() throws {
        live = try LiveServer()
        admin = live.client(token: live.adminToken)
    }

    /// 120 × 90 pixels, one colour.
    static let png = Data(
        base64Encoded:
            "iVBORw0KGgoAAAANSUhEUgAAAHgAAABaCAIAAAD8YgW4AAAAj0lEQVR42u3QQQkAAAgEsEtiEvtjLFuIj8ESLFPNgSgQLRrRokVbEC0a0aJFWxAtGtGiRSNaNKJFi0a0aESLFo1o0YgWLRrRohEtWjSiRSNatGhEi0a0aNGIFo1o0aIRLRrRokUjWjSiRYtGtGhEixaNaNGIFi0a0aIRLVo0okUjWrRoRItGtGjRiBaN6C8WbHzNIgdh+DcAAAAASUVORK5CYII="
    )!

    @Test func anImageIsStoredServedAndRemoved() async throws {
        let before = try await admin.record("r01", in: "cookbook")
        let stored = try await admin.putImage(Self.png, of: "r01", in: "cookbook", ifMatch: before.etag)
        #expect(stored.change == before.change + 1 && stored.etag != before.etag)
        let path = try #require(stored.record.image)
        #expect(path.hasPrefix("/images/stored/cookbook/r01/") && path.hasSuffix(".png"))
        #expect(try await admin.record("r01", in: "cookbook") == stored)
        let served = try await admin.image(for: path)
        #expect(served.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let thumbnail = try await admin.image(for: path, size: 30)
        #expect(thumbnail.count > 0 && thumbnail != served)

        // An offline snapshot keeps the URL: the server goes on serving the image.
        let destination = live.directory.appendingPathComponent("offline/cookbook.sqlite")
        try FileManager.default.createDirectory(
            at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = try await admin.download(catalog: "cookbook", to: destination)
        let offline = try OfflineCatalog(at: destination)
        #expect(try await offline.item("r01", of: "cookbook").image == path)
        offline.close()

        let removed = try await admin.deleteImage(of: "r01", in: "cookbook")
        #expect(removed.record.image == nil && removed.change == stored.change + 1)
        // (This client keeps the image it read: its URL names its content, so it never changes.)
        await #expect(throws: CatalogClientError.self) { try await live.client().image(for: path) }
        let again = await #expect(throws: CatalogClientError.self) {
            try await admin.deleteImage(of: "r01", in: "cookbook")
        }
        #expect(again?.code == .notFound)
    }

    @Test func badFilesAndLostRacesAreTypedErrors() async throws {
        let text = await #expect(throws: CatalogClientError.self) {
            try await admin.putImage(Data("just text".utf8), of: "r02", in: "cookbook")
        }
        #expect(text?.code == .unprocessable && text?.status == 415)
        #expect(text?.message.contains("JPEG, PNG, GIF or WebP") == true, "\(text?.message ?? "")")
        let stale = await #expect(throws: CatalogClientError.self) {
            try await admin.putImage(Self.png, of: "r02", in: "cookbook", ifMatch: "\"stale\"")
        }
        #expect(stale?.code == .preconditionFailed)
        #expect(stale?.currentETag == (try await admin.record("r02", in: "cookbook").etag))
        let missing = await #expect(throws: CatalogClientError.self) {
            try await admin.putImage(Self.png, of: "nope", in: "cookbook")
        }
        #expect(missing?.code == .notFound)
        let viewer = live.client(token: live.userToken)
        let forbidden = await #expect(throws: CatalogClientError.self) {
            try await viewer.putImage(Self.png, of: "r02", in: "cookbook")
        }
        #expect(forbidden?.code == .forbidden)
    }
}
