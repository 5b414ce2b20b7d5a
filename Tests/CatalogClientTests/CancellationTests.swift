import CatalogClient
import CatalogTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// As-you-type search cancels the previous query at every key: a request cancelled at any moment
/// of its life (before it starts, while the session looks it up, while the answer arrives, after
/// it ended) ends as `.cancelled` or with its answer, and never takes the process down.
@Suite struct CancellationTests {
    static let catalogs = #"{"catalogs":[{"id":"one","title":"One","locale":"en","count":1}]}"#

    /// A thousand requests, each cancelled right after it was started, through a session made
    /// with the default configuration (which has a URL cache, the case that trapped
    /// swift-corelibs-foundation).
    @Test func requestsCancelledAsTheyStartNeverTrap() async throws {
        let server = try LoopbackHTTPServer(routes: ["/api/v1/catalogs": .status(200, body: Self.catalogs)])
        defer { server.stop() }
        let client = CatalogClient(
            baseURL: URL(string: server.baseURL)!, session: URLSession(configuration: .default), cache: .none)
        var outcomes: [String: Int] = [:]
        for round in 0..<1000 {
            let request = Task { try await client.catalogs() }
            if round % 3 != 0 { await Task.yield() }
            request.cancel()
            switch await request.result {
            case .success: outcomes["answered", default: 0] += 1
            case .failure(let error as CatalogClientError) where error.code == .cancelled:
                outcomes["cancelled", default: 0] += 1
            case .failure(let error): Issue.record("round \(round): \(error)")
            }
        }
        #expect(outcomes.values.reduce(0, +) == 1000)
        // The client still answers afterwards.
        #expect(try await client.catalogs().map(\.id) == ["one"])
    }
}
