import CatalogClient
import CatalogCore
import CatalogEngines
import CatalogModel
import CatalogStorage
import Foundation
import Testing

/// The weights of a catalog's searchable fields offline: an offline catalog ranks a match in an
/// earlier named field first, page by page, as the server does, after its download and after a
/// sync put changed records in a segment of their own.
@Suite struct FieldWeightOfflineTests {
    /// Every page of a search, by its cursors.
    func pages(_ query: String, limit: Int, _ search: (SearchRequest) async throws -> SearchResponse)
        async throws -> [String]
    {
        try await everyPage(of: SearchRequest(query: query, limit: limit), search)
    }

    @Test func anOfflineCatalogWeighsFieldsAsTheServer() async throws {
        let live = try LiveServer()
        let admin = live.client(token: live.adminToken)
        for record in [
            Record(id: "w1", title: "Alpha", description: "the quokka smiles"),
            Record(id: "w2", title: "Beta", fields: ["tags": .text("red quokka ash")]),
            Record(id: "w3", title: "Gamma Delta", fields: ["name": .text("Quokka Fox")]),
            Record(id: "w4", title: "Epsilon", fields: ["name": .text("quokkas of old")]),
            Record(id: "w5", title: "Zeta", description: "quokkaish coals"),
        ] {
            _ = try await admin.put(record, in: "products")
        }
        let database = try CatalogEngines.open(live.path)
        _ = try CatalogManagement.withICU.updateSearchSettings("products", in: database) { current in
            var settings = current
            settings.searchableFields = ["title", "name", "tags", "*"]
            return settings
        }
        database.close()
        let file = live.directory.appendingPathComponent("products.sqlite")
        try await admin.download(catalog: "products", to: file)
        let offline = try OfflineCatalog(at: file)
        defer { offline.close() }

        func compare(_ label: String) async throws -> [String: [String]] {
            var answers: [String: [String]] = [:]
            for query in ["quokka", "quok", "quokka fox"] {
                for limit in [2, 50] {
                    let online = try await pages(query, limit: limit) { try await admin.search($0, in: "products") }
                    let local = try await pages(query, limit: limit) { try await offline.search($0, in: "products") }
                    #expect(online == local, "\(label): q=\(query) limit=\(limit)")
                    answers[query] = online
                }
            }
            return answers
        }
        let downloaded = try await compare("downloaded")
        // Whole words by weight (name, tags, the rest), then beginnings by weight.
        #expect(downloaded["quokka"] == ["w3", "w2", "w1", "w4", "w5"])
        #expect(downloaded["quok"] == ["w4", "w3", "w2", "w5", "w1"])
        #expect(downloaded["quokka fox"] == ["w3"])

        _ = try await admin.put(Record(id: "w6", title: "Eta", fields: ["tags": .text("quokka dust")]), in: "products")
        let changed = try await admin.put(
            Record(id: "w1", title: "Alpha", fields: ["name": .text("one quokka")]), in: "products")
        #expect(try await offline.sync(with: admin) == .applied(count: 2, change: changed.change))
        let synced = try await compare("synced")
        #expect(synced["quokka"] == ["w1", "w3", "w6", "w2", "w4", "w5"])
    }
}
