import CatalogHTTP
import Foundation
import FoundationXML
import Testing

@testable import CatalogServer

@Suite struct CompatTests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    static let recipeKeys: Set<String> = ["recid", "title", "subtitle", "description", "complexity", "imageurl"]

    @Test func getHots() throws {
        let reply = try fixture.request("/gethots", headers: [("Host", "localhost:8080")])
        let recipes = try #require(reply.json as? [[String: Any]])
        #expect(recipes.count == 6)
        for recipe in recipes {
            #expect(Set(recipe.keys) == Self.recipeKeys)
            #expect(recipe.values.allSatisfy { $0 is String })
            #expect((recipe["imageurl"] as? String)?.hasPrefix("http://localhost:8080/images/") == true)
        }
    }

    /// The first image URL of `/gethots` for a request with `host` as its Host header.
    static func imageURL(_ fixture: ServerFixture, host: String?) throws -> String {
        let reply = try fixture.request("/gethots", headers: host.map { [("Host", $0)] } ?? [])
        let recipes = try #require(reply.json as? [[String: Any]])
        return try #require(recipes.first?["imageurl"] as? String)
    }

    @Test func hostIsNeverReflectedUnlessConfigured() throws {
        fixture.application.listening(on: "http://127.0.0.1:8080")
        for host in ["evil.example", "evil.example:8080", "127.0.0.1.evil.example", "localhost.evil", "a/b"] {
            #expect(try Self.imageURL(fixture, host: host).hasPrefix("http://127.0.0.1:8080/images/"), "\(host)")
        }
        #expect(try Self.imageURL(fixture, host: nil).hasPrefix("http://127.0.0.1:8080/images/"))
        #expect(try Self.imageURL(fixture, host: "127.0.0.1:9999").hasPrefix("http://127.0.0.1:9999/images/"))
        #expect(try Self.imageURL(fixture, host: "LOCALHOST").hasPrefix("http://LOCALHOST/images/"))

        let named = try ServerFixture { $0.hostNames = ["cook.example", "www.cook.example"] }
        named.application.listening(on: "http://127.0.0.1:8080")
        #expect(try Self.imageURL(named, host: "cook.example:8080").hasPrefix("http://cook.example:8080/images/"))
        #expect(try Self.imageURL(named, host: "www.cook.example").hasPrefix("http://www.cook.example/images/"))
        #expect(try Self.imageURL(named, host: "localhost").hasPrefix("http://127.0.0.1:8080/images/"))
        #expect(try Self.imageURL(named, host: "evil.example").hasPrefix("http://127.0.0.1:8080/images/"))

        let proxied = try ServerFixture { $0.publicURL = "https://recipes.example" }
        #expect(try Self.imageURL(proxied, host: "evil.example").hasPrefix("https://recipes.example/images/"))
    }

    @Test func getCategories() throws {
        let categories = try #require(try fixture.request("/getcategories").json as? [[String: Any]])
        #expect(categories.count == 8)
        #expect(categories.allSatisfy { Set($0.keys) == ["catid", "name", "imageurl"] && $0["catid"] is Int })
    }

    @Test func recipesByCategoryAndOneRecipe() throws {
        let recipes = try #require(try fixture.request("/getrecipesbycategory?catid=1").json as? [[String: Any]])
        #expect(!recipes.isEmpty)
        #expect(recipes.allSatisfy { Set($0.keys) == Self.recipeKeys })
        let recipe = try #require(try fixture.request("/getrecipe?recid=r01").json as? [String: Any])
        #expect(recipe["title"] as? String == "Csirkepaprikás")
        #expect(recipe["subtitle"] as? String == "Mari néni receptje alapján")
        #expect(recipe["complexity"] as? String == "1 óra")
    }

    @Test(arguments: [
        ("/getrecipe?recid=nope", 404), ("/getrecipe", 400), ("/getrecipesbycategory?catid=99", 404),
        ("/getrecipesbycategory?catid=abc", 400), ("/getrecipesbycategory", 400),
        ("/getrecipe?recid=%3Cscript%3E", 404),
    ])
    func unknownIDs(_ target: String, _ status: Int) throws {
        let reply = try fixture.request(target)
        #expect(reply.status == status)
        #expect(reply.errorCode != nil)
    }

    @Test func hostileHostHeaderFallsBack() throws {
        let reply = try fixture.request("/gethots", headers: [("Host", "evil.example/<script>")])
        let recipes = try #require(reply.json as? [[String: Any]])
        #expect(recipes.allSatisfy { !(($0["imageurl"] as? String) ?? "").contains("evil") })
    }

    @Test func sequencersFeedIsTheOriginalFormat() throws {
        let reply = try fixture.request("/catalogs/sequencers/feed.xml")
        #expect(reply.status == 200)
        #expect(reply.response.headers["Content-Type"] == "application/xml; charset=utf-8")
        guard case .stream(let open) = reply.response.body else {
            Issue.record("the feed should be streamed")
            return
        }
        let stream = try open()
        var bytes: [UInt8] = []
        while let chunk = try stream.nextChunk() { bytes += chunk }
        let collector = ElementCollector()
        let parser = XMLParser(data: Data(bytes))
        parser.delegate = collector
        #expect(parser.parse())
        #expect(collector.root == "sequenzer")
        #expect(collector.counts["Produkt"] == 11)
        #expect(collector.counts["TitelText"] == 11)
        #expect(collector.counts["Kategorie"] == 11)
        #expect(collector.counts["Kurzbeschreibung"] == 11)
        #expect(try fixture.request("/catalogs/nope/feed.xml").status == 404)
    }
}

final class ElementCollector: NSObject, XMLParserDelegate {
    var root: String?
    var counts: [String: Int] = [:]

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if root == nil { root = elementName }
        counts[elementName, default: 0] += 1
    }
}
