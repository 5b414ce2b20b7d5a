import CatalogClient
import CatalogHTTP
import CatalogTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every way a call can fail comes back as a matchable ``CatalogClientError``, never a crash or
/// a hang.
@Suite struct ClientErrorTests {
    /// A client of a canned loopback server.
    /// A client of `server` on a session of its own (``ownSession()``): these tests wait for the
    /// request to reach the server, which the shared session may hold back behind other suites'
    /// long requests for minutes.
    func client(_ server: LoopbackHTTPServer, timeout: TimeInterval = 10) -> CatalogClient {
        CatalogClient(
            baseURL: URL(string: server.baseURL)!, session: Self.ownSession(), cache: .none, timeout: timeout)
    }

    /// A session of its own, for the tests that time how fast a failure comes: the shared one is
    /// queued behind every other suite's requests while the whole test run goes on.
    static func ownSession() -> URLSession { URLSession(configuration: .ephemeral) }

    /// The error `body` throws (a client error, or nil when it throws nothing or something else).
    func failure<T>(_ body: () async throws -> T) async -> CatalogClientError? {
        do {
            _ = try await body()
            return nil
        } catch {
            #expect(error is CatalogClientError, "\(error)")
            return error as? CatalogClientError
        }
    }

    @Test func notFoundAndUnauthorizedFromTheServer() async throws {
        let live = try LiveServer()
        let client = live.client()
        let missing = await failure { try await client.catalog("nope") }
        #expect(missing?.code == .notFound && missing?.status == 404 && missing?.apiCode == "not_found")
        #expect(missing?.message.contains("nope") == true)
        #expect(await failure { try await client.item("nope", of: "cookbook") }?.code == .notFound)
        #expect(
            await failure { try await client.search(SearchRequest(query: "", scope: "Linux"), in: "sequencers") }?.code
                == .notFound)
        #expect(await failure { try await client.items(of: "products", after: "!!", limit: 5) }?.code == .badRequest)
        #expect(await failure { try await client.items(of: "products", limit: 0) }?.code == .badRequest)
        let anonymous = await failure { try await client.favorites() }
        #expect(anonymous?.code == .unauthorized && anonymous?.status == 401)
        let forged = live.client(token: "ctk_0000000000000000_" + String(repeating: "a", count: 43))
        #expect(await failure { try await forged.favorites() }?.code == .unauthorized)
        #expect(await failure { try await client.item("", of: "cookbook") }?.code == .invalidArgument)
    }

    @Test func aServerThatIsDownIsOffline() async throws {
        // A port bound by a socket that does not listen: refused, and no other test's server
        // can be given it meanwhile.
        let down = try RefusingPort()
        let client = CatalogClient(
            baseURL: URL(string: down.baseURL)!, session: Self.ownSession(), cache: .none, timeout: 60)
        let error = await failure { try await client.catalogs() }
        #expect(error?.code == .offline)
        #expect(error?.isConnectivity == true)
        #expect(error?.status == nil)
        withExtendedLifetime(down) {}
    }

    @Test func serverFailuresKeepTheirStatus() async throws {
        let server = try LoopbackHTTPServer(routes: [
            "/api/v1/catalogs": .raw(
                "HTTP/1.1 503 Busy\r\nContent-Type: application/json\r\nRetry-After: 7\r\nContent-Length: 56\r\nConnection: close\r\n\r\n"
                    + #"{"error":{"code":"busy","message":"the server is busy"}}"#),
            "/api/v1/catalogs/x": .status(500, body: "Internal Server Error\n"),
            "/api/v1/catalogs/y": .status(418, body: ""),
        ])
        defer { server.stop() }
        let client = client(server)
        let busy = await failure { try await client.catalogs() }
        #expect(busy?.code == .unavailable && busy?.retryAfter == 7 && busy?.apiCode == "busy")
        #expect(busy?.message == "the server is busy")
        #expect(await failure { try await client.catalog("x") }?.code == .server)
        #expect(await failure { try await client.catalog("y") }?.code == .http)
    }

    /// Truncated, garbled and wrongly shaped answers are decoding errors with where they went wrong.
    @Test func malformedAnswersAreDecodingErrors() async throws {
        let live = try LiveServer()
        let good = try RawClient(port: live.server.port).request("GET", "/api/v1/catalogs/products/search?q=a").body
        var bodies = [
            "", "{", "[]", "null", "{\"items\":",
            "{\"catalogs\":[{\"id\":1,\"title\":\"x\",\"locale\":\"de\",\"count\":1}]}",
            String(repeating: "[", count: 100_000), "\u{0}\u{1}garbage", "{\"items\":[],\"total\":\"many\"}",
        ]
        bodies.append(String(decoding: good.prefix(good.count / 2), as: UTF8.self))
        var routes: [String: LoopbackHTTPServer.Reply] = [:]
        for (index, body) in bodies.enumerated() {
            routes["/api/v1/catalogs/c\(index)/search"] = .status(200, body: body)
        }
        routes["/api/v1/catalogs"] = .status(200, body: bodies[5])
        let server = try LoopbackHTTPServer(routes: routes)
        defer { server.stop() }
        let client = client(server)
        for index in bodies.indices {
            let error = await failure { try await client.search(SearchRequest(query: "a"), in: "c\(index)") }
            #expect(error?.code == .decoding, "body \(index)")
        }
        let shape = await failure { try await client.catalogs() }
        #expect(shape?.codingPath == "catalogs[0].id")
    }

    /// The decoder itself on every prefix of a real answer and on bytes flipped at random: an
    /// answer or an error, nothing else.
    @Test func everyPrefixAndMutationOfARealAnswerIsSafe() throws {
        let live = try LiveServer()
        let good = try RawClient(port: live.server.port).request(
            "GET", "/api/v1/catalogs/cookbook/search?q=leves&facets=categories"
        ).body
        let decoder = CatalogJSONDecoder()
        #expect(throws: Never.self) { try decoder.decode(SearchResponse.self, from: good) }
        var failures = 0
        for length in 0..<good.count {
            if (try? decoder.decode(SearchResponse.self, from: Array(good.prefix(length)))) == nil { failures += 1 }
        }
        #expect(failures == good.count)
        var random: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<3_000 {
            var bytes = good
            for _ in 0..<3 {
                random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes[Int(random >> 33) % bytes.count] = UInt8(truncatingIfNeeded: random >> 13)
            }
            _ = try? decoder.decode(SearchResponse.self, from: bytes)
        }
    }

    /// The server never answers (until it stops, after the call): only the client's own limit can
    /// end the call, so `.timedOut` is the proof. No bound on the wall clock: while the whole
    /// suite runs on two cores the calling task has waited ten minutes for a thread to resume on.
    @Test(.timeLimit(.minutes(30))) func aSilentServerTimesOut() async throws {
        let server = try LoopbackHTTPServer(routes: ["/api/v1/catalogs": .silence])
        defer { server.stop() }
        let client = CatalogClient(
            baseURL: URL(string: server.baseURL)!, session: Self.ownSession(), cache: .none, timeout: 1)
        let error = await failure { try await client.catalogs() }
        #expect(error?.code == .timedOut)
        #expect(error?.message.contains("silent for 1 s") == true, "\(String(describing: error))")
    }

    /// Cancelling the calling task cancels the request: the call returns at once and the
    /// connection is closed, long before the timeout.
    @Test func cancellingTheTaskCancelsTheRequest() async throws {
        let server = try LoopbackHTTPServer(routes: ["/api/v1/catalogs": .waitForClose])
        defer { server.stop() }
        let client = client(server, timeout: 60)
        let task = Task { try await client.catalogs() }
        #expect(await waitUntil { !server.requestedPaths.isEmpty })
        task.cancel()
        let error = await failure { try await task.value }
        // `.cancelled`, not the 60 s `.timedOut`, and the server never answers: the call ended by
        // the cancellation (no wall-clock bound, which a loaded machine stretches past any limit).
        #expect(error?.code == .cancelled)
        await waitUntil(timeout: 5) { server.clientClosures > 0 }
        #expect(server.clientClosures == 1)
        // A task cancelled before it starts never sends anything.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.catalogs()
        }
        #expect(await failure { try await early.value }?.code == .cancelled)
        #expect(server.requestedPaths.count == 1)
    }

    /// An unchanged answer is revalidated with If-None-Match and costs a 304 without a body.
    @Test func revalidationCostsA304() async throws {
        let feed = LoopbackFeed(#"{"catalogs":[{"id":"a","title":"A","locale":"en","count":1}]}"#)
        let server = try LoopbackHTTPServer(routes: ["/api/v1/catalogs": .feed(feed)])
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "client-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let client = CatalogClient(baseURL: URL(string: server.baseURL)!, cache: .directory(directory))
        let first = try await client.catalogs()
        let second = try await client.catalogs()
        #expect(first == second && first.first?.id == "a")
        #expect(feed.answers.full == 1 && feed.answers.notModified == 1)
        #expect(server.requestHeaders.last?["if-none-match"] == "\"v1\"")
        // The cache outlives the client.
        let later = CatalogClient(baseURL: URL(string: server.baseURL)!, cache: .directory(directory))
        #expect(try await later.catalogs() == first)
        #expect(feed.answers.notModified == 2)
        feed.update(#"{"catalogs":[]}"#)
        #expect(try await later.catalogs().isEmpty)
        #expect(feed.answers.full == 2)
    }

    /// Against the real server too: a second client with the same cache revalidates, and a change
    /// on the server is seen.
    @Test func revalidationAgainstTheServer() async throws {
        let live = try LiveServer()
        let directory = live.directory.appendingPathComponent("shared-cache")
        let client = CatalogClient(baseURL: live.url, cache: .directory(directory))
        let before = try await client.catalogs()
        #expect(try await client.catalogs() == before)
        // Another process's import: the server's next request reads a snapshot that has it.
        try live.importRecords([Record(id: "n1", title: "Új")], into: "fresh", locale: "hu")
        let after = try await CatalogClient(baseURL: live.url, cache: .directory(directory)).catalogs()
        #expect(after.map(\.id) == ["cookbook", "fresh", "products", "sequencers"])
    }
}
