import CatalogHTTP
import CatalogStorage
import Foundation
import Testing

@testable import CatalogServer

/// Records changed through the API: create, replace, patch and delete with ETags and
/// preconditions, batches all or nothing, every bad value named, the change log, history and
/// restore, and every change visible to the next read.
@Suite struct RecordsAPITests {
    let fixture: ServerFixture

    init() throws {
        fixture = try ServerFixture()
    }

    func send(
        _ method: HTTPMethod, _ target: String, _ body: String = "", headers: [(String, String)] = [],
        token: String? = nil
    ) throws -> ServerFixture.Reply {
        try fixture.request(
            method, target, headers: [("Content-Type", "application/json")] + headers, body: Array(body.utf8),
            token: token ?? fixture.adminToken)
    }

    let item = "/api/v1/catalogs/cookbook/items/new1"

    @Test func createReplacePatchDeleteWithETags() throws {
        let created = try send(.put, item, #"{"id":"new1","title":"Zöldborsóleves","subtitle":"tavaszi","price":3}"#)
        #expect(created.status == 201)
        #expect(created.headers["Location"] == item)
        let tag = try #require(created.headers["ETag"])
        let change = try #require(created.headers["Catalog-Change"].flatMap(Int.init))
        let read = try fixture.request(item)
        #expect(read.headers["ETag"] == tag)
        #expect(read.object["title"] as? String == "Zöldborsóleves")
        #expect(read.object["section"] as? String == "Z")

        #expect(try send(.put, item, #"{"title":"Másik"}"#, headers: [("If-None-Match", "*")]).status == 412)
        let stale = try send(.put, item, #"{"title":"Másik"}"#, headers: [("If-Match", "\"stale\"")])
        #expect(stale.status == 412)
        #expect(stale.headers["ETag"] == tag)

        let patched = try fixture.request(
            .patch, item, headers: [("Content-Type", "application/merge-patch+json"), ("If-Match", tag)],
            body: Array(#"{"subtitle":null,"price":4.5}"#.utf8), token: fixture.adminToken)
        #expect(patched.status == 200)
        #expect(patched.object["subtitle"] is NSNull)
        #expect((patched.object["price"] as? NSNumber)?.doubleValue == 4.5)
        #expect(patched.headers["ETag"] != tag)
        #expect(patched.headers["Catalog-Change"].flatMap(Int.init) == change + 1)
        #expect(try send(.patch, item, #"{"price":5}"#, headers: [("If-Match", tag)]).status == 412)

        let replaced = try send(.put, item, #"{"title":"Zöldborsó"}"#)
        #expect(replaced.status == 200)
        #expect(replaced.object["price"] is NSNull, "a PUT replaces the whole record")

        #expect(try send(.delete, item).status == 204)
        #expect(try fixture.request(item).status == 404)
        #expect(try send(.delete, item).status == 404)
        #expect(try send(.patch, item, #"{"title":"x"}"#).status == 404)
    }

    /// Changes merge their segments on the maintenance thread, after the change has answered.
    @Test func changesAreMergedInTheBackground() throws {
        for index in 0..<4 {
            let reply = try send(
                .put, "/api/v1/catalogs/cookbook/items/bg\(index)", #"{"title":"Babfőzelék \#(index)"}"#)
            #expect(reply.status == 201)
        }
        fixture.application.segmentMaintainer.waitUntilIdle()
        #expect(fixture.application.segmentMaintainer.merges >= 1)
        let segments = try fixture.application.stores.read { reader in
            try reader.searchSegments(of: reader.catalog("cookbook")!).count
        }
        #expect(segments == 2, "the base and the four changes' segments merged into one")
        let found = try fixture.request("/api/v1/catalogs/cookbook/search?q=babfozelek&limit=10")
        #expect((found.object["items"] as? [Any])?.count == 4)
    }

    @Test func everyBadValueIsNamed() throws {
        let reply = try send(
            .put, item, #"{"title":"","price":-1,"currency":"EURO","country":"XYZ","categories":{"a":1}}"#)
        #expect(reply.status == 422)
        let error = try #require(reply.object["error"] as? [String: Any])
        #expect(error["code"] as? String == "invalid_record")
        let pointers = Set((error["problems"] as? [[String: Any]] ?? []).compactMap { $0["pointer"] as? String })
        #expect(pointers.isSuperset(of: ["/title", "/price", "/currency", "/country"]))
        #expect(pointers.contains { $0.hasPrefix("/categories") }, "\(pointers)")
        #expect(try send(.put, item, #"{"id":"other","title":"x"}"#).status == 422)
        #expect(try send(.put, item, "not json").status == 422)
        let plain = try fixture.request(
            .put, item, headers: [("Content-Type", "text/plain")], body: Array(#"{"title":"x"}"#.utf8),
            token: fixture.adminToken)
        #expect(plain.status == 415)
        #expect(try fixture.request(item).status == 404, "nothing was stored")
    }

    @Test func batchesApplyAllOrNothing() throws {
        let batch = try send(
            .post, "/api/v1/catalogs/cookbook/items",
            #"[{"upsert":{"id":"b1","title":"Babgulyás"}},{"upsert":{"id":"b2","title":"Bableves"}},{"delete":"r01"}]"#)
        #expect(batch.status == 200)
        let results = try #require(batch.object["results"] as? [[String: Any]])
        #expect(results.compactMap { $0["result"] as? String } == ["created", "created", "deleted"])
        #expect(try fixture.request("/api/v1/catalogs/cookbook/items/r01").status == 404)

        let ndjson = try fixture.request(
            .post, "/api/v1/catalogs/cookbook/items", headers: [("Content-Type", "application/x-ndjson")],
            body: Array("{\"delete\":\"b1\"}\n{\"upsert\":{\"id\":\"b3\",\"title\":\"Bejgli\"}}\n".utf8),
            token: fixture.adminToken)
        #expect(ndjson.status == 200)

        let bad = try send(
            .post, "/api/v1/catalogs/cookbook/items",
            #"[{"upsert":{"id":"b4","title":"Jó"}},{"upsert":{"id":"b5","title":"Rossz","price":"x"}}]"#)
        #expect(bad.status == 422)
        let problems = (bad.object["error"] as? [String: Any])?["problems"] as? [[String: Any]] ?? []
        #expect(problems.first?["pointer"] as? String == "/1/upsert/price")
        let missing = try send(
            .post, "/api/v1/catalogs/cookbook/items", #"[{"upsert":{"id":"b6","title":"Jó"}},{"delete":"nope"}]"#)
        #expect(missing.status == 422)
        #expect(try fixture.request("/api/v1/catalogs/cookbook/items/b4").status == 404)
        #expect(try fixture.request("/api/v1/catalogs/cookbook/items/b6").status == 404)
    }

    @Test func onlyEditorsWrite() throws {
        #expect(try fixture.request(.put, item, body: Array(#"{"title":"x"}"#.utf8)).status == 401)
        #expect(try send(.put, item, #"{"title":"x"}"#, token: fixture.userToken).status == 403)
        #expect(try send(.delete, "/api/v1/catalogs/cookbook/items/r01", token: fixture.userToken).status == 403)
        #expect(try send(.put, "/api/v1/catalogs/nope/items/x", #"{"title":"x"}"#).status == 404)
    }

    @Test func changesAreVisibleAtOnceAndLogged() throws {
        let before = try fixture.request("/api/v1/catalogs/cookbook/search?q=zserbo")
        #expect((before.object["total"] as? Int) == 0)
        let start = try #require(
            try fixture.request("/api/v1/catalogs/cookbook/changes").headers["Catalog-Change"].flatMap(Int.init))
        #expect(try send(.put, item, #"{"title":"Zserbó","categories":["Desszertek"]}"#).status == 201)
        let after = try fixture.request("/api/v1/catalogs/cookbook/search?q=zserbo")
        #expect((after.object["items"] as? [[String: Any]])?.first?["id"] as? String == "new1")
        let page = try fixture.request("/c/cookbook?q=zserb")
        #expect(page.text.contains("data-id=\"new1\""))
        #expect(try send(.delete, item).status == 204)

        let log = try fixture.request("/api/v1/catalogs/cookbook/changes?since=\(start)")
        let changes = try #require(log.object["changes"] as? [[String: Any]])
        #expect(changes.compactMap { $0["kind"] as? String } == ["upsert", "delete"])
        #expect(changes.compactMap { $0["number"] as? Int } == [start + 1, start + 2])
        #expect(log.object["reload"] as? Bool == false)
        #expect(changes.first?["actor"] == nil, "the public log does not say who")
        #expect(try fixture.request("/api/v1/catalogs/cookbook/changes?since=999999").object["reload"] as? Bool == true)

        let history = try fixture.request("/api/v1/catalogs/cookbook/items/new1/history", token: fixture.adminToken)
        let entries = try #require(history.object["items"] as? [[String: Any]])
        #expect(entries.compactMap { $0["number"] as? Int } == [start + 2, start + 1])
        #expect(entries.first?["actor"] as? String == "admin")
        #expect(try fixture.request("/api/v1/catalogs/cookbook/items/new1/history").status == 401)

        let restored = try send(.post, "/api/v1/catalogs/cookbook/items/new1/restore?at=\(start + 1)")
        #expect(restored.status == 201)
        #expect(try fixture.request(item).object["title"] as? String == "Zserbó")
        #expect(try send(.post, "/api/v1/catalogs/cookbook/items/new1/restore?at=\(start)").status == 204)
        #expect(try fixture.request(item).status == 404)
    }

    @Test func theHistoryKeepsItsTimeAndThenSaysReload() throws {
        #expect(try send(.put, item, #"{"title":"Zserbó"}"#).status == 201)
        let pruner = HistoryPruner(database: fixture.application.stores, retention: 86_400, log: { _ in })
        #expect(try pruner.prune() == 0, "nothing is older than a day")
        #expect(try pruner.prune(now: Date().addingTimeInterval(2 * 86_400)) > 0)
        let log = try fixture.request("/api/v1/catalogs/cookbook/changes?since=1")
        #expect(log.object["reload"] as? Bool == true)
        let history = try fixture.request("/api/v1/catalogs/cookbook/items/new1/history", token: fixture.adminToken)
        #expect((history.object["items"] as? [Any])?.isEmpty == true)
    }
}
