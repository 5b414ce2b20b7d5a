import CatalogClient
import CatalogDemo
import Foundation
import Testing

/// An offline snapshot answers exactly as the server: 1,000 searches (prefixes, several words,
/// typos, scopes, filters, facets, sorts, second pages) and the browse screens, compared value by
/// value (items, their order, highlights, totals, scope and facet counts, cursors).
@Suite struct OfflineComparisonTests {
    static let records = 3_000

    let live: LiveServer
    let client: CatalogClient
    let offline: OfflineCatalog

    init() async throws {
        live = try LiveServer(generated: Self.records, seed: 11)
        client = live.client()
        let file = live.directory.appendingPathComponent("big.sqlite")
        try await client.download(catalog: "big", to: file)
        offline = try OfflineCatalog(at: file)
    }

    /// One server and snapshot for all three comparisons (importing and downloading the catalog is
    /// most of the time).
    @Test func offlineAnswersAsTheServer() async throws {
        let comparison = OfflineComparison(
            client: client, offline: offline, catalog: "big",
            words: CatalogGenerator(items: Self.records, locale: "en", seed: 11).titleWords)
        try await comparison.thousandSearchesGiveTheSameAnswers()
        try await comparison.browseScreensAreTheSame(count: Self.records)
        try await errorsAreTheSame()
    }

    /// Errors are coded alike online and offline.
    func errorsAreTheSame() async throws {
        let cases: [(String, SearchRequest)] = [
            ("unknown scope", SearchRequest(query: "a", scope: "Nope")),
            ("bad cursor", SearchRequest(query: "a", after: "zz")),
            ("bad limit", SearchRequest(query: "a", limit: 0)),
            ("bad country", SearchRequest(query: "a", countries: ["DEU"])),
            ("long query", SearchRequest(query: String(repeating: "a", count: 201))),
        ]
        for (name, request) in cases {
            var online: CatalogClientError?
            var local: CatalogClientError?
            do { _ = try await client.search(request, in: "big") } catch { online = error }
            do { _ = try await offline.search(request, in: "big") } catch { local = error }
            #expect(online != nil && online?.code == local?.code, "\(name)")
            #expect(online?.message == local?.message, "\(name)")
        }
        var online: CatalogClientError?
        var local: CatalogClientError?
        do { _ = try await client.item("nope", of: "big") } catch { online = error }
        do { _ = try await offline.item("nope", of: "big") } catch { local = error }
        #expect(online?.code == .notFound && local?.code == .notFound && online?.message == local?.message)
        do {
            _ = try await offline.sections(of: "cookbook")
            Issue.record("the snapshot answered for another catalog")
        } catch {
            #expect(error.code == .notFound)
        }
    }
}
