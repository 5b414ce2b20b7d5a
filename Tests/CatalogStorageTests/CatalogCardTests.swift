import CatalogCore
import CatalogEngines
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

/// What the home page's card of a catalog reads, the same on every engine: the description kept
/// in the stored definition (no column of its own) and the cover picture.
@Suite struct CatalogCardTests {
    static let engines = TemporaryDatabase.Engine.available
    let management = CatalogManagement.withICU

    @Test(arguments: engines)
    func theDescriptionIsStoredWithTheDefinition(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        var shelf = CatalogDefinition(id: "shelf", title: "Polc", locale: "hu")
        shelf.description = "Gyümölcs, friss és szárított.\nMind kitalált."
        try fixture.load(shelf, [Record(id: "a", title: "Alma")])
        try fixture.load(CatalogDefinition(id: "plain", title: "Plain", locale: "en"), [Record(id: "a", title: "A")])
        #expect(try fixture.read { try $0.catalogs() }.map(\.description) == [nil, shelf.description])
        #expect(try fixture.catalog("shelf").definition.description == shelf.description)
        #expect(try fixture.catalog("shelf").summary.description == shelf.description)

        let changed = try management.update("shelf", in: fixture.database) {
            var settings = $0.settings
            settings.description = "Csak friss."
            return settings
        }
        #expect(changed.change == .definition)
        #expect(changed.detail.description == "Csak friss.")
        #expect(try fixture.read { try $0.catalogs() }.first { $0.id == "shelf" }?.description == "Csak friss.")
        #expect(try fixture.read { try $0.detail(of: $0.requireCatalog("shelf")) }.description == "Csak friss.")
        // A re-import with the stored definition keeps it.
        try fixture.load(try fixture.catalog("shelf").definition, [Record(id: "b", title: "Banán")])
        #expect(try fixture.catalog("shelf").summary.description == "Csak friss.")

        _ = try management.update("shelf", in: fixture.database) {
            var settings = $0.settings
            settings.description = nil
            return settings
        }
        #expect(try fixture.read { try $0.catalogs() }.map(\.description) == [nil, nil])
    }

    /// The first featured record's picture (by rank), else the first record's in index order that
    /// has one, else none.
    @Test(arguments: engines)
    func theCoverIsTheFirstFeaturedPictureElseTheFirstPicture(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        let shelf = CatalogDefinition(id: "shelf", title: "Shelf", locale: "en")
        func cover() throws -> String? { try fixture.read { try $0.coverImage(of: $0.requireCatalog("shelf")) } }
        let apple = Record(id: "a", title: "Apple")
        let banana = Record(id: "b", title: "Banana", image: "/images/shelf/banana.png")
        let cherry = Record(id: "c", title: "Cherry", image: "https://pictures.example/cherry.jpg")
        try fixture.load(shelf, [cherry, apple, banana])
        #expect(try cover() == "/images/shelf/banana.png")
        var hot = cherry
        hot.featured = 2
        var hotter = apple
        hotter.featured = 1
        try fixture.load(shelf, [hot, hotter, banana])
        // Apple is featured first but has no picture: Cherry's is the first featured one.
        #expect(try cover() == "https://pictures.example/cherry.jpg")
        try fixture.load(shelf, [apple, Record(id: "d", title: "Date", image: " ")])
        #expect(try cover() == nil)
        // A picture beyond the first records looked at is not looked for.
        var many = (0..<(CatalogLimits.coverScan + 10)).map { Record(id: "r\($0)", title: String(format: "R%04d", $0)) }
        many[many.count - 1].image = "/images/shelf/last.png"
        try fixture.load(shelf, many)
        #expect(try cover() == nil)
        many[CatalogLimits.coverScan - 1].image = "/images/shelf/within.png"
        try fixture.load(shelf, many)
        #expect(try cover() == "/images/shelf/within.png")
    }
}
