import CatalogCore
import CatalogModel
import Foundation
import Testing

@testable import CatalogServer

/// `facets=` on any field and `GET /api/v1/catalogs/{id}/facets/{field}` through the whole
/// middleware chain: counts of a record field's values, a search inside them, and 400s that name
/// the field.
@Suite struct FacetValuesAPITests {
    let fixture: ServerFixture

    init() throws {
        fixture = try ServerFixture()
    }

    func values(_ reply: ServerFixture.Reply) -> [(String, Int)] {
        (reply.object["values"] as? [[String: Any]] ?? []).map {
            ($0["value"] as? String ?? "", $0["count"] as? Int ?? 0)
        }
    }

    @Test func aFieldsValuesAreCountedAndSearched() throws {
        let search = try fixture.request("/api/v1/catalogs/cookbook/search?q=&facets=complexity,categories")
        #expect(search.status == 200, "\(search.text)")
        let facets = try #require(search.object["facets"] as? [String: [[String: Any]]])
        let complexity = try #require(facets["complexity"])
        let counts = complexity.compactMap { $0["count"] as? Int }
        #expect(!counts.isEmpty && counts == counts.sorted(by: >), "\(complexity)")
        #expect(facets["categories"] != nil)

        let all = try fixture.request("/api/v1/catalogs/cookbook/facets/complexity")
        #expect(all.status == 200, "\(all.text)")
        #expect(all.object["field"] as? String == "complexity")
        #expect(values(all).map(\.0) == complexity.compactMap { $0["value"] as? String })
        let first = try #require(values(all).first)
        let prefix = String(first.0.prefix(2)).uppercased()
        let some = try fixture.request(
            "/api/v1/catalogs/cookbook/facets/complexity?q=\(prefix.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
        )
        #expect(some.status == 200)
        #expect(values(some).contains { $0 == first })
        #expect(values(some).allSatisfy { TextFolding.fold($0.0).hasPrefix(TextFolding.fold(prefix)) })
        let limited = try fixture.request("/api/v1/catalogs/cookbook/facets/complexity?limit=1")
        #expect(values(limited).count == 1)
    }

    /// `search=` counts a facet's values among the matches of the search the list belongs to, as
    /// that search's own `facets=` counts them.
    @Test func facetValuesAreNarrowedByTheSearch() throws {
        let search = try fixture.request("/api/v1/catalogs/cookbook/search?q=leves&facets=complexity")
        let facets = try #require(search.object["facets"] as? [String: [[String: Any]]])
        let expected = try #require(facets["complexity"]).compactMap { facet -> (String, Int)? in
            guard let value = facet["value"] as? String, let count = facet["count"] as? Int else { return nil }
            return (value, count)
        }
        let narrowed = try fixture.request("/api/v1/catalogs/cookbook/facets/complexity?search=leves")
        #expect(narrowed.status == 200, "\(narrowed.text)")
        #expect(values(narrowed).map(\.0) == expected.map(\.0) && values(narrowed).map(\.1) == expected.map(\.1))
        let all = try fixture.request("/api/v1/catalogs/cookbook/facets/complexity")
        #expect(values(narrowed).map(\.1).reduce(0, +) < values(all).map(\.1).reduce(0, +))
        let tooLong = String(repeating: "a", count: 300)
        #expect(try fixture.request("/api/v1/catalogs/cookbook/facets/complexity?search=\(tooLong)").status == 400)
    }

    @Test func anUnknownFieldIsABadRequestNamingIt() throws {
        let facet = try fixture.request("/api/v1/catalogs/cookbook/facets/colour?q=r")
        #expect(facet.status == 400)
        #expect(
            facet.text.contains("facets: 'colour' is not a field of this catalog (fields: complexity)"), "\(facet.text)"
        )
        let search = try fixture.request("/api/v1/catalogs/cookbook/search?q=&facets=categories,colour")
        #expect(search.status == 400)
        #expect(search.text.contains("'colour' is not a field"), "\(search.text)")
        #expect(try fixture.request("/api/v1/catalogs/nothing/facets/complexity").status == 404)
    }
}
