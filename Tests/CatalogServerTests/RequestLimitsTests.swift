import CatalogCore
import CatalogModel
import Foundation
import Testing

/// The limits of a request are CatalogCore's constants, stated alike by the API, its OpenAPI
/// document and its error messages.
@Suite struct RequestLimitsTests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    @Test func theOpenAPIDocumentStatesTheLimits() throws {
        let document = try fixture.request("/api/v1/openapi.json").object
        let components = try #require(document["components"] as? [String: Any])
        let shared = try #require(components["parameters"] as? [String: [String: Any]])
        let limit = try #require(shared["limit"]?["schema"] as? [String: Any])
        #expect(limit["maximum"] as? Int == CatalogLimits.maxPageSize)
        #expect(limit["maximum"] as? Int == CatalogLimits.maxFeatured)
        #expect(
            shared["limit"]?["description"] as? String == "Records per page (default \(CatalogLimits.defaultPageSize))."
        )
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let search = try #require(paths["/api/v1/catalogs/{id}/search"]?["get"] as? [String: Any])
        var parameters: [String: [String: Any]] = [:]
        for parameter in search["parameters"] as? [[String: Any]] ?? [] {
            if let name = parameter["name"] as? String { parameters[name] = parameter }
        }
        func schema(_ name: String) -> [String: Any] { parameters[name]?["schema"] as? [String: Any] ?? [:] }
        #expect(schema("limit")["maximum"] as? Int == CatalogLimits.maxSearchLimit)
        #expect(
            parameters["limit"]?["description"] as? String
                == "Hits to return (default \(CatalogLimits.defaultSearchLimit)).")
        #expect(schema("q")["maxLength"] as? Int == CatalogLimits.maxTextLength)
        #expect(schema("scope")["maxLength"] as? Int == CatalogLimits.maxTextLength)
        #expect(schema("category")["maxItems"] as? Int == CatalogLimits.maxFilters)
        #expect((schema("category")["items"] as? [String: Any])?["maxLength"] as? Int == CatalogLimits.maxTextLength)
        #expect(schema("country")["maxItems"] as? Int == CatalogLimits.maxFilters)
        #expect(schema("sort")["maxLength"] as? Int == SearchSort.maxParameterLength)
    }

    @Test(arguments: [
        ("limit=201", "'limit' must be a whole number from 1 to 200"),
        ("country=DEU", "'country' must be a two-letter ISO 3166 code"),
        ("country=1A", "'country' must be a two-letter ISO 3166 code"),
        ("sort=cheap", "'sort': catalog \"products\" has no field \"cheap\""),
        ("sort=a,b,c,d,e", "'sort' takes at most 4 keys"),
        ("facets=colour", "facets: 'colour' is not a field of this catalog (fields: sku, weight)"),
        ("price=abc", "'price' must be MIN..MAX, either side may be empty"),
        ("q=" + String(repeating: "a", count: 201), "'q' is longer than 200 characters"),
    ])
    func aBadSearchParameterIsNamed(_ query: String, _ message: String) throws {
        let reply = try fixture.request("/api/v1/catalogs/products/search?" + query)
        #expect(reply.status == 400)
        #expect(reply.errorCode == "bad_parameter")
        #expect((reply.object["error"] as? [String: Any])?["message"] as? String == message)
    }
}
