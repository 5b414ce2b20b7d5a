import CatalogClient
import CatalogCore
import CatalogEngines
import CatalogModel
import CatalogStorage
import Foundation
import Testing

/// Filters and facets on a catalog's own fields offline: an offline catalog answers a filtered,
/// faceted search exactly as the server's store does, after live edits too, and refuses a field
/// the catalog does not have in the same words.
@Suite struct FieldFilterOfflineTests {
    /// Thirty cars whose fields cycle through a few values.
    static let cars: [Record] = (1...30).map(car)

    static func car(_ n: Int) -> Record {
        let origins = ["USA", "Japan", "Europe"]
        var fields: [String: FieldValue] = [:]
        fields["Origin"] = .text(origins[n % 3])
        fields["Horsepower"] = .number(String(40 + n * 5))
        fields["Released"] = .text("19\(70 + n % 10)-0\(1 + n % 9)-15")
        fields["Seats"] = n % 4 == 0 ? .null : .number("4")
        let price = Decimal(n * 3)
        return Record(
            id: "car\(n)", title: "Car \(n)", price: price, currency: "EUR", country: n % 2 == 0 ? "DE" : "JP",
            fields: fields)
    }

    static func field(_ name: String, _ test: FilterTest) -> FilterExpression {
        .condition(FilterCondition(field: name, test: test))
    }

    @Test func anOfflineCatalogFiltersAndFacetsAsTheServer() async throws {
        let live = try LiveServer()
        try live.importRecords(Self.cars, into: "cars")
        var changed = Self.cars[0]
        changed.fields["Origin"] = .text("Korea")
        changed.fields["Horsepower"] = .number("500")
        try live.edit([RecordEdit(.upsert(changed)), RecordEdit(.delete(id: "car2"))], in: "cars")
        let client = live.client()
        let file = live.directory.appendingPathComponent("cars.sqlite")
        try await client.download(catalog: "cars", to: file)
        let offline = try OfflineCatalog(at: file)
        defer { offline.close() }
        let database = try CatalogEngines.open(live.path)
        defer { database.close() }

        let filters: [FilterExpression] = [
            Self.field("Origin", .compare(.equal, FilterValue("japan"))),
            Self.field("Horsepower", .range(FilterValue("100"), FilterValue("150"))),
            .and([
                Self.field("Released", .compare(.greaterOrEqual, FilterValue("1975-01-01"))),
                .not(Self.field("Origin", .oneOf([FilterValue("USA"), FilterValue("Korea")]))),
            ]),
            .or([Self.field("Seats", .isEmpty), Self.field("price", .compare(.less, FilterValue("10")))]),
            Self.field("Horsepower", .compare(.greater, FilterValue("400"))),
        ]
        for filter in filters {
            let request = SearchRequest(
                query: "", filter: filter, facets: [.field("Origin"), .field("Horsepower"), .country], limit: 50)
            let server = try await database.read { reader in
                try reader.search(request.checked(), in: reader.requireCatalog("cars")).response()
            }
            let local = try await offline.search(request, in: "cars")
            #expect(server == local, "\(filter)")
            #expect(server.total > 0, "\(filter) finds something")
            #expect(!(server.items.contains { $0.record.id == "car2" }))
        }
        let korean = try await offline.search(
            SearchRequest(query: "", filter: Self.field("Horsepower", .compare(.greater, FilterValue("400")))),
            in: "cars")
        #expect(korean.items.map(\.record.id) == ["car1"])

        // A facet's values searched, among a search's matches, over HTTP and offline alike.
        for (field, prefix, query) in [("Origin", "", ""), ("Origin", "ja", "car 1"), ("country", "d", "car")] {
            let request = SearchRequest(query: query, filter: Self.field("Horsepower", .range(FilterValue("50"), nil)))
            let online = try await client.facetValues(field, startingWith: prefix, for: request, in: "cars")
            let local = try await offline.facetValues(field, startingWith: prefix, for: request, in: "cars")
            #expect(online == local, "\(field) \(prefix) \(query)")
            #expect(!online.isEmpty)
        }
        let narrowed = try await offline.facetValues("Origin", for: SearchRequest(query: "car 2"), in: "cars")
        let every = try await offline.facetValues("Origin", in: "cars")
        #expect(narrowed.map(\.count).reduce(0, +) < every.map(\.count).reduce(0, +))
        do {
            _ = try await client.facetValues("Colour", in: "cars")
            Issue.record("an unknown field was counted")
        } catch {
            #expect(error.code == .badRequest)
        }
        do {
            _ = try await offline.facetValues("Colour", in: "cars")
            Issue.record("an unknown field was counted offline")
        } catch {
            #expect(error.code == .badRequest)
        }

        // Facets on a field over HTTP and offline.
        let faceted = SearchRequest(query: "car", facets: [.field("Origin")], limit: 5)
        let online = try await client.search(faceted, in: "cars")
        let local = try await offline.search(faceted, in: "cars")
        #expect(online.facets == local.facets)
        #expect(online.items.map(\.record.id) == local.items.map(\.record.id))
        #expect(online.total == local.total)
        #expect(online.facets?["Origin"]?.map(\.value) == ["USA", "Europe", "Japan", "Korea"])

        let error = await #expect(throws: CatalogClientError.self) {
            try await offline.search(
                SearchRequest(query: "", filter: Self.field("Colour", .exists)), in: "cars")
        }
        #expect(error?.code == .badRequest)
        #expect(error?.message.hasPrefix("filter: 'Colour' is not a field of this catalog") == true)
    }
}
