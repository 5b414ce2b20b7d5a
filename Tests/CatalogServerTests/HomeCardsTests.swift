import CatalogHTTP
import CatalogModel
import Foundation
import Testing

@testable import CatalogServer

/// The home page's catalog cards (picture, title, description, record count) and the catalog's
/// description in the API: set with PATCH, shown by GET and the catalog list.
@Suite struct HomeCardsTests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    /// The home page's card of catalog `id`: its HTML from its list item to the next.
    func card(_ id: String, in page: String) throws -> String {
        let cards = page.components(separatedBy: "<li class=\"catalog-card\">").dropFirst()
        return try #require(cards.first { $0.contains("href=\"/c/\(id)\"") }, "no card of \(id)")
    }

    func patch(_ id: String, _ json: String) throws -> ServerFixture.Reply {
        try fixture.request(
            .patch, "/api/v1/catalogs/\(id)", headers: [("Content-Type", "application/merge-patch+json")],
            body: Array(json.utf8), token: fixture.adminToken)
    }

    @Test func eachCatalogHasACardWithItsPictureTitleDescriptionAndCount() throws {
        let page = try fixture.request("/", headers: [("Accept-Language", "en")]).text
        let products = try card("products", in: page)
        #expect(products.contains(#"<span class="card-title" lang="en">Products</span>"#))
        #expect(
            products.contains(
                #"<span class="card-description" lang="en">Tools, kitchenware and garden goods"#))
        #expect(products.contains(#"<span class="count">40 records</span>"#))
        #expect(products.contains(#"<img class="card-picture" src="/images/demo/products/"#))
        // The cookbook's picture is its first hot recipe's.
        let cookbook = try card("cookbook", in: page)
        #expect(cookbook.contains(#"<img class="card-picture" src="/images/demo/recipes/"#))
        #expect(cookbook.contains(#"<span class="card-description" lang="hu">Otthoni receptek"#))
        // The sequencers have no pictures: a tile with the initial, no image to break.
        let sequencers = try card("sequencers", in: page)
        #expect(!sequencers.contains("<img"))
        #expect(sequencers.contains(#"<span class="card-picture card-initial" aria-hidden="true">S</span>"#))
        #expect(sequencers.contains(#"<span class="count">11 records</span>"#))
        // The count is in the page's language, with its separators.
        let german = try fixture.request("/", headers: [("Accept-Language", "de")]).text
        #expect(try card("products", in: german).contains(#"<span class="count">40 Einträge</span>"#))
    }

    /// The first featured record's picture, else the first record's in index order that has one,
    /// else none; it follows every import.
    @Test func thePictureIsTheFirstFeaturedElseTheFirstWithOne() throws {
        var definition = CatalogDefinition(id: "shelf", title: "Shelf", locale: "en")
        definition.description = "Fruit <fresh> & dried"
        let plain = Record(id: "a", title: "Apple")
        let banana = Record(id: "b", title: "Banana", image: "/images/shelf/banana.png")
        let cherry = Record(id: "c", title: "Cherry", image: "https://pictures.example/cherry.jpg")
        try fixture.importElsewhere(definition, [plain, banana, cherry])
        var page = try fixture.request("/").text
        var shelf = try card("shelf", in: page)
        #expect(shelf.contains(#"src="/images/shelf/banana.png?size=128""#))
        // The description is text, never markup.
        #expect(shelf.contains("Fruit &lt;fresh&gt; &amp; dried"))

        var featured = cherry
        featured.featured = 1
        try fixture.importElsewhere(definition, [plain, banana, featured])
        page = try fixture.request("/").text
        shelf = try card("shelf", in: page)
        #expect(shelf.contains(#"src="https://pictures.example/cherry.jpg""#))

        try fixture.importElsewhere(definition, [plain, Record(id: "d", title: "Date")])
        page = try fixture.request("/").text
        shelf = try card("shelf", in: page)
        #expect(!shelf.contains("<img"))
        #expect(shelf.contains(#"card-initial" aria-hidden="true">S</span>"#))
    }

    @Test func patchSetsTheDescriptionAndGETShowsIt() throws {
        let set = try patch("products", #"{"description":"Saws & cups."}"#)
        #expect(set.status == 200, "\(set.text)")
        #expect(set.object["description"] as? String == "Saws & cups.")
        #expect(try fixture.request("/api/v1/catalogs/products").object["description"] as? String == "Saws & cups.")
        let listed = try #require(
            try fixture.request("/api/v1/catalogs").object["catalogs"] as? [[String: Any]])
        #expect(listed.first { $0["id"] as? String == "products" }?["description"] as? String == "Saws & cups.")
        #expect(try card("products", in: fixture.request("/").text).contains("Saws &amp; cups."))
        // The client library's types read it.
        let detail = try JSONDecoder().decode(
            CatalogDetail.self, from: Data(try fixture.request("/api/v1/catalogs/products").body))
        #expect(detail.description == "Saws & cups.")
        let list = try JSONDecoder().decode(CatalogList.self, from: Data(try fixture.request("/api/v1/catalogs").body))
        #expect(list.catalogs.first { $0.id == "products" }?.description == "Saws & cups.")

        let tooLong = try patch("products", #"{"description":"\#(String(repeating: "x", count: 501))"}"#)
        #expect(tooLong.status == 422)
        let problems = (tooLong.object["error"] as? [String: Any])?["problems"] as? [[String: Any]] ?? []
        #expect(problems.map { $0["pointer"] as? String } == ["/description"])
        #expect(problems.first?["message"] as? String == "is 501 characters long; a description has at most 500")
        #expect(try patch("products", #"{"description":["x"]}"#).status == 422)
        #expect(try fixture.request("/api/v1/catalogs/products").object["description"] as? String == "Saws & cups.")

        let cleared = try patch("products", #"{"description":null}"#)
        #expect(cleared.status == 200)
        #expect(cleared.object["description"] is NSNull)
        let after = try #require(try fixture.request("/api/v1/catalogs").object["catalogs"] as? [[String: Any]])
        #expect(after.first { $0["id"] as? String == "products" }?["description"] is NSNull)
        #expect(!(try card("products", in: fixture.request("/").text).contains("card-description")))

        // A new catalog takes one too.
        let created = try fixture.request(
            .post, "/api/v1/catalogs", headers: [("Content-Type", "application/json")],
            body: Array(#"{"id":"notes","description":"Jegyzetek."}"#.utf8), token: fixture.adminToken)
        #expect(created.status == 201, "\(created.text)")
        #expect(created.object["description"] as? String == "Jegyzetek.")
    }
}
