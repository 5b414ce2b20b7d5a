import CatalogClient
import CatalogModel
import Foundation
import Testing

/// Sorting by fields and prices offline: an offline catalog pages through every order in the
/// records the server gives, after its download and after a sync put changed records in a
/// segment of their own.
@Suite struct FieldSortOfflineTests {
    static let sorts = ["price", "-price", "weight,-price", "-sku", "weight,title", "-price,title"]

    /// Every page of a search, by its cursors.
    func pages(_ sort: String, _ query: String, _ search: (SearchRequest) async throws -> SearchResponse)
        async throws -> [String]
    {
        try await everyPage(of: SearchRequest(query: query, sort: try SearchSort(parameter: sort), limit: 7), search)
    }

    @Test func anOfflineCatalogSortsAsTheServer() async throws {
        let live = try LiveServer()
        let admin = live.client(token: live.adminToken)
        let file = live.directory.appendingPathComponent("products.sqlite")
        try await admin.download(catalog: "products", to: file)
        let offline = try OfflineCatalog(at: file)
        defer { offline.close() }

        func compare(_ label: String) async throws {
            for sort in Self.sorts {
                for query in ["", "can"] {
                    let online = try await pages(sort, query) { try await admin.search($0, in: "products") }
                    let local = try await pages(sort, query) { try await offline.search($0, in: "products") }
                    #expect(!online.isEmpty && online == local, "\(label): sort=\(sort) q=\(query)")
                }
            }
        }
        try await compare("downloaded")

        _ = try await admin.put(
            Record(
                id: "z1", title: "Zinc Bucket", price: 3, currency: "JPY",
                fields: ["weight": .text("100 g"), "sku": .text("ZZ-1")]),
            in: "products")
        let changed = try await admin.put(
            Record(id: "p001", title: "Alpine Hand Saw", price: 1, currency: "EUR", fields: ["sku": .text("AA-0")]),
            in: "products")
        #expect(try await offline.sync(with: admin) == .applied(count: 2, change: changed.change))
        try await compare("synced")
        let cheapest = try await pages("price", "") { try await offline.search($0, in: "products") }
        // Euros are the most common currency: €1 first, and ¥3 among the yen, not before them.
        #expect(cheapest.first == "p001")
        #expect(cheapest.firstIndex(of: "z1").map { $0 > 12 } == true)
    }
}
