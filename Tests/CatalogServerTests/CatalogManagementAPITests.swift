import CatalogHTTP
import CatalogTestSupport
import Foundation
import Testing

@testable import CatalogServer

/// `POST /api/v1/catalogs`, `PATCH` and `DELETE /api/v1/catalogs/{id}` against a live server
/// configured as `catalog serve` configures it (the routes on the import lane).
@Suite struct CatalogManagementAPITests {
    let fixture: ServerFixture
    let server: HTTPServer
    let client: RawClient

    init() throws {
        fixture = try ServerFixture()
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        fixture.application.configure(&configuration)
        server = HTTPServer(configuration: configuration, responder: fixture.application.responder, log: { _ in })
        try server.start()
        client = RawClient(port: server.port)
    }

    struct Answer {
        var reply: RawClient.Reply
        var status: Int { reply.status }
        var object: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(reply.body))) as? [String: Any] ?? [:]
        }
        var errorCode: String? { (object["error"] as? [String: Any])?["code"] as? String }
        /// The pointers of a 422's problems, in order.
        var pointers: [String] {
            ((object["error"] as? [String: Any])?["problems"] as? [[String: Any]] ?? []).compactMap {
                $0["pointer"] as? String
            }
        }
    }

    func send(
        _ method: String, _ target: String, json: String? = nil, type: String = "application/json",
        token: String? = nil, headers: [(String, String)] = []
    ) throws -> Answer {
        var all = headers
        if let token = token ?? (method == "GET" ? nil : fixture.adminToken) {
            all.append(("Authorization", "Bearer \(token)"))
        }
        if json != nil { all.append(("Content-Type", type)) }
        return Answer(reply: try client.request(method, target, headers: all, body: Array((json ?? "").utf8)))
    }

    func sections(_ id: String) throws -> [String: String] {
        let items = try send("GET", "/api/v1/catalogs/\(id)/items").object["items"] as? [[String: Any]] ?? []
        return Dictionary(
            uniqueKeysWithValues: items.compactMap { item in
                (item["title"] as? String).map { ($0, item["section"] as? String ?? "") }
            })
    }

    /// Create → get → change the title → change the locale (de → hu moves Csirkepaprikás into
    /// CS) → delete → gone.
    @Test func aCatalogIsCreatedChangedAndDeleted() throws {
        let created = try send(
            "POST", "/api/v1/catalogs",
            json: #"{"id":"kitchen","title":"Küche","locale":"de","roles":{"title":"name"},"#
                + #""labels":{"weight":{"de":"Gewicht"}}}"#)
        #expect(created.status == 201, "\(created.reply.text)")
        #expect(created.reply.headers["location"] == "/api/v1/catalogs/kitchen")
        #expect(created.object["count"] as? Int == 0)
        #expect(created.object["roles"] as? [String: String] == ["title": "name"])
        let createdTag = try #require(created.reply.headers["etag"])

        let read = try send("GET", "/api/v1/catalogs/kitchen")
        #expect(read.status == 200)
        #expect(read.reply.headers["etag"] == createdTag)
        #expect(read.object["locale"] as? String == "de")
        #expect(read.object["labels"] as? [String: [String: String]] == ["weight": ["de": "Gewicht"]])

        let upload = try send(
            "POST", "/api/v1/catalogs/kitchen/import?format=csv",
            json: "id,name,weight\nk1,Csirkepaprikás,130\nk2,Cukor,1000\nk3,Gyümölcs,250\n", type: "text/csv")
        #expect(upload.status == 200, "\(upload.reply.text)")
        #expect(try sections("kitchen") == ["Csirkepaprikás": "C", "Cukor": "C", "Gyümölcs": "G"])
        let imported = try #require(try send("GET", "/api/v1/catalogs/kitchen").reply.headers["etag"])
        #expect(imported != createdTag, "an import is a new revision")

        let retitled = try send(
            "PATCH", "/api/v1/catalogs/kitchen", json: #"{"title":"Konyha"}"#, type: "application/merge-patch+json",
            headers: [("If-Match", imported)])
        #expect(retitled.status == 200, "\(retitled.reply.text)")
        #expect(retitled.object["title"] as? String == "Konyha")
        #expect(retitled.object["count"] as? Int == 3)
        let retitledTag = try #require(retitled.reply.headers["etag"])
        #expect(retitledTag != imported)
        #expect(try send("GET", "/api/v1/catalogs/kitchen").reply.headers["etag"] == retitledTag)

        // The first tag is stale now: nothing changes.
        let stale = try send(
            "PATCH", "/api/v1/catalogs/kitchen", json: #"{"locale":"hu"}"#, headers: [("If-Match", imported)])
        #expect(stale.status == 412)
        #expect(stale.errorCode == "precondition_failed")
        #expect(try send("GET", "/api/v1/catalogs/kitchen").object["locale"] as? String == "de")

        let relocalized = try send(
            "PATCH", "/api/v1/catalogs/kitchen", json: #"{"locale":"hu"}"#, type: "application/merge-patch+json",
            headers: [("If-Match", "\"other\", " + retitledTag)])
        #expect(relocalized.status == 200, "\(relocalized.reply.text)")
        #expect(relocalized.object["locale"] as? String == "hu")
        #expect((relocalized.object["sections"] as? [String])?.contains("CS") == true)
        #expect(try sections("kitchen") == ["Csirkepaprikás": "CS", "Cukor": "C", "Gyümölcs": "GY"])
        let outline = try send("GET", "/api/v1/catalogs/kitchen/sections").object["sections"] as? [[String: Any]]
        #expect(outline?.compactMap { $0["label"] as? String } == ["C", "CS", "GY"])

        // A snapshot made before the deletion goes with it.
        #expect(try send("GET", "/api/v1/catalogs/kitchen/snapshot").status == 200)
        let snapshots = SnapshotAPI.directory(configured: nil, databaseLocation: fixture.path)
        let files = {
            try FileManager.default.contentsOfDirectory(atPath: snapshots.path).filter { $0.hasPrefix("kitchen.") }
        }
        #expect(try files().count == 1)

        let deleted = try send("DELETE", "/api/v1/catalogs/kitchen")
        #expect(deleted.status == 204)
        #expect(try send("GET", "/api/v1/catalogs/kitchen").status == 404)
        #expect(try send("GET", "/api/v1/catalogs/kitchen/items").status == 404)
        #expect(try files().isEmpty)
        #expect(try send("DELETE", "/api/v1/catalogs/kitchen").status == 404)
        #expect(try send("PATCH", "/api/v1/catalogs/kitchen", json: "{}").status == 404)
    }

    @Test func takenIdsAreConflicts() throws {
        let taken = try send("POST", "/api/v1/catalogs", json: #"{"id":"cookbook","title":"Mine"}"#)
        #expect(taken.status == 409)
        #expect(taken.errorCode == "conflict")
        #expect(try send("GET", "/api/v1/catalogs/cookbook").object["title"] as? String == "Szakácskönyv")
    }

    /// A 422 lists every bad member at its JSON pointer, and nothing is created or changed.
    @Test func problemsAreListedWithTheirPointers() throws {
        let bad = try send(
            "POST", "/api/v1/catalogs",
            json: #"{"id":"fresh","locale":"xx","roles":{"colour":"x"},"fields":["a","a"],"#
                + #""labels":{"price":{"zz":"P"}},"rowTint":"blue","extra":1}"#)
        #expect(bad.status == 422, "\(bad.reply.text)")
        #expect(bad.errorCode == "invalid_catalog")
        #expect(
            Set(bad.pointers) == ["/extra", "/roles/colour", "/rowTint", "/locale", "/fields/1", "/labels/price/zz"])
        let values = try send(
            "POST", "/api/v1/catalogs",
            json: #"{"id":"fresh","locale":"xx","fields":["a","a"],"labels":{"price":{"zz":"P"}}}"#)
        #expect(values.status == 422)
        #expect(values.pointers == ["/locale", "/fields/1", "/labels/price/zz"])
        let problems = (values.object["error"] as? [String: Any])?["problems"] as? [[String: Any]]
        #expect((problems?.first?["message"] as? String)?.hasPrefix("Unknown locale \"xx\"") == true)
        #expect(try send("GET", "/api/v1/catalogs/fresh").status == 404)

        let before = try #require(try send("GET", "/api/v1/catalogs/cookbook").reply.headers["etag"])
        let patch = try send(
            "PATCH", "/api/v1/catalogs/cookbook", json: #"{"id":"other","count":1,"locale":"tlh","title":null}"#)
        #expect(patch.status == 422)
        #expect(Set(patch.pointers) == ["/id", "/count", "/locale", "/title"])
        #expect(try send("GET", "/api/v1/catalogs/cookbook").reply.headers["etag"] == before)

        // Records the new mapping cannot read refuse it, naming the member.
        let remap = try send("PATCH", "/api/v1/catalogs/cookbook", json: #"{"types":{"complexity":"number"}}"#)
        #expect(remap.status == 422, "\(remap.reply.text)")
        #expect(remap.pointers == ["/types/complexity"])

        #expect(try send("PATCH", "/api/v1/catalogs/cookbook", json: "{\"title\":").status == 400)
        #expect(try send("PATCH", "/api/v1/catalogs/cookbook", json: "{}", type: "text/plain").status == 415)
        #expect(try send("POST", "/api/v1/catalogs", json: "{}", type: "application/xml").status == 415)
        #expect(try send("GET", "/api/v1/catalogs/cookbook").reply.headers["etag"] == before)
    }

    @Test func onlyAdministratorsManageCatalogs() throws {
        let user = fixture.userToken
        let attempts = [
            try send("POST", "/api/v1/catalogs", json: #"{"id":"mine"}"#, token: user),
            try send("PATCH", "/api/v1/catalogs/cookbook", json: #"{"title":"Mine"}"#, token: user),
            try send("DELETE", "/api/v1/catalogs/cookbook", token: user),
        ]
        #expect(attempts.map(\.status) == [403, 403, 403])
        let anonymous = try client.request("DELETE", "/api/v1/catalogs/cookbook")
        #expect(anonymous.status == 401)
        #expect(try send("GET", "/api/v1/catalogs/cookbook").status == 200)
        #expect(try send("GET", "/api/v1/catalogs/mine").status == 404)
    }

    /// A browser app may send the changes: preflights allow the methods and `If-Match`, and
    /// answers expose `ETag` and `Location`.
    @Test func crossOriginClientsMayManageCatalogs() throws {
        let preflight = try fixture.request(
            .options, "/api/v1/catalogs/cookbook",
            headers: [("Origin", "https://admin.example"), ("Access-Control-Request-Method", "PATCH")])
        #expect(preflight.status == 204)
        let methods = preflight.response.headers["Access-Control-Allow-Methods"] ?? ""
        #expect(methods.contains("PATCH") && methods.contains("DELETE") && methods.contains("GET"))
        #expect(preflight.response.headers["Access-Control-Allow-Headers"]?.contains("If-Match") == true)
        let created = try send("POST", "/api/v1/catalogs", json: #"{"id":"cors"}"#)
        #expect(created.reply.headers["access-control-expose-headers"]?.contains("Location") == true)
    }

    /// What GET shows can be posted as a new catalog: its roles, types and labels come along.
    @Test func aCatalogReadWithGETCanBePostedAsANewOne() throws {
        let original = try send("GET", "/api/v1/catalogs/cookbook")
        var document = original.object
        document["id"] = "cookbook-copy"
        let body = String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
        let copy = try send("POST", "/api/v1/catalogs", json: body)
        #expect(copy.status == 201, "\(copy.reply.text)")
        for key in [
            "title", "locale", "fields", "roles", "types", "labels", "scopeDefinitions", "flatList", "sections",
        ] {
            #expect(
                (copy.object[key] as? NSObject) == (original.object[key] as? NSObject)
                    || (copy.object[key] is NSNull && original.object[key] is NSNull), "\(key)")
        }
        #expect(copy.object["count"] as? Int == 0)
    }
}

/// In process: a deleted catalog's thumbnails are forgotten.
@Suite struct CatalogDeletionCacheTests {
    @Test func thumbnailsOfADeletedCatalogsImagesAreForgotten() throws {
        let fixture = try ServerFixture()
        try FileManager.default.createDirectory(
            at: fixture.images.appendingPathComponent("shop"), withIntermediateDirectories: true)
        try Data(base64Encoded: ImageTests.png)!.write(to: fixture.images.appendingPathComponent("shop/red.png"))
        let csv = Array("id,title,image\ns1,Red,/images/shop/red.png\n".utf8)
        let upload = try fixture.request(
            .post, "/api/v1/catalogs/shop/import?locale=en", headers: [("Content-Type", "text/csv")], body: csv,
            token: fixture.adminToken)
        #expect(upload.status == 200)
        #expect(try fixture.request("/images/shop/red.png?size=32").status == 200)
        #expect(fixture.application.thumbnails.count == 1)
        let deleted = try fixture.request(.delete, "/api/v1/catalogs/shop", token: fixture.adminToken)
        #expect(deleted.status == 204)
        #expect(fixture.application.thumbnails.count == 0)
    }
}
