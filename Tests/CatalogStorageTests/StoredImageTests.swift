import CatalogCollation
import CatalogCore
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

/// Images stored for records (``StoredImageEditor``), on every engine: the image and the record's
/// `image` change together as one numbered change, a record keeps its stored image only while it
/// names it, and deleting the record or the catalog removes it.
@Suite struct StoredImageTests {
    static let engines = TemporaryDatabase.Engine.available

    static let red = PreparedImage(bytes: Array("red pixels".utf8), contentType: "image/png", width: 3, height: 2)
    static let blue = PreparedImage(bytes: Array("blue pixels".utf8), contentType: "image/jpeg", width: 4, height: 4)

    func put(_ fixture: StoreFixture, _ image: PreparedImage, _ item: String, precondition: EditPrecondition = .any)
        throws -> (outcome: EditOutcome, location: StoredImageLocation)
    {
        try StoredImageEditor.put(
            image, of: item, in: "cookbook", database: fixture.database, collation: try ICUCollation(locale: "hu"),
            precondition: precondition, actor: "mari", now: Date(timeIntervalSince1970: 1_800_000_000))
    }

    func stored(_ fixture: StoreFixture, _ item: String) throws -> StoredImage? {
        try fixture.read { try $0.storedImage(of: "cookbook", item: item) }
    }

    @Test(arguments: engines)
    func anImageIsStoredWithTheRecordsChange(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let before = try fixture.catalog("cookbook").change
        let (outcome, location) = try put(fixture, Self.red, "r2")
        #expect(outcome.change == before + 1)
        #expect(outcome.results.map(\.result) == [.replaced])
        #expect(location.path == "/images/stored/cookbook/r2/\(location.hash).png")
        #expect(try fixture.item("cookbook", "r2")?.image == location.path)
        #expect(try fixture.item("cookbook", "r2")?.title == "Cukros palacsinta", "the rest of the record is kept")
        let image = try #require(try stored(fixture, "r2"))
        #expect(image.bytes == Self.red.bytes)
        #expect(image.contentType == "image/png" && image.width == 3 && image.height == 2)
        #expect(image.hash == location.hash)
        #expect(image.storedAt.hasPrefix("2027-01-15T08:00:00"))
        let history = try fixture.read { try $0.history(of: fixture.catalog("cookbook"), item: "r2", limit: 5) }
        #expect(history.first?.number == outcome.change && history.first?.actor == "mari")

        // A new image replaces the old one under a new URL.
        let (_, second) = try put(fixture, Self.blue, "r2")
        #expect(second.hash != location.hash && second.fileExtension == "jpg")
        #expect(try stored(fixture, "r2")?.bytes == Self.blue.bytes)
        #expect(try fixture.item("cookbook", "r2")?.image == second.path)
        var listed: [String] = []
        try fixture.read { try $0.forEachStoredImage(of: "cookbook") { listed.append($0.item) } }
        #expect(listed == ["r2"])
    }

    @Test(arguments: engines)
    func aRecordKeepsItsImageOnlyWhileItNamesIt(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let collation = try ICUCollation(locale: "hu")
        let (_, location) = try put(fixture, Self.red, "r3")
        _ = try put(fixture, Self.red, "r4")
        // A change that keeps the image keeps it.
        var record = try #require(try fixture.item("cookbook", "r3"))
        record.subtitle = "Bográcsban"
        _ = try CatalogEditor.apply(
            [RecordEdit(.upsert(record))], to: "cookbook", in: fixture.database, collation: collation)
        #expect(try stored(fixture, "r3")?.hash == location.hash)
        // One that names another image lets it go.
        record.image = "https://example.com/gulyas.jpg"
        _ = try CatalogEditor.apply(
            [RecordEdit(.upsert(record))], to: "cookbook", in: fixture.database, collation: collation)
        #expect(try stored(fixture, "r3") == nil)
        // Deleting the record deletes its image.
        _ = try CatalogEditor.apply(
            [RecordEdit(.delete(id: "r4"))], to: "cookbook", in: fixture.database, collation: collation)
        #expect(try stored(fixture, "r4") == nil)
    }

    @Test(arguments: engines)
    func removingClearsTheRecordsImage(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let collation = try ICUCollation(locale: "hu")
        let (put, _) = try put(fixture, Self.red, "r5")
        let removed = try StoredImageEditor.remove(
            of: "r5", in: "cookbook", database: fixture.database, collation: collation)
        #expect(removed?.change == put.change + 1)
        #expect(try fixture.item("cookbook", "r5")?.image == nil)
        #expect(try stored(fixture, "r5") == nil)
        #expect(
            try StoredImageEditor.remove(of: "r5", in: "cookbook", database: fixture.database, collation: collation)
                == nil)
        #expect(try fixture.catalog("cookbook").change == put.change + 1, "removing nothing is no change")
    }

    @Test(arguments: engines)
    func aFailedChangeStoresNothing(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let change = try fixture.catalog("cookbook").change
        let stale = try #require(throws: EditFailure.self) {
            try put(fixture, Self.red, "r6", precondition: .matches("\"stale\""))
        }
        #expect(
            stale.reason
                == .preconditionFailed(
                    current: CatalogEditor.etag(
                        of: try fixture.read { reader in
                            try #require(try reader.item(of: fixture.catalog("cookbook"), id: "r6")).json
                        })))
        #expect(try stored(fixture, "r6") == nil)
        let missing = try #require(throws: EditFailure.self) { try put(fixture, Self.red, "nope") }
        #expect(missing.reason == .notFound)
        #expect(try stored(fixture, "nope") == nil)
        #expect(try fixture.catalog("cookbook").change == change)
    }

    @Test(arguments: engines)
    func deletingTheCatalogDeletesItsImages(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        var other = StoreFixture.cookbook
        other.id = "other"
        try fixture.load(other, StoreFixture.recipes)
        _ = try put(fixture, Self.red, "r1")
        _ = try StoredImageEditor.put(
            Self.blue, of: "r1", in: "other", database: fixture.database, collation: try ICUCollation(locale: "hu"))
        #expect(try fixture.database.write { try $0.deleteCatalog("cookbook") })
        #expect(try stored(fixture, "r1") == nil)
        #expect(try fixture.read { try $0.storedImage(of: "other", item: "r1") }?.bytes == Self.blue.bytes)
        // A catalog made again under the same id does not find the old images.
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        #expect(try stored(fixture, "r1") == nil)
    }

    @Test(arguments: engines)
    func anImportThatWritesTheCatalogAnewKeepsOnlyTheImagesItsRecordsName(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let (_, kept) = try put(fixture, Self.red, "r1")
        _ = try put(fixture, Self.blue, "r2")
        // A new title writes a whole new version: r1 still names its image, r2 names none.
        var definition = StoreFixture.cookbook
        definition.title += " (new)"
        let records = StoreFixture.recipes.map { record -> Record in
            var record = record
            if record.id == "r1" { record.image = kept.path }
            return record
        }
        try fixture.load(definition, records)
        #expect(try stored(fixture, "r1")?.hash == kept.hash)
        #expect(try stored(fixture, "r2") == nil)
    }
}
