import CatalogTestSupport
import Foundation
import Testing

@testable import CatalogClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What an app builds on beyond the plain calls: its own `Decodable` types, the outline and rows
/// by position, reads tried again on a mirror, stored answers while the server is down, a clear
/// refusal of background sessions, and the SwiftUI list model.
@Suite struct ClientForAppsTests {
    /// A product as an app would declare it: only the keys it draws.
    struct Product: Decodable, Sendable, Identifiable, Hashable {
        var id: String
        var title: String
        var price: Decimal?
        var currency: String?
        var fields: [String: String]?
    }

    /// A hit as an app declares it: the record's keys and the matches beside them.
    struct ProductHit: Decodable, Sendable {
        struct Match: Decodable, Sendable {
            var field: String
            var start: Int
            var length: Int
        }
        var id: String
        var title: String
        var matches: [Match]
    }

    @Test func recordsDecodeIntoTheAppsOwnTypes() async throws {
        let live = try LiveServer()
        let client = live.client()
        var products: [Product] = []
        var page = try await client.items(of: "products", as: Product.self, limit: 15)
        products += page.items
        while let next = page.next {
            page = try await client.items(of: "products", as: Product.self, after: next, limit: 15)
            products += page.items
        }
        let records = try await client.items(of: "products", limit: 100).items
        #expect(products.map(\.id) == records.map(\.id))
        #expect(products.map(\.title) == records.map(\.title))
        #expect(products.first?.fields?["sku"] == records.first?.fields["sku"]?.values.first)
        let saw = try await client.item("p001", of: "products", as: Product.self)
        #expect(saw.title == "Alpine Hand Saw" && saw.currency == "EUR")
        let hits = try await client.search(SearchRequest(query: "ca"), in: "products", as: ProductHit.self)
        let plain = try await client.search(SearchRequest(query: "ca"), in: "products")
        #expect(hits.items.map(\.id) == plain.items.map(\.record.id))
        #expect(hits.total == plain.total && hits.next == plain.next)
        #expect(hits.items.first?.matches.first?.field == "title")
        // A record that does not fit the type is a decoding error that says where.
        struct Strict: Decodable { var id: Int }
        do {
            _ = try await client.item("p001", of: "products", as: Strict.self)
            Issue.record("an id that is a string decoded as a number")
        } catch {
            #expect(error.code == .decoding)
        }
    }

    @Test func theOutlineAndRowsByPosition() async throws {
        let live = try LiveServer()
        let client = live.client()
        let outline = try await client.outline(of: "cookbook")
        #expect(outline.count == 32)
        #expect(outline.sections.reduce(0) { $0 + $1.count } == 32)
        #expect(outline.labels.contains("DZS"))
        let start = try #require(outline.position(ofLabel: "GY"))
        let rows = try await client.items(of: "cookbook", position: start, limit: 3)
        #expect(rows.position == start && rows.count == 32 && rows.items.count == 3)
        #expect(rows.items.first?.section == "GY")
        let all = try await client.items(of: "cookbook", limit: 100).items
        #expect(rows.items.map(\.id) == Array(all[start..<(start + 3)]).map(\.id))
        // An empty section leads to the next one; past the last label, the end.
        let empty = try #require(outline.labels.first { label in !outline.sections.contains { $0.label == label } })
        let landed = try #require(outline.position(ofLabel: empty))
        #expect(landed == outline.sections.first { $0.start >= landed }?.start ?? outline.count)
        #expect(outline.position(ofLabel: "no such label") == nil)
        let soups = try await client.outline(of: "cookbook", category: "Levesek")
        #expect(soups.count == 5)
        let soupRows = try await client.items(of: "cookbook", position: 0, category: "Levesek", limit: 10)
        #expect(soupRows.items.count == 5)
    }

    @Test func readsAreTriedAgainOnAMirror() async throws {
        let live = try LiveServer()
        let down = try RefusingPort()
        let session = URLSession(configuration: .ephemeral)
        let client = CatalogClient(
            baseURL: URL(string: down.baseURL)!, session: session, cache: .none, mirrors: [live.url],
            retry: RetryPolicy(attempts: 2, initialDelay: 0, maxDelay: 0))
        #expect(try await client.catalogs().map(\.id) == ["cookbook", "products", "sequencers"])
        #expect(try await client.item("p001", of: "products").title == "Alpine Hand Saw")
        // Without a second attempt the failure is reported as it happened.
        let once = CatalogClient(
            baseURL: URL(string: down.baseURL)!, session: session, cache: .none, mirrors: [live.url], retry: .never)
        do {
            _ = try await once.catalogs()
            Issue.record("a refused connection answered")
        } catch {
            #expect(error.code == .offline)
        }
        withExtendedLifetime(down) {}
    }

    @Test func theRetryPolicyWaitsOnlyForWhatMayPass() {
        let policy = RetryPolicy(attempts: 3, initialDelay: 1, maxDelay: 3)
        let offline = CatalogClientError(.offline, "offline")
        #expect((1...1.25).contains(policy.delay(after: offline, attempt: 1) ?? -1))
        #expect((2...2.5).contains(policy.delay(after: offline, attempt: 2) ?? -1))
        #expect(policy.delay(after: offline, attempt: 3) == nil)
        #expect(policy.delay(after: CatalogClientError(.notFound, "gone", status: 404), attempt: 1) == nil)
        #expect(policy.delay(after: CatalogClientError(.server, "bug", status: 500), attempt: 1) == nil)
        #expect(policy.delay(after: CatalogClientError(.server, "gateway", status: 502), attempt: 1) != nil)
        let busy = CatalogClientError(.unavailable, "busy", status: 503, retryAfter: 2)
        #expect(policy.delay(after: busy, attempt: 1) == 2)
        let later = CatalogClientError(.tooManyRequests, "slow down", status: 429, retryAfter: 60)
        #expect(policy.delay(after: later, attempt: 1) == nil)
    }

    @Test func storedAnswersStandInWhileTheServerIsDown() async throws {
        let live = try LiveServer()
        let client = CatalogClient(
            baseURL: live.url, session: URLSession(configuration: .ephemeral),
            cache: .directory(FileManager.default.temporaryDirectory.appendingPathComponent("stale-\(UUID())")),
            retry: .never)
        let fresh = try await client.items(of: "products", limit: 5)
        #expect(client.staleSince == nil)
        try await live.restart {
            let stale = try await client.items(of: "products", limit: 5)
            #expect(stale == fresh)
            #expect(client.staleSince != nil)
            // Nothing stored for this one: the failure as it is.
            do {
                _ = try await client.items(of: "products", limit: 6)
                Issue.record("an answer with nothing stored and no server")
            } catch {
                #expect((error as? CatalogClientError)?.isConnectivity == true)
            }
        }
        _ = try await client.items(of: "products", limit: 5)
        #expect(client.staleSince == nil)
    }

    /// The refusal itself, on every platform: FoundationNetworking marks background
    /// configurations unavailable, so the transport is told the identifier an app's would carry.
    @Test func aTransportOfABackgroundSessionRefusesEveryRequest() async throws {
        let transport = HTTPTransport(
            configuration: .ephemeral, totalTimeout: nil, backgroundIdentifier: "org.example.catalog.tests")
        defer { transport.invalidate() }
        do {
            _ = try await transport.send(URLRequest(url: URL(string: "http://127.0.0.1:9/api/v1/catalogs")!))
            Issue.record("a background session sent a request")
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(
                error.message.contains("background URLSession") && error.message.contains("org.example.catalog.tests"))
        }
    }

    // Background configurations exist on Apple platforms only (FoundationNetworking has none).
    #if !canImport(FoundationNetworking)
        @Test func aBackgroundSessionIsRefusedSayingSo() async throws {
            let live = try LiveServer()
            let configuration = URLSessionConfiguration.background(withIdentifier: "org.example.catalog.tests")
            let client = CatalogClient(
                baseURL: live.url, session: URLSession(configuration: configuration), cache: .none)
            do {
                _ = try await client.catalogs()
                Issue.record("a background session sent a request")
            } catch {
                #expect(error.code == .invalidArgument)
                #expect(error.message.contains("background URLSession"))
            }
        }
    #endif

    @MainActor @Test func theListModelPagesAndSearchesAsYouType() async throws {
        let live = try LiveServer()
        let client = live.client()
        let model = CatalogListModel(client: client, catalog: "products", pageSize: 7, debounce: .milliseconds(20))
        // Nothing is fetched before the list appears, typing included.
        model.query = "ignored"
        model.query = ""
        await model.settle()
        #expect(model.records.isEmpty)
        await model.load()
        #expect(model.records.count == 7 && model.hasMore && model.total == nil)
        // A row far from the end loads nothing; one of the last few loads the next page.
        await model.loadMore(ifNeededAfter: model.records[0])
        #expect(model.records.count == 7)
        await model.loadMore(ifNeededAfter: model.records[6])
        #expect(model.records.count == 14)
        let browsed = try await client.items(of: "products", limit: 14).items
        #expect(model.records.map(\.id) == browsed.map(\.id))

        // Typing: only the last text is searched and shown.
        model.query = "c"
        model.query = "ca"
        model.query = "cas"
        await model.settle()
        let expected = try await client.search(SearchRequest(query: "cas", limit: 7), in: "products")
        #expect(model.records.map(\.id) == expected.items.map(\.record.id))
        #expect(model.total == expected.total)
        #expect(model.scopes.map(\.label) == expected.scopes.map(\.label))
        model.scope = "Kitchen"
        await model.settle()
        let kitchen = try await client.search(SearchRequest(query: "cas", scope: "Kitchen", limit: 7), in: "products")
        #expect(model.records.map(\.id) == kitchen.items.map(\.record.id))
        // A failure is kept with the rows shown.
        model.scope = "No such scope"
        await model.settle()
        #expect(model.error?.code == .notFound)
        #expect(!model.records.isEmpty)
    }
}
