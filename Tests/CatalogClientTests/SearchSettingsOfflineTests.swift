import CatalogClient
import CatalogCore
import CatalogEngines
import CatalogModel
import CatalogStorage
import Foundation
import Testing

/// A catalog's search settings reach offline catalogs with its snapshot: the client library
/// searches offline with the same synonyms, stop words and typo rules, and answers as the server.
@Suite struct SearchSettingsOfflineTests {
    @Test func anOfflineCatalogSearchesWithTheCatalogsSettings() async throws {
        let live = try LiveServer()
        let client = live.client()
        let database = try CatalogEngines.open(live.path)
        _ = try CatalogManagement.withICU.updateSearchSettings("cookbook", in: database) { current in
            var settings = current
            settings.synonyms = [
                try SynonymRule(parsing: "krumpli, burgonya"), try SynonymRule(parsing: "gulyás => halászlé"),
            ]
            settings.stopWords = ["a", "az", "és"]
            settings.typos = TypoSettings(oneTypoFrom: 4, twoTyposFrom: 7, exemptWords: ["paprika"])
            settings.searchableFields = ["title", "subtitle", "categories"]
            return settings
        }
        database.close()
        let file = live.directory.appendingPathComponent("cookbook.sqlite")
        try await client.download(catalog: "cookbook", to: file)
        let offline = try OfflineCatalog(at: file)
        defer { offline.close() }
        try await offline.prepareSearch()
        let queries = [
            "burgonya", "krumpli", "gulyás", "a leves", "túró és", "az", "paprika", "paprka", "kremes", "csirke",
            "sült burgonya", "lecs",
        ]
        var widened = false
        for query in queries {
            let request = SearchRequest(query: query, limit: 50)
            let online = try await client.search(request, in: "cookbook")
            let local = try await offline.search(request, in: "cookbook")
            #expect(online == local, "\(query)")
            if query == "gulyás" { widened = online.items.map(\.record.id).contains("r12") }
            if query == "burgonya" { #expect(online.items.map(\.record.id) == ["r15", "r21", "r30"]) }
        }
        #expect(widened, "the synonym reached the server's search")
    }
}
