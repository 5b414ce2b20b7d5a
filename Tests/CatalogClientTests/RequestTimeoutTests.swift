import CatalogClient
import CatalogTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `timeout` is the server's silence, never the length of an answer that keeps arriving;
/// `totalTimeout` is the whole request's. The loopback server paces its own writes; the tests
/// wait for the calls' outcomes, never for a time.
@Suite struct RequestTimeoutTests {
    /// One catalog, as `GET /api/v1/catalogs` answers it.
    static let catalogs = #"{"catalogs":[{"id":"drip","title":"One byte at a time","locale":"en","count":1}]}"#

    func client(_ server: LoopbackHTTPServer, timeout: TimeInterval, totalTimeout: TimeInterval? = nil)
        -> CatalogClient
    {
        CatalogClient(
            baseURL: URL(string: server.baseURL)!, session: URLSession(configuration: .ephemeral), cache: .none,
            timeout: timeout, totalTimeout: totalTimeout)
    }

    /// An answer sent one byte every 50 ms takes over 4 s in all, nearly three times the 1.5 s
    /// timeout, but is never silent for more than 50 ms: it arrives whole.
    @Test func aSlowAnswerThatKeepsComingArrives() async throws {
        let server = try LoopbackHTTPServer(routes: ["/api/v1/catalogs": .trickle(Self.catalogs, interval: 0.05)])
        defer { server.stop() }
        let client = client(server, timeout: 1.5)
        let started = ContinuousClock.now
        let catalogs = try await client.catalogs()
        #expect(catalogs.map(\.id) == ["drip"])
        // The server's own pauses alone add up to more than the timeout.
        #expect(ContinuousClock.now - started > .seconds(1.5))
    }

    /// Silence before the answer starts times out.
    @Test func silenceBeforeTheAnswerTimesOut() async throws {
        let server = try LoopbackHTTPServer(routes: ["/api/v1/catalogs": .silence])
        defer { server.stop() }
        let client = client(server, timeout: 1)
        do {
            _ = try await client.catalogs()
            Issue.record("a silent server must time out")
        } catch {
            #expect(error.code == .timedOut)
            #expect(error.message.contains("silent for 1 s"), "\(error.message)")
            #expect(error.isConnectivity)
        }
    }

    /// Silence in the middle of the body times out too: the headers and half the body came, then
    /// nothing.
    @Test func silenceInTheMiddleOfTheBodyTimesOut() async throws {
        let body = Array(Self.catalogs.utf8)
        let server = try LoopbackHTTPServer(routes: [
            "/api/v1/catalogs": .custom { connection in
                connection.send(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n")
                connection.send(Array(body.prefix(body.count / 2)))
                connection.waitForClose()
            }
        ])
        defer { server.stop() }
        let client = client(server, timeout: 1)
        do {
            _ = try await client.catalogs()
            Issue.record("a body that stops must time out")
        } catch {
            #expect(error.code == .timedOut)
            #expect(error.message.contains("silent"), "\(error.message)")
        }
    }

    /// `totalTimeout` ends a request whose answer keeps coming but would take 20 s in all.
    @Test func theTotalTimeoutEndsAFlowingAnswer() async throws {
        let long = Self.catalogs + String(repeating: " ", count: 400)
        let server = try LoopbackHTTPServer(routes: ["/api/v1/catalogs": .trickle(long, interval: 0.05)])
        defer { server.stop() }
        let client = client(server, timeout: 10, totalTimeout: 1)
        #expect(client.totalTimeout == 1)
        do {
            _ = try await client.catalogs()
            Issue.record("the total timeout must end the request")
        } catch {
            #expect(error.code == .timedOut)
            #expect(error.message.contains("within 1 s"), "\(error.message)")
        }
    }

    /// Without a total timeout given there is none, as before this option existed.
    @Test func noTotalTimeoutByDefault() {
        let client = CatalogClient(baseURL: URL(string: "http://127.0.0.1:1")!, cache: .none)
        #expect(client.totalTimeout == nil && client.timeout == 30)
    }
}
