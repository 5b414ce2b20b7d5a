import CatalogClient
import Foundation
import Testing

/// What SwiftUI and collections need of the values the client returns: an `id` where the value
/// has one (lists and `ForEach` without `id:`), `Hashable` everywhere (sets, diffable data
/// sources, navigation paths); and the browsing protocol callable with the client's defaults.
@Suite struct ModelConformanceTests {
    /// `ForEach(items)` needs `Identifiable`; a set of answers needs `Hashable`.
    static func identities<T: Identifiable & Hashable>(_ values: [T]) -> (ids: Set<T.ID>, values: Set<T>) {
        (Set(values.map(\.id)), Set(values))
    }

    @Test func answersAreIdentifiableAndHashable() async throws {
        let live = try LiveServer()
        let client = live.client()
        let catalogs = try await client.catalogs()
        #expect(Self.identities(catalogs).ids == Set(catalogs.map(\.id)) && catalogs.count == 3)
        let detail = try await client.catalog("cookbook")
        #expect(detail.id == "cookbook" && Set([detail, detail]).count == 1)
        let sections = try await client.sections(of: "cookbook")
        #expect(Self.identities(sections).ids == Set(sections.map(\.label)))
        #expect(Self.identities(sections).ids.count == sections.count)
        let page = try await client.items(of: "cookbook", limit: 20)
        #expect(Self.identities(page.items).ids == Set(page.items.map(\.id)))
        #expect(Self.identities(page.items).values.count == page.items.count)
        #expect(Set([page, page]).count == 1)
        var request = SearchRequest(query: "leves")
        request.facets = [.categories]
        let found = try await client.search(request, in: "cookbook")
        #expect(!found.items.isEmpty)
        #expect(found.items.map(\.id) == found.items.map(\.record.id))
        #expect(Self.identities(found.items).ids.count == found.items.count)
        #expect(Self.identities(found.scopes).ids == Set(found.scopes.map(\.label)))
        #expect(Set([found, found]).count == 1)
        let categories = try await client.categories(of: "cookbook")
        #expect(Self.identities(categories).ids == Set(categories.map(\.id)))
        let stored = try await client.record(page.items[0].id, in: "cookbook")
        #expect(stored.id == page.items[0].id)
        // A record changed is another value: a set tells them apart.
        var changed = page.items[0]
        changed.subtitle = (changed.subtitle ?? "") + " (changed)"
        #expect(Set([page.items[0], changed]).count == 2)
        // The name that never clashes with another library's `Record` is the same type.
        let same: CatalogRecord = page.items[0]
        #expect(same == page.items[0])
    }

    /// Code written against ``CatalogBrowsing`` calls it as it calls the client: the defaults
    /// give the same pages as every parameter spelled out, online and offline.
    @Test func theBrowsingProtocolHasTheClientsDefaults() async throws {
        let live = try LiveServer()
        let client = live.client()
        let file = live.directory.appendingPathComponent("cookbook.sqlite")
        try await client.download(catalog: "cookbook", to: file)
        let offline = try OfflineCatalog(at: file)
        let sources: [any CatalogBrowsing] = [client, offline]
        let limit = CatalogLimits.defaultPageSize
        let category = try #require(try await client.categories(of: "cookbook").first?.name)
        let label = try #require(try await client.sections(of: "cookbook").last?.label)
        for source in sources {
            let first = try await source.items(of: "cookbook")
            #expect(
                try await first == source.items(of: "cookbook", section: nil, after: nil, before: nil, limit: limit))
            #expect(first == (try await client.items(of: "cookbook")))
            let second = try await source.items(of: "cookbook", after: first.next, limit: 5)
            #expect(
                second
                    == (try await source.items(of: "cookbook", section: nil, after: first.next, before: nil, limit: 5)))
            #expect(
                try await source.items(of: "cookbook", startingAt: label)
                    == source.items(of: "cookbook", startingAt: label, limit: limit))
            #expect(
                try await source.items(of: "cookbook", category: category)
                    == source.items(of: "cookbook", category: category, after: nil, before: nil, limit: limit))
            #expect(try await source.featured(of: "cookbook") == source.featured(of: "cookbook", limit: limit))
        }
    }
}
