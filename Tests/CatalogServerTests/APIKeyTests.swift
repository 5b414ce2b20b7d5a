import CatalogAuth
import CatalogHTTP
import CatalogCore
import CatalogImages
import CatalogModel
import CatalogSQLite
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

@testable import CatalogServer

/// API keys (`cak_…`): made and revoked through `/api/v1/keys`, limited to their catalogs and
/// actions, never beyond what their account may do now, and to the records their filter passes.
@Suite struct APIKeyTests {
    let fixture: ServerFixture

    init() throws {
        fixture = try ServerFixture()
    }

    /// Makes a key through the API with `token`; returns the reply.
    func make(_ body: String, token: String?) throws -> ServerFixture.Reply {
        try fixture.request(
            .post, "/api/v1/keys", headers: [("Content-Type", "application/json")], body: Array(body.utf8),
            token: token)
    }

    /// Makes a key through the API and returns its text.
    func key(_ body: String, token: String? = nil) throws -> String {
        let reply = try make(body, token: token ?? fixture.adminToken)
        #expect(reply.status == 201, "\(reply.text)")
        return try #require(reply.object["token"] as? String)
    }

    @Test func accountsManageTheirOwnKeysAndAdministratorsEveryKey() throws {
        let made = try make(
            #"{"name":"mari-app","catalogs":["cookbook"],"actions":["search","read"],"expires":"30d"}"#,
            token: fixture.userToken)
        #expect(made.status == 201, "\(made.text)")
        #expect(made.headers["Cache-Control"] == "private, no-store")
        let token = try #require(made.object["token"] as? String)
        #expect(token.hasPrefix("cak_") && token.count == APIToken.length)
        let stored = try #require(made.object["key"] as? [String: Any])
        #expect(stored["user"] as? String == "mari")
        #expect(stored["actions"] as? [String] == ["read", "search"])
        #expect((stored["expires"] as? String)?.hasSuffix("Z") == true)
        #expect(!made.text.contains("hash") && !made.text.contains("selector"))
        _ = try key(#"{"name":"admin-app","catalogs":["*"],"actions":["admin"]}"#)

        let mine = try fixture.request("/api/v1/keys", token: fixture.userToken)
        #expect(mine.status == 200)
        #expect((mine.object["keys"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["mari-app"])
        let all = try fixture.request("/api/v1/keys", token: fixture.adminToken)
        #expect(
            (all.object["keys"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["admin-app", "mari-app"])

        // Someone else's key does not exist for an account; an administrator revokes any.
        #expect(
            try make(#"{"name":"x","user":"jozsi","catalogs":["*"],"actions":["read"]}"#, token: fixture.userToken)
                .status == 403)
        #expect(try fixture.request(.delete, "/api/v1/keys/admin-app", token: fixture.userToken).status == 404)
        #expect(try fixture.request(.delete, "/api/v1/keys/mari-app", token: fixture.otherToken).status == 404)
        #expect(try fixture.request(.delete, "/api/v1/keys/MARI-APP", token: fixture.adminToken).status == 204)
        #expect(try fixture.request(.delete, "/api/v1/keys/mari-app", token: fixture.userToken).status == 404)
        #expect(try fixture.request("/api/v1/keys").status == 401)

        // A key manages no keys, not even with every action.
        let admin = try key(#"{"name":"all","catalogs":["*"],"actions":["read","search","write","import","admin"]}"#)
        let refused = try fixture.request("/api/v1/keys", token: admin)
        #expect(refused.status == 403 && refused.text.contains("an API key cannot manage API keys"))
    }

    @Test(arguments: [
        (#"{"name":"k","catalogs":["cookbook"],"actions":["fly"]}"#, 400, "lists one or more of"),
        (#"{"name":"k","catalogs":["cookbook"],"actions":[]}"#, 400, "lists one or more of"),
        (#"{"name":"k","catalogs":[],"actions":["read"]}"#, 400, "at least one catalog"),
        (#"{"name":"k k","catalogs":["cookbook"],"actions":["read"]}"#, 400, "invalid key name"),
        (#"{"name":"k","catalogs":["cookbook"],"actions":["read"],"expires":"soon"}"#, 400, "takes a duration"),
        (#"{"name":"k","catalogs":["cookbook"],"actions":["read"],"filter":"colour red"}"#, 400, "after 'colour'"),
        (#"{"name":"k","user":"nobody","catalogs":["cookbook"],"actions":["read"]}"#, 404, "no user named"),
        (#"{"name":"taken","catalogs":["cookbook"],"actions":["read"]}"#, 409, "already exists"),
        (#"{"catalogs":["cookbook"]}"#, 400, "not the expected JSON"),
    ])
    func badKeysAreRefusedAndNothingIsStored(body: String, status: Int, message: String) throws {
        _ = try key(#"{"name":"taken","catalogs":["products"],"actions":["read"]}"#)
        let reply = try make(body, token: fixture.adminToken)
        #expect(reply.status == status, "\(reply.text)")
        #expect(reply.text.contains(message), "\(reply.text)")
        #expect(try fixture.elsewhere { try $0.users().keys(ofUser: nil) }.map(\.name) == ["taken"])
    }

    @Test func aKeyTakesItsActionsInItsCatalogsOnly() throws {
        let reader = try key(#"{"name":"reader","catalogs":["products"],"actions":["read"]}"#)
        #expect(try fixture.request("/api/v1/catalogs/products/items?limit=3", token: reader).status == 200)
        let search = try fixture.request("/api/v1/catalogs/products/search?q=saw", token: reader)
        #expect(search.status == 403)
        #expect(search.text.contains(#"this API key lacks the \"search\" action"#), "\(search.text)")
        // Another catalog does not exist for the key: the same answer as a catalog that does not.
        let other = try fixture.request("/api/v1/catalogs/cookbook/items", token: reader)
        let missing = try fixture.request("/api/v1/catalogs/no-such/items", token: fixture.adminToken)
        #expect(other.status == 404 && missing.status == 404)
        #expect(other.text == missing.text.replacingOccurrences(of: "no-such", with: "cookbook"))
        #expect(try fixture.request("/api/v1/catalogs/cookbook/search?q=a", token: reader).status == 404)
        let listed = try fixture.request("/api/v1/catalogs", token: reader)
        #expect((listed.object["catalogs"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["products"])
        // Writing needs the write action, whatever the account may do (an administrator's here).
        let write = try fixture.request(.delete, "/api/v1/catalogs/products/items/p001", token: reader)
        #expect(write.status == 403 && write.text.contains(#"lacks the \"write\" action"#))
        // Web pages and the original endpoints do not take keys.
        #expect(try fixture.request("/gethots", token: reader).status == 403)
        // Creating a catalog needs a key for every catalog.
        let admin = try key(#"{"name":"cookbook-admin","catalogs":["cookbook"],"actions":["admin"]}"#)
        let create = try fixture.request(
            .post, "/api/v1/catalogs", headers: [("Content-Type", "application/json")],
            body: Array(#"{"id":"new","title":"New","locale":"en"}"#.utf8), token: admin)
        #expect(create.status == 403 && create.text.contains("a key for every catalog"), "\(create.text)")
    }

    @Test func expiredAndRevokedKeysAreNotValid() throws {
        let store = try fixture.elsewhere { database in
            // Made an hour ago for a minute: expired now.
            let past = Date().addingTimeInterval(-3600)
            return try Authenticator(clock: AuthClock { past }).addKey(
                name: "old", user: "admin", catalogs: ["*"], actions: [.read], lifetime: .seconds(60), filter: nil,
                in: database.users()
            ).text
        }
        let expired = try fixture.request("/api/v1/catalogs/products/items", token: store)
        #expect(expired.status == 401)
        #expect(expired.text.contains(#"the API key \"old\" has expired"#), "\(expired.text)")
        #expect(expired.headers["WWW-Authenticate"] == #"Bearer realm="catalog""#)

        let revoked = try key(#"{"name":"revoked","catalogs":["*"],"actions":["read"]}"#)
        #expect(try fixture.request("/api/v1/catalogs/products/items", token: revoked).status == 200)
        #expect(try fixture.request(.delete, "/api/v1/keys/revoked", token: fixture.adminToken).status == 204)
        let gone = try fixture.request("/api/v1/catalogs/products/items", token: revoked)
        #expect(gone.status == 401 && gone.text.contains("the API key is not valid"))
        // A key's text with one letter changed is not a key.
        let forged = String(revoked.dropLast()) + (revoked.hasSuffix("A") ? "B" : "A")
        #expect(try fixture.request("/api/v1/catalogs/products/items", token: forged).status == 401)
    }

    @Test func aKeyShrinksWithItsAccountAndStopsWithIt() throws {
        try fixture.elsewhere { _ = try $0.users().grant(user: "mari", catalog: "cookbook", role: .editor) }
        let writer = try key(
            #"{"name":"mari-writer","catalogs":["cookbook"],"actions":["read","write"]}"#, token: fixture.userToken)
        #expect(try fixture.request(.delete, "/api/v1/catalogs/cookbook/items/r01", token: writer).status == 204)
        // Demoted to viewer: the key may no longer write, though it has the action.
        try fixture.elsewhere { _ = try $0.users().grant(user: "mari", catalog: "cookbook", role: .viewer) }
        let demoted = try fixture.request(.delete, "/api/v1/catalogs/cookbook/items/r02", token: writer)
        #expect(demoted.status == 403)
        #expect(demoted.text.contains(#"you may not change catalog \"cookbook\""#), "\(demoted.text)")
        #expect(try fixture.request("/api/v1/catalogs/cookbook/items", token: writer).status == 200)
        // The account removed: its keys stop working.
        #expect(try fixture.elsewhere { try $0.users().removeUser(named: "mari") })
        #expect(try fixture.request("/api/v1/catalogs/cookbook/items", token: writer).status == 401)
    }

    /// A key's filter in the filter language, on a record field: every answer holds only the
    /// records it passes, the engine's search and the record-by-record reads alike.
    @Test func aKeyFilteredOnARecordFieldSeesOnlyItsRecords() throws {
        let facet = try fixture.request("/api/v1/catalogs/cookbook/facets/complexity", token: fixture.adminToken)
        let values = try #require(facet.object["values"] as? [[String: Any]])
        let value = try #require(values.first?["value"] as? String)
        let count = try #require(values.first?["count"] as? Int)
        let filter = "complexity = \"\(value)\" AND NOT complexity IS EMPTY"
        let body = try JSONSerialization.data(withJSONObject: [
            "name": "by-complexity", "catalogs": ["cookbook"], "actions": ["read", "search"], "filter": filter,
        ])
        let token = try key(String(decoding: body, as: UTF8.self))
        let stored = try #require(try fixture.elsewhere { try $0.users().key(named: "by-complexity") })
        #expect(stored.filter == (try FilterExpression(parsing: filter)).description, "kept in canonical form")

        let found = try fixture.request("/api/v1/catalogs/cookbook/search?q=&limit=100", token: token)
        #expect(found.status == 200, "\(found.text)")
        #expect(found.object["total"] as? Int == count)
        let ids = Set((found.object["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
        #expect(ids.count == count)
        // Browsing (a walk of the records, each tested on its own) sees the same records.
        let page = try fixture.request("/api/v1/catalogs/cookbook/items?limit=100", token: token)
        #expect(page.status == 200, "\(page.text)")
        #expect(Set((page.object["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }) == ids)
        #expect(
            (try fixture.request("/api/v1/catalogs/cookbook", token: token).object["count"] as? Int) == count)
        // Outside the filter a record does not exist; a facet counts the key's records only.
        let all = try fixture.request("/api/v1/catalogs/cookbook/search?q=&limit=100")
        let other = try #require(
            (all.object["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String }.first { !ids.contains($0) })
        #expect(try fixture.request("/api/v1/catalogs/cookbook/items/\(other)", token: token).status == 404)
        let narrowed = try fixture.request("/api/v1/catalogs/cookbook/facets/complexity", token: token)
        #expect((narrowed.object["values"] as? [[String: Any]])?.count == 1, "\(narrowed.text)")
        // A filter in neither form is refused, saying where.
        let bad = try make(
            #"{"name":"bad","catalogs":["cookbook"],"actions":["read"],"filter":"complexity >< 3"}"#,
            token: fixture.adminToken)
        #expect(bad.status == 400 && bad.text.contains("character"), "\(bad.text)")
    }

    @Test func aKeyWithAFilterSeesOnlyItsRecords() throws {
        let dealer = try key(
            #"{"name":"dealer-de","catalogs":["products"],"actions":["read","search"],"filter":"country = de"}"#)
        let stored = try #require(try fixture.elsewhere { try $0.users().key(named: "dealer-de") })
        #expect(stored.filter == "country = DE", "kept in canonical form")

        let all = try fixture.request(
            "/api/v1/catalogs/products/search?q=&limit=100&facets=country,categories", token: dealer)
        #expect(all.status == 200, "\(all.text)")
        #expect(all.object["total"] as? Int == 4)
        let items = try #require(all.object["items"] as? [[String: Any]])
        #expect(Set(items.compactMap { $0["id"] as? String }) == ["p001", "p016", "p028", "p031"])
        #expect(items.allSatisfy { $0["country"] as? String == "DE" })
        let facets = try #require(all.object["facets"] as? [String: [[String: Any]]])
        #expect(facets["country"]?.compactMap { $0["value"] as? String } == ["DE"])
        #expect((facets["categories"] ?? []).reduce(0) { $0 + ($1["count"] as? Int ?? 0) } >= 4)
        for scope in all.object["scopes"] as? [[String: Any]] ?? [] {
            #expect((scope["count"] as? Int ?? 0) <= 4, "\(scope)")
        }
        // A facet's value search counts the key's records only.
        let countries = try fixture.request("/api/v1/catalogs/products/facets/country?q=", token: dealer)
        #expect(countries.status == 200, "\(countries.text)")
        #expect((countries.object["values"] as? [[String: Any]])?.compactMap { $0["value"] as? String } == ["DE"])
        // Asking for more never widens it; asking for another country finds nothing.
        #expect(
            try fixture.request("/api/v1/catalogs/products/search?q=saw", token: dealer).object["total"] as? Int == 1)
        let sweden = try fixture.request("/api/v1/catalogs/products/search?q=&country=SE", token: dealer)
        #expect(sweden.status == 200 && sweden.object["total"] as? Int == 0, "\(sweden.text)")
        // Without the key the same search sees every country.
        #expect((try fixture.request("/api/v1/catalogs/products/search?q=&limit=100").object["total"] as? Int ?? 0) > 4)

        // A record by id: outside the filter it does not exist.
        #expect(try fixture.request("/api/v1/catalogs/products/items/p001", token: dealer).status == 200)
        let outside = try fixture.request("/api/v1/catalogs/products/items/p002", token: dealer)
        let missing = try fixture.request("/api/v1/catalogs/products/items/p999", token: dealer)
        #expect(outside.status == 404)
        #expect(outside.text == missing.text.replacingOccurrences(of: "p999", with: "p002"))
        // The offline snapshot holds the key's records only, browses and searches them, and is as
        // of the catalog's change number (the key's change feed goes on from there).
        let snapshot = try fixture.request("/api/v1/catalogs/products/snapshot", token: dealer)
        #expect(snapshot.status == 200, "\(snapshot.text)")
        guard case .file(let body) = snapshot.response.body else {
            Issue.record("the snapshot is no file")
            return
        }
        let file = try SQLiteCatalogFile(path: body.path)
        defer { file.close() }
        let offline = try file.reader.requireCatalog("products")
        #expect(offline.summary.count == 4)
        var offlineIDs: [String] = []
        try file.reader.forEachItem(of: offline) { offlineIDs.append($0.id) }
        #expect(Set(offlineIDs) == ["p001", "p016", "p028", "p031"])
        let source = try fixture.elsewhere { try $0.read { try $0.requireCatalog("products") } }
        #expect(offline.change == source.change)
        let searched = try file.reader.search(SearchRequest(query: "saw").checked(), in: offline)
        #expect(searched.hits.count == 1)
        // Asked again, the same version; the whole catalog's snapshot is another file.
        let again = try fixture.request(
            "/api/v1/catalogs/products/snapshot", headers: [("If-None-Match", snapshot.headers["ETag"] ?? "")],
            token: dealer)
        #expect(again.status == 304)
        let whole = try fixture.request("/api/v1/catalogs/products/snapshot")
        #expect(whole.status == 200)
        #expect(snapshot.headers["ETag"] != nil && snapshot.headers["ETag"] != whole.headers["ETag"])
    }

    /// The ids of the items of an answer.
    func ids(_ reply: ServerFixture.Reply) -> [String] {
        (reply.object["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
    }

    /// The records of the products catalog from Germany.
    static let german: Set<String> = ["p001", "p016", "p028", "p031"]

    @Test func aFilteredKeysBrowsingCountsAndListsOnlyItsRecords() throws {
        let dealer = try key(
            #"{"name":"dealer-de","catalogs":["products"],"actions":["read","search"],"filter":"country = DE"}"#)
        func get(_ path: String) throws -> ServerFixture.Reply {
            let reply = try fixture.request("/api/v1/catalogs/products" + path, token: dealer)
            #expect(reply.status == 200, "\(path): \(reply.text)")
            return reply
        }
        let whole = ids(try fixture.request("/api/v1/catalogs/products/items?limit=500"))
        let expected = whole.filter(Self.german.contains)
        #expect(expected.count == 4 && whole.count > 4)

        // The list in index order, a page of one at a time, and back.
        var listed: [String] = []
        var next: String?
        repeat {
            let page = try get("/items?limit=1" + (next.map { "&after=\($0)" } ?? ""))
            listed += ids(page)
            next = page.object["next"] as? String
        } while next != nil && listed.count <= expected.count
        #expect(listed == expected)
        let last = try get("/items?limit=2&after=" + (try get("/items?limit=2").object["next"] as? String ?? ""))
        #expect(ids(last) == Array(expected[2...]))
        let back = try get("/items?limit=2&before=" + (last.object["previous"] as? String ?? ""))
        #expect(ids(back) == Array(expected[..<2]))
        // By position, with the count of the list.
        let positioned = try get("/items?position=1&limit=2")
        #expect(positioned.object["count"] as? Int == 4)
        #expect(ids(positioned) == Array(expected[1...2]))

        // The outline, the sections, a section's items, the catalog's count agree with the list.
        let outline = try get("/outline")
        #expect(outline.object["count"] as? Int == 4)
        let sections = outline.object["sections"] as? [[String: Any]] ?? []
        #expect(sections.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == 4)
        let labels = sections.compactMap { $0["label"] as? String }
        let listedSections = try get("/sections").object["sections"] as? [[String: Any]] ?? []
        #expect(listedSections.compactMap { $0["label"] as? String } == labels)
        #expect(listedSections.compactMap { $0["count"] as? Int } == sections.compactMap { $0["count"] as? Int })
        for section in sections {
            let label = try #require(section["label"] as? String)
            let encoded = try #require(label.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            #expect(ids(try get("/items?limit=100&section=\(encoded)")).count == section["count"] as? Int)
        }
        #expect(try get("").object["count"] as? Int == 4)
        let catalogs = try fixture.request("/api/v1/catalogs", token: dealer).object["catalogs"] as? [[String: Any]]
        #expect(catalogs?.count == 1 && catalogs?.first?["count"] as? Int == 4)

        // Categories: those its records carry, counted as search's facets count them.
        let search = try get("/search?q=&limit=100&facets=categories")
        let facets = (search.object["facets"] as? [String: [[String: Any]]])?["categories"] ?? []
        let categories = try get("/categories").object["categories"] as? [[String: Any]] ?? []
        func counts(_ list: [[String: Any]], _ name: String) -> [String: Int] {
            Dictionary(list.map { ($0[name] as? String ?? "", $0["count"] as? Int ?? 0) }, uniquingKeysWith: +)
        }
        #expect(!categories.isEmpty)
        #expect(counts(categories, "name") == counts(facets, "value"))
        for category in categories {
            let name = try #require(category["name"] as? String)
            let encoded = try #require(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let items = ids(try get("/categories/\(encoded)/items?limit=100"))
            #expect(items.count == category["count"] as? Int && items.allSatisfy(Self.german.contains), "\(name)")
            #expect(try get("/categories/\(encoded)/outline").object["count"] as? Int == items.count)
        }
        // A category none of its records carries does not exist for the key.
        let every = try fixture.request("/api/v1/catalogs/products/categories").object["categories"] as? [[String: Any]]
        let shown = Set(categories.compactMap { $0["name"] as? String })
        if let hidden = every?.compactMap({ $0["name"] as? String }).first(where: { !shown.contains($0) }),
            let encoded = hidden.addingPercentEncoding(withAllowedCharacters: .alphanumerics)
        {
            let outside = try fixture.request("/api/v1/catalogs/products/categories/\(encoded)/items", token: dealer)
            let missing = try fixture.request("/api/v1/catalogs/products/categories/Nope/items", token: dealer)
            #expect(outside.status == 404 && missing.status == 404)
            #expect(outside.text == missing.text.replacingOccurrences(of: "Nope", with: hidden))
        }
        // Featured: the catalog's featured records it may see, in the same order.
        let featured = ids(try fixture.request("/api/v1/catalogs/products/featured?limit=50"))
        #expect(ids(try get("/featured?limit=50")) == featured.filter(Self.german.contains))
    }

    @Test func aFilteredKeysChangesHistoryAndImagesKeepToItsRecords() throws {
        let dealer = try key(
            #"{"name":"dealer-de","catalogs":["products"],"actions":["read","write"],"filter":"country = DE"}"#)
        let item = "/api/v1/catalogs/products/items/"
        // A key with a filter changes nothing: a change may reach records outside it.
        let refused = try fixture.request(
            .patch, item + "p001", headers: [("Content-Type", "application/merge-patch+json")],
            body: Array(#"{"title":"x"}"#.utf8), token: dealer)
        #expect(refused.status == 403 && refused.text.contains("record filter"), "\(refused.text)")
        let picture = StoredImageAPITests.picture(.jpeg)
        for id in ["p001", "p002"] {
            let stored = try fixture.request(
                .put, item + id + "/image", headers: [("Content-Type", "image/jpeg")], body: picture,
                token: fixture.adminToken)
            #expect(stored.status == 200, "\(stored.text)")
        }
        let images = try ["p001", "p002"].map { id in
            try #require(try fixture.request(item + id, token: fixture.adminToken).object["image"] as? String)
        }
        #expect(try fixture.request(images[0], token: dealer).status == 200)
        let hiddenImage = try fixture.request(images[1], token: dealer)
        #expect(hiddenImage.status == 404 && hiddenImage.text.contains("no such image"))
        #expect(try fixture.request(images[1]).status == 200, "the public catalog's image, without the key")
        let start = try #require(try fixture.request("/api/v1/catalogs/products/changes").object["change"] as? Int)

        // The administrator moves one record out of Germany, changes one outside it, adds one
        // and removes one inside it.
        func patch(_ id: String, _ body: String) throws {
            let reply = try fixture.request(
                .patch, item + id, headers: [("Content-Type", "application/merge-patch+json")],
                body: Array(body.utf8), token: fixture.adminToken)
            #expect(reply.status == 200, "\(reply.text)")
        }
        try patch("p001", #"{"country":"SE"}"#)
        try patch("p002", #"{"title":"Elsewhere"}"#)
        let added = try fixture.request(
            .put, item + "p900", headers: [("Content-Type", "application/json")],
            body: Array(#"{"id":"p900","title":"Neu","country":"DE"}"#.utf8), token: fixture.adminToken)
        #expect(added.status == 201 || added.status == 200, "\(added.text)")
        #expect(try fixture.request(.delete, item + "p016", token: fixture.adminToken).status == 204)

        let feed = try fixture.request("/api/v1/catalogs/products/changes?since=\(start)", token: dealer)
        #expect(feed.status == 200, "\(feed.text)")
        #expect(feed.object["change"] as? Int == start + 4)
        let changes = feed.object["changes"] as? [[String: Any]] ?? []
        #expect(changes.compactMap { $0["id"] as? String } == ["p001", "p900", "p016"])
        #expect(changes.compactMap { $0["kind"] as? String } == ["delete", "upsert", "delete"])
        #expect(changes.first?["record"] is NSNull && changes.first?["cursor"] is NSNull)
        #expect(!feed.text.contains("Elsewhere") && !feed.text.contains("\"SE\""))
        let whole = try fixture.request("/api/v1/catalogs/products/changes?since=\(start)", token: fixture.adminToken)
        #expect((whole.object["changes"] as? [[String: Any]])?.count == 4)

        // The record that left, and one outside, have no history for the key, as a missing one.
        let kept = try fixture.request(item + "p900/history", token: dealer)
        #expect(kept.status == 200 && (kept.object["items"] as? [Any])?.count == 1, "\(kept.text)")
        let missing = try fixture.request(item + "p999/history", token: dealer)
        for id in ["p001", "p002"] {
            let outside = try fixture.request(item + id + "/history", token: dealer)
            #expect(outside.status == missing.status && outside.text == missing.text, "\(id)")
            #expect(try fixture.request(item + id, token: dealer).status == 404)
        }
        // The image of the record that left is gone for the key.
        #expect(try fixture.request(images[0], token: dealer).status == 404)
    }

    @Test func aKeysUseIsRecordedWithItsAddress() throws {
        let reader = try key(#"{"name":"reader","catalogs":["*"],"actions":["read"]}"#)
        #expect(try fixture.elsewhere { try $0.users().key(named: "reader") }?.lastUsed == nil)
        var request = try #require(
            Request(method: .get, target: "/api/v1/catalogs/products/items?limit=1", headers: HTTPHeaders([])))
        request.headers["Authorization"] = "Bearer \(reader)"
        request.clientAddress = "198.51.100.4"
        #expect(try fixture.application.responder.respond(to: request, context: RequestContext()).status == .ok)
        let used = try #require(try fixture.elsewhere { try $0.users().key(named: "reader") })
        #expect(used.lastUsed?.hasSuffix("Z") == true)
        #expect(used.lastUsedFrom == "198.51.100.4")
    }

    /// Every JSON API route says what a key needs there: none falls to the default refusal.
    @Test func everyAPIRouteIsInTheKeyTable() {
        for (method, pattern) in fixture.application.router.routes where pattern.hasPrefix("/api/") {
            #expect(APIKeyRoutes.table[APIKeyRoutes.key(method, pattern)] != nil, "\(method) \(pattern)")
        }
    }

    /// The OpenAPI document names the action a key needs for each operation (`x-key-action`).
    @Test func openAPINamesEachOperationsKeyAction() throws {
        let paths = try #require(
            try fixture.request("/api/v1/openapi.json").object["paths"] as? [String: [String: Any]])
        for (method, pattern) in fixture.application.router.routes where pattern.hasPrefix("/api/") {
            guard let operation = paths[pattern]?[method.rawValue.lowercased()] as? [String: Any] else { continue }
            switch APIKeyRoutes.requirement(method, pattern) {
            case .key(let action, _, _):
                #expect(operation["x-key-action"] as? String == action.rawValue, "\(method) \(pattern)")
            case .open, .refused:
                #expect(operation["x-key-action"] == nil, "\(method) \(pattern)")
            }
        }
    }

    /// Over the wire, against a live server: a key's answers and refusals.
    @Test func overTheWire() throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        let server = HTTPServer(configuration: configuration, responder: fixture.application.responder, log: { _ in })
        try server.start()
        defer { server.shutdown() }
        let client = RawClient(port: server.port)
        let dealer = try key(
            #"{"name":"dealer","catalogs":["products"],"actions":["search"],"filter":"category = Garden and price <= 20"}"#
        )
        let found = try client.request(
            "GET", "/api/v1/catalogs/products/search?q=", headers: [("Authorization", "Bearer \(dealer)")])
        #expect(found.status == 200)
        let object = try JSONSerialization.jsonObject(with: Data(found.body)) as? [String: Any]
        let ids = (object?["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
        #expect(!ids.isEmpty)
        #expect(found.headers["cache-control"]?.contains("public") != true)
        let refused = try client.request(
            "GET", "/api/v1/catalogs/products/items/p001", headers: [("Authorization", "Bearer \(dealer)")])
        #expect(refused.status == 403)
        let unknown = try client.request(
            "GET", "/api/v1/catalogs/products/search?q=", headers: [("Authorization", "Bearer cak_not-a-key")])
        #expect(unknown.status == 401)
    }
}
