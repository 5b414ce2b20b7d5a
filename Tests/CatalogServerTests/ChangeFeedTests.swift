import CatalogCollation
import CatalogCore
import CatalogHTTP
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

@testable import CatalogServer

/// The change feed streamed by a live server: every change arrives once and in order, from this
/// server and from another process writing the same file, a reconnect with `Last-Event-ID`
/// continues after the last one, and editors may write only their own catalog.
@Suite struct ChangeFeedTests {
    let fixture: ServerFixture
    let server: HTTPServer

    init() throws {
        fixture = try ServerFixture()
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        let router = fixture.application.router
        configuration.routeOptions = { router.options(method: $0, segments: $1) }
        server = HTTPServer(configuration: configuration, responder: fixture.application.responder, log: { _ in })
        try server.start()
    }

    func put(_ id: String, _ title: String, token: String? = nil) throws -> Int {
        let reply = try fixture.request(
            .put, "/api/v1/catalogs/cookbook/items/\(id)", headers: [("Content-Type", "application/json")],
            body: Array("{\"title\":\"\(title)\"}".utf8), token: token ?? fixture.adminToken)
        return reply.status
    }

    func current() throws -> Int {
        try #require(
            try fixture.request("/api/v1/catalogs/cookbook/changes").headers["Catalog-Change"].flatMap(Int.init))
    }

    /// The next change event's number and record id.
    func nextChange(_ client: EventStreamClient) -> (Int, String)? {
        guard case .event(let id, let event, let data) = client.nextEvent(), event == "change", let id,
            let number = Int(id),
            let object = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any],
            let item = object["id"] as? String
        else { return nil }
        return (number, item)
    }

    @Test func changesStreamInOrderAndResume() throws {
        let start = try current()
        let client = try EventStreamClient(port: server.port, path: "/api/v1/catalogs/cookbook/changes?since=\(start)")
        #expect(client.readHead())
        #expect(client.status == 200)
        #expect(client.headers["content-type"]?.hasPrefix("text/event-stream") == true)
        #expect(try put("s1", "Sóskafőzelék") == 201)
        #expect(try put("s2", "Spenót") == 201)
        #expect(nextChange(client)! == (start + 1, "s1"))
        #expect(nextChange(client)! == (start + 2, "s2"))
        // Another process writes the same file: the stream gets it too.
        try fixture.elsewhere { database in
            _ = try CatalogEditor.apply(
                [RecordEdit(.delete(id: "s1"))], to: "cookbook", in: database, collation: try ICUCollation(locale: "hu")
            )
        }
        #expect(nextChange(client)! == (start + 3, "s1"))
        client.close()

        #expect(try put("s3", "Sütőtök") == 201)
        let again = try EventStreamClient(
            port: server.port, path: "/api/v1/catalogs/cookbook/changes",
            headers: [("Last-Event-ID", String(start + 2))])
        #expect(again.readHead())
        #expect(nextChange(again)! == (start + 3, "s1"))
        #expect(nextChange(again)! == (start + 4, "s3"))
        again.close()

        let ahead = try EventStreamClient(
            port: server.port, path: "/api/v1/catalogs/cookbook/changes", headers: [("Last-Event-ID", "999999")])
        #expect(ahead.readHead())
        guard case .event(_, let event, _) = ahead.nextEvent() else {
            Issue.record("no reload event")
            return
        }
        #expect(event == "reload")
        ahead.close()
        #expect(
            try fixture.request("/api/v1/catalogs/nope/changes", headers: [("Accept", "text/event-stream")]).status
                == 404)
    }

    /// The next change event's number, kind and record id.
    func nextKindedChange(_ client: EventStreamClient) -> (Int, String, String)? {
        guard case .event(let id, let event, let data) = client.nextEvent(), event == "change", let id,
            let number = Int(id),
            let object = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any],
            let kind = object["kind"] as? String, let item = object["id"] as? String
        else { return nil }
        return (number, kind, item)
    }

    @Test func aKeysRecordFilterNarrowsTheStream() throws {
        let made = try fixture.request(
            .post, "/api/v1/keys", headers: [("Content-Type", "application/json")],
            body: Array(#"{"name":"dealer","catalogs":["products"],"actions":["read"],"filter":"country = DE"}"#.utf8),
            token: fixture.adminToken)
        let key = try #require(made.object["token"] as? String)
        let start = try #require(
            try fixture.request("/api/v1/catalogs/products/changes").headers["Catalog-Change"].flatMap(Int.init))
        let client = try EventStreamClient(
            port: server.port, path: "/api/v1/catalogs/products/changes?since=\(start)",
            headers: [("Authorization", "Bearer \(key)")])
        defer { client.close() }
        #expect(client.readHead())
        #expect(client.status == 200)
        func put(_ id: String, country: String) throws {
            let reply = try fixture.request(
                .put, "/api/v1/catalogs/products/items/\(id)", headers: [("Content-Type", "application/json")],
                body: Array("{\"title\":\"Item \(id)\",\"country\":\"\(country)\"}".utf8), token: fixture.adminToken)
            #expect(reply.status == 201 || reply.status == 200, "\(reply.text)")
        }
        try put("x1", country: "SE")  // outside the filter: left out
        try put("x2", country: "DE")  // inside: an upsert
        try put("x2", country: "SE")  // out again: a deletion for the key
        let first = try #require(nextKindedChange(client))
        #expect(first == (start + 2, "upsert", "x2"))
        let second = try #require(nextKindedChange(client))
        #expect(second == (start + 3, "delete", "x2"))
    }

    @Test func stoppingTheServerEndsStreams() throws {
        let client = try EventStreamClient(
            port: server.port, path: "/api/v1/catalogs/cookbook/changes?since=\(try current())")
        #expect(client.readHead())
        #expect(client.status == 200)
        try waitUntil { fixture.application.changeFeed.followerCount == 1 }
        server.shutdown()
        #expect(client.nextEvent() == .end)
    }

    @Test func editorsChangeOnlyTheirCatalog() throws {
        try fixture.elsewhere { database in
            _ = try database.users().grant(user: "mari", catalog: "cookbook", role: .editor)
        }
        #expect(try put("e1", "Lecsó", token: fixture.userToken) == 201)
        let other = try fixture.request(
            .put, "/api/v1/catalogs/products/items/e1", headers: [("Content-Type", "application/json")],
            body: Array(#"{"title":"x"}"#.utf8), token: fixture.userToken)
        #expect(other.status == 403)
        #expect(try put("e2", "Lecsó", token: fixture.otherToken) == 403)
    }
}
