import CatalogHTTP
import CatalogCore
import CatalogModel
import CatalogStorage
import Foundation
import Testing

@testable import CatalogServer

@Suite struct FavoritesTests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    func favorites(_ token: String) throws -> [[String: Any]] {
        try #require(try fixture.request("/api/v1/favorites", token: token).object["favorites"] as? [[String: Any]])
    }

    @Test func addListRemoveIdempotently() throws {
        #expect(try fixture.request(.put, "/api/v1/favorites/cookbook/r01", token: fixture.userToken).status == 204)
        #expect(try fixture.request(.put, "/api/v1/favorites/cookbook/r01", token: fixture.userToken).status == 204)
        #expect(try fixture.request(.put, "/api/v1/favorites/products/p001", token: fixture.userToken).status == 204)
        let list = try favorites(fixture.userToken)
        #expect(list.map { $0["item"] as? String } == ["p001", "r01"])
        #expect((list.last?["record"] as? [String: Any])?["title"] as? String == "Csirkepaprikás")
        #expect(try favorites(fixture.otherToken).isEmpty)
        #expect(try fixture.request(.delete, "/api/v1/favorites/cookbook/r01", token: fixture.userToken).status == 204)
        #expect(try fixture.request(.delete, "/api/v1/favorites/cookbook/r01", token: fixture.userToken).status == 204)
        #expect(try favorites(fixture.userToken).map { $0["item"] as? String } == ["p001"])
    }

    @Test func unknownItemsCannotBeFavorites() throws {
        let reply = try fixture.request(.put, "/api/v1/favorites/cookbook/nope", token: fixture.userToken)
        #expect(reply.status == 404)
        #expect(try fixture.request(.put, "/api/v1/favorites/nope/r01", token: fixture.userToken).status == 404)
    }

    @Test(arguments: [
        nil, "Bearer", "Bearer ", "Bearer ctk_x", "Basic YWRtaW46YWRtaW4=", "Bearer ctk_' OR 1=1 --",
        "Bearer " + String(repeating: "A", count: 5000),
        "bearer ctk_AAAAAAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB",
    ])
    func badCredentialsAre401(_ header: String?) throws {
        let headers = header.map { [("Authorization", $0)] } ?? []
        let reply = try fixture.request("/api/v1/favorites", headers: headers)
        #expect(reply.status == 401)
        #expect(reply.response.headers["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
    }
}

@Suite struct ImportAPITests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    let csv = Array("id,title,price\nx1,Élesztő,3.5\nx2,Zabpehely,2\n".utf8)

    @Test func adminsImport() throws {
        let reply = try fixture.request(
            .post, "/api/v1/catalogs/pantry/import?locale=hu&title=Kamra", headers: [("Content-Type", "text/csv")],
            body: csv, token: fixture.adminToken)
        #expect(reply.status == 200)
        #expect(reply.object["added"] as? Int == 2)
        let items = try #require(
            try fixture.request("/api/v1/catalogs/pantry/items").object["items"] as? [[String: Any]])
        #expect(items.map { $0["id"] as? String } == ["x1", "x2"])
    }

    /// Each request reads in a snapshot of its own: another process's write shows at the next one.
    @Test func writesFromOtherProcessesShowAtTheNextRequest() throws {
        #expect(try fixture.request("/api/v1/catalogs/outside").status == 404)
        try fixture.importElsewhere(
            CatalogDefinition(id: "outside", title: "Outside", locale: "en"), [Record(id: "1", title: "One")])
        #expect(try fixture.request("/api/v1/catalogs/outside").status == 200)
    }

    @Test func cachedAnswersFollowImports() throws {
        let before = try fixture.request("/api/v1/catalogs/pantry/items")
        #expect(before.status == 404)
        #expect(
            try fixture.request(
                .post, "/api/v1/catalogs/pantry/import", headers: [("Content-Type", "text/csv")], body: csv,
                token: fixture.adminToken
            ).status == 200)
        let first = try fixture.request("/api/v1/catalogs/pantry/items")
        #expect((first.object["items"] as? [Any])?.count == 2)
        #expect(try fixture.request("/api/v1/catalogs/pantry/items").body == first.body)
        let more = Array("id,title\nx3,Árpa\n".utf8)
        #expect(
            try fixture.request(
                .post, "/api/v1/catalogs/pantry/import", headers: [("Content-Type", "text/csv")], body: more,
                token: fixture.adminToken
            ).status == 200)
        #expect((try fixture.request("/api/v1/catalogs/pantry/items").object["items"] as? [Any])?.count == 3)
        // A change by another process shows at the next request: every request reads anew.
        let pantry = try #require(
            try fixture.elsewhere { database in try database.read { try $0.catalog("pantry")?.definition } })
        try fixture.importElsewhere(pantry, [Record(id: "only", title: "Only")])
        #expect((try fixture.request("/api/v1/catalogs/pantry/items").object["items"] as? [Any])?.count == 1)
    }

    @Test func othersMayNot() throws {
        #expect(try fixture.request(.post, "/api/v1/catalogs/cookbook/import", body: csv).status == 401)
        let reply = try fixture.request(
            .post, "/api/v1/catalogs/cookbook/import", headers: [("Content-Type", "text/csv")], body: csv,
            token: fixture.userToken)
        #expect(reply.status == 403)
        // Only administrators make catalogs: to anyone else a new one is not found.
        let new = try fixture.request(
            .post, "/api/v1/catalogs/pantry/import", headers: [("Content-Type", "text/csv")], body: csv,
            token: fixture.userToken)
        #expect(new.status == 404)
    }

    @Test func malformedFilesChangeNothing() throws {
        let before = try fixture.request("/api/v1/catalogs/sequencers/items?limit=500").text
        let broken = Array("<sequenzer><Produkt><TitelText>Neu</TitelText></Produkt><Produkt><TitelText>x</Titel".utf8)
        let reply = try fixture.request(
            .post, "/api/v1/catalogs/sequencers/import?replace=true", headers: [("Content-Type", "application/xml")],
            body: broken, token: fixture.adminToken)
        #expect(reply.status == 422)
        let message = (reply.object["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message.contains("upload:1:"))
        #expect(try fixture.request("/api/v1/catalogs/sequencers/items?limit=500").text == before)
    }

    @Test func entityBombsAreRefused() throws {
        let bomb = Array(
            """
            <?xml version="1.0"?>
            <!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>
            <r><item><title>&c;</title></item></r>
            """.utf8)
        let reply = try fixture.request(
            .post, "/api/v1/catalogs/bomb/import?format=xml", body: bomb, token: fixture.adminToken)
        #expect(reply.status == 422)
        #expect(try fixture.request("/api/v1/catalogs/bomb").status == 404)
    }

    @Test(arguments: [
        ("/api/v1/catalogs/pantry/import", "application/pdf", 415),
        ("/api/v1/catalogs/pantry/import?format=doc", "", 400),
        ("/api/v1/catalogs/bad%20id/import?format=csv", "", 400),
        ("/api/v1/catalogs/pantry/import?format=csv&replace=maybe", "", 400),
    ])
    func badUploads(_ target: String, _ contentType: String, _ status: Int) throws {
        let headers = contentType.isEmpty ? [] : [("Content-Type", contentType)]
        let reply = try fixture.request(.post, target, headers: headers, body: csv, token: fixture.adminToken)
        #expect(reply.status == status)
    }
}
