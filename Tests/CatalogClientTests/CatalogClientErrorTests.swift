import CatalogClient
import CatalogTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``CatalogClientError`` says what went wrong wherever an app shows an error: its
/// `localizedDescription` is the sentence, not Foundation's generic "The operation could not be
/// completed", and ``CatalogClientError/message(in:)`` speaks the catalog's language for what
/// screens show most.
@Suite struct CatalogClientErrorTests {
    @Test(arguments: CatalogClientError.Code.allCases)
    func localizedDescriptionIsTheMessage(code: CatalogClientError.Code) {
        let error = CatalogClientError(code, "the server said no (\(code.rawValue))")
        #expect(error.errorDescription == "the server said no (\(code.rawValue))")
        // Through `any Error`, as an app's catch-all handler sees it.
        let erased: any Error = error
        #expect(erased.localizedDescription == "the server said no (\(code.rawValue))")
        #expect((erased as? any LocalizedError)?.errorDescription == error.message)
    }

    @Test func recoverySuggestionsWhereTheUserCanAct() {
        #expect(CatalogClientError(.offline, "x").recoverySuggestion == "Check the connection and try again.")
        #expect(CatalogClientError(.timedOut, "x").recoverySuggestion == "Check the connection and try again.")
        #expect(CatalogClientError(.unauthorized, "x").recoverySuggestion == "Sign in again.")
        #expect(
            CatalogClientError(.tooManyRequests, "x", retryAfter: 30).recoverySuggestion == "Try again in 30 seconds.")
        #expect(CatalogClientError(.notFound, "x").recoverySuggestion == nil)
        #expect(CatalogClientError(.decoding, "x").recoverySuggestion == nil)
    }

    @Test func messagesInTheCatalogsLanguage() {
        let hungarian = CatalogPhrases.forLocale("hu")
        let german = CatalogPhrases.forLocale("de-AT")
        let offline = CatalogClientError(.offline, "cannot reach example.org")
        #expect(offline.message(in: hungarian) == "A szerver nem érhető el.")
        #expect(offline.message(in: german) == "Der Server ist nicht erreichbar.")
        #expect(CatalogClientError(.timedOut, "late").message(in: hungarian) == hungarian.unreachable)
        let refused = CatalogClientError(.unauthorized, "wrong name or password", apiCode: "sign_in_failed")
        #expect(refused.message(in: hungarian) == "Hibás név vagy jelszó.")
        // Without a phrase of its own, the message stays as the server or the client wrote it.
        let missing = CatalogClientError(.notFound, "no catalog \"nope\"")
        #expect(missing.message(in: german) == "no catalog \"nope\"")
        #expect(CatalogClientError(.unauthorized, "the token expired").message(in: german) == "the token expired")
    }

    /// A real failure, from a server's JSON error to `localizedDescription`.
    @Test func aServersErrorReachesLocalizedDescription() async throws {
        let body = #"{"error":{"code":"not_found","message":"no catalog \"nope\""}}"#
        let server = try LoopbackHTTPServer(routes: [
            "/api/v1/catalogs/nope": .raw(
                "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
                    + "Connection: close\r\n\r\n\(body)")
        ])
        defer { server.stop() }
        let client = CatalogClient(
            baseURL: URL(string: server.baseURL)!, session: URLSession(configuration: .ephemeral), cache: .none,
            timeout: 30)
        do {
            _ = try await client.catalog("nope")
            Issue.record("a 404 must throw")
        } catch {
            let erased: any Error = error
            #expect(erased.localizedDescription == "no catalog \"nope\"")
            #expect(error.code == .notFound)
        }
    }

    @Test func errorsAreHashable() {
        let problem = RecordProblem(pointer: "/price", message: "not a number")
        let first = CatalogClientError(.invalidRecord, "bad", status: 422, problems: [problem])
        let same = CatalogClientError(.invalidRecord, "bad", status: 422, problems: [problem])
        let other = CatalogClientError(.invalidRecord, "bad", status: 422)
        #expect(Set([first, same, other]).count == 2)
        #expect(Set([ChangeFeedStatus.live, .retrying(first), .retrying(same)]).count == 2)
    }
}
