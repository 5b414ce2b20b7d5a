import CatalogHTTP
import Foundation
import Testing

@testable import CatalogServer

@Suite struct CatalogAPITests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    @Test func catalogsList() throws {
        let reply = try fixture.request("/api/v1/catalogs")
        #expect(reply.status == 200)
        let catalogs = try #require(reply.object["catalogs"] as? [[String: Any]])
        #expect(catalogs.map { $0["id"] as? String } == ["cookbook", "products", "sequencers"])
        #expect(Set(catalogs[0].keys) == ["id", "title", "description", "locale", "count", "visibility"])
        #expect(catalogs.allSatisfy { $0["visibility"] as? String == "public" })
        #expect(catalogs.first { $0["id"] as? String == "sequencers" }?["locale"] as? String == "de")
    }

    @Test func catalogDetail() throws {
        let reply = try fixture.request("/api/v1/catalogs/sequencers")
        #expect(reply.object["scopes"] as? [String] == ["Alle", "Windows", "Apple", "Apple&Win"])
        #expect(try fixture.request("/api/v1/catalogs/nope").status == 404)
    }

    @Test func sectionsInLocaleOrder() throws {
        let reply = try fixture.request("/api/v1/catalogs/cookbook/sections")
        let sections = try #require(reply.object["sections"] as? [[String: Any]])
        let labels = sections.compactMap { $0["label"] as? String }
        #expect(labels.contains("CS"))
        #expect(sections.allSatisfy { ($0["count"] as? Int ?? 0) > 0 })
        #expect(try fixture.request("/api/v1/catalogs/nope/sections").errorCode == "not_found")
    }

    @Test func keysetPagesCoverTheCatalogInOrder() throws {
        var ids: [String] = []
        var cursor: String?
        repeat {
            let after =
                cursor.map { "&after=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") } ?? ""
            let reply = try fixture.request("/api/v1/catalogs/products/items?limit=7" + after)
            #expect(reply.status == 200)
            let items = try #require(reply.object["items"] as? [[String: Any]])
            #expect(items.count <= 7)
            ids += items.compactMap { $0["id"] as? String }
            cursor = reply.object["next"] as? String
        } while cursor != nil
        #expect(ids.count == 40)
        #expect(Set(ids).count == 40)
        let whole = try fixture.request("/api/v1/catalogs/products/items?limit=500")
        #expect((whole.object["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ids)
    }

    @Test(arguments: [
        ("/api/v1/catalogs/products/items?limit=0", 400), ("/api/v1/catalogs/products/items?limit=501", 400),
        ("/api/v1/catalogs/products/items?limit=abc", 400), ("/api/v1/catalogs/products/items?after=GARBAGE%21", 400),
        ("/api/v1/catalogs/products/items?section=%3Cscript%3E", 404), ("/api/v1/catalogs/nope/items", 404),
        ("/api/v1/catalogs/products/items?after=", 400), ("/api/v1/catalogs/cookbook/categories/Nope/items", 404),
        ("/api/v1/catalogs/sequencers/search?scope=Linux", 404), ("/api/v1/catalogs/nope/search?q=a", 404),
        ("/api/v1/catalogs/products/search?limit=1000", 400), ("/api/v1/catalogs/products/items/nope", 404),
        ("/api/v1/catalogs/products/featured?limit=-1", 400),
    ])
    func badParametersAndUnknownNames(_ target: String, _ status: Int) throws {
        let reply = try fixture.request(target)
        #expect(reply.status == status)
        #expect(reply.errorCode != nil)
        #expect(reply.response.headers["Content-Type"]?.hasPrefix("application/json") == true)
    }

    @Test func itemByID() throws {
        let reply = try fixture.request("/api/v1/catalogs/cookbook/items/r01")
        #expect(reply.object["title"] as? String == "Csirkepaprikás")
        #expect(reply.object["section"] as? String == "CS")
        #expect((reply.object["fields"] as? [String: Any])?["complexity"] as? String == "1 óra")
    }

    @Test func searchWithScopesAndRanges() throws {
        let reply = try fixture.request("/api/v1/catalogs/sequencers/search?q=KLANG")
        let items = try #require(reply.object["items"] as? [[String: Any]])
        #expect(items.first?["title"] as? String == "Klangwerk Studio")
        let matches = try #require(items.first?["matches"] as? [[String: Any]])
        #expect(
            matches.contains {
                $0["field"] as? String == "title" && $0["start"] as? Int == 0 && $0["length"] as? Int == 5
            })
        let scopes = try #require(reply.object["scopes"] as? [[String: Any]])
        #expect(scopes.map { $0["label"] as? String } == ["Alle", "Windows", "Apple", "Apple&Win"])

        let both = try fixture.request("/api/v1/catalogs/sequencers/search?scope=Apple%26Win")
        let bothItems = try #require(both.object["items"] as? [[String: Any]])
        #expect(!bothItems.isEmpty)
        #expect(bothItems.allSatisfy { Set($0["categories"] as? [String] ?? []).isSuperset(of: ["Apple", "Windows"]) })
    }

    @Test(arguments: [
        "\"foo OR", "NEAR(a b)", "*", "-x", "'; DROP TABLE items; --", "title:Klang", "a\"b\"c", "%00", "^k",
        "<script>alert(1)</script>", String(repeating: "é", count: 200),
    ])
    func queryTextIsAlwaysData(_ query: String) throws {
        let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let reply = try fixture.request("/api/v1/catalogs/products/search?q=" + encoded)
        #expect(reply.status == 200 || (reply.status == 400 && reply.errorCode == "bad_request"))
        #expect(try fixture.request("/api/v1/catalogs/products/items?limit=1").status == 200)
    }

    @Test func categoriesAndFeatured() throws {
        let categories = try #require(
            try fixture.request("/api/v1/catalogs/cookbook/categories").object["categories"] as? [[String: Any]])
        #expect(categories.count == 8)
        let featured = try #require(
            try fixture.request("/api/v1/catalogs/cookbook/featured").object["items"] as? [[String: Any]])
        #expect(featured.count == 6)
        #expect(featured.allSatisfy { $0["featured"] is Int })
        let name = try #require(categories[0]["name"] as? String)
        let encoded = try #require(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let byCategory = try fixture.request("/api/v1/catalogs/cookbook/categories/\(encoded)/items")
        #expect((byCategory.object["items"] as? [Any])?.count == categories[0]["count"] as? Int)
    }

    @Test func etagsAnd304() throws {
        let first = try fixture.request("/api/v1/catalogs/products/items?limit=5")
        let etag = try #require(first.response.headers["ETag"])
        #expect(first.response.headers["Cache-Control"] == "no-cache")
        let second = try fixture.request("/api/v1/catalogs/products/items?limit=5", headers: [("If-None-Match", etag)])
        #expect(second.status == 304)
        #expect(second.body.isEmpty)
    }

    @Test func corsOnTheAPI() throws {
        let reply = try fixture.request("/api/v1/catalogs")
        #expect(reply.response.headers["Access-Control-Allow-Origin"] == "*")
        let preflight = try fixture.request(
            .options, "/api/v1/favorites/cookbook/r01",
            headers: [("Origin", "https://app.example"), ("Access-Control-Request-Method", "PUT")])
        #expect(preflight.status == 204)
        #expect(preflight.response.headers["Access-Control-Allow-Methods"] == "DELETE, PUT")
        #expect(preflight.response.headers["Access-Control-Allow-Headers"]?.contains("Authorization") == true)
    }

    @Test func openAPIDescribesEveryRoute() throws {
        let reply = try fixture.request("/api/v1/openapi.json")
        #expect(reply.status == 200)
        let paths = try #require(reply.object["paths"] as? [String: [String: Any]])
        for (method, pattern) in fixture.application.router.routes
        where pattern.hasPrefix("/api/") || pattern.hasPrefix("/get") || pattern.hasPrefix("/catalogs/")
            || pattern == "/healthz" || pattern == "/readyz"
        {
            #expect(paths[pattern]?[method.rawValue.lowercased()] != nil, "\(method) \(pattern) is not documented")
        }
        #expect(reply.object["openapi"] as? String == "3.1.0")
    }
}
