import CatalogEngines
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

/// `catalog image`: a record's picture stored in the database, removed, and carried by `catalog copy`
/// (to another SQLite file, and to PostgreSQL and back when a test server is given).
@Suite struct ImageCommandTests {
    /// 120 × 90 pixels, one colour.
    static let png = Data(
        base64Encoded:
            "iVBORw0KGgoAAAANSUhEUgAAAHgAAABaCAIAAAD8YgW4AAAAj0lEQVR42u3QQQkAAAgEsEtiEvtjLFuIj8ESLFPNgSgQLRrRokVbEC0a0aJFWxAtGtGiRSNaNKJFi0a0aESLFo1o0YgWLRrRohEtWjSiRSNatGhEi0a0aNGIFo1o0aIRLRrRokUjWjSiRYtGtGhEixaNaNGIFi0a0aIRLVo0okUjWrRoRItGtGjRiBaN6C8WbHzNIgdh+DcAAAAASUVORK5CYII="
    )!

    func storedImage(_ location: String, _ item: String) throws -> StoredImage? {
        let database = try CatalogEngines.open(location)
        defer { database.close() }
        return try database.read { try $0.storedImage(of: "cookbook", item: item) }
    }

    @Test func anImageIsStoredRemovedAndCopied() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)
        let file = cli.directory.appendingPathComponent("red.png")
        try Self.png.write(to: file)
        let stored = try cli.run(["image", "cookbook", "r01", file.path])
        #expect(stored.status == 0, "\(stored.stderr)")
        #expect(stored.stdout.hasPrefix("/images/stored/cookbook/r01/"))
        #expect(stored.stdout.contains("120 × 90 image/png") && stored.stdout.contains("1 replaced"))
        let shown = try cli.run(["show", "--catalog", "cookbook", "r01", "--json"]).stdout
        #expect(shown.contains("/images/stored/cookbook/r01/"))
        let image = try #require(try storedImage(cli.database, "r01"))
        #expect(image.width == 120 && image.contentType == "image/png")

        let text = cli.directory.appendingPathComponent("notes.txt")
        try Data("no picture".utf8).write(to: text)
        let refused = try cli.run(["image", "cookbook", "r02", text.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("not a JPEG, PNG, GIF or WebP image"))
        #expect(try cli.run(["image", "cookbook", "nope", file.path]).status == 1)
        #expect(try cli.run(["image", "cookbook", "r01"]).status == 64)

        // A copy carries it, to another file and to PostgreSQL and back.
        let copy = cli.directory.appendingPathComponent("copy.sqlite").path
        let copied = try cli.run(["copy", "--to", copy])
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stderr.contains("cookbook: copied 1 stored image to"))
        #expect(try storedImage(copy, "r01") == image)
        if PostgresTestServer.url != nil {
            let postgres = try TemporaryPostgresDatabase()
            #expect(try cli.run(["copy", "--to", postgres.url]).status == 0)
            #expect(try storedImage(postgres.url, "r01") == image)
            let back = cli.directory.appendingPathComponent("back.sqlite").path
            let returned = try cli.run(["copy", "--to", back, "--db", postgres.url], useDatabase: false)
            #expect(returned.status == 0, "\(returned.stderr)")
            #expect(try storedImage(back, "r01") == image)
        }

        let removed = try cli.run(["image", "cookbook", "r01", "--remove"])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try storedImage(cli.database, "r01") == nil)
        #expect(!(try cli.run(["show", "--catalog", "cookbook", "r01", "--json"]).stdout.contains("/images/stored/")))
        #expect(try cli.run(["image", "cookbook", "r01", "--remove"]).status == 1, "no stored image any more")
        #expect(try storedImage(copy, "r01") == image, "the copy is a database of its own")
    }
}
