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
