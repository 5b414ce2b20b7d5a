import CatalogHTTP
import CatalogStorage
import Foundation
import Testing

@testable import CatalogServer

/// `…/catalogs/{id}/members`: owners and administrators give and take roles in their catalog.
@Suite struct MembersAPITests {
    let fixture: ServerFixture

    init() throws {
        fixture = try ServerFixture()
    }

    func put(_ target: String, _ body: String, token: String?) throws -> ServerFixture.Reply {
        try fixture.request(
            .put, target, headers: [("Content-Type", "application/json")], body: Array(body.utf8), token: token)
    }

    @Test func anAdministratorGivesChangesListsAndTakesRoles() throws {
        let admin = fixture.adminToken
        let given = try put("/api/v1/catalogs/cookbook/members/MARI", #"{"role":"editor"}"#, token: admin)
        #expect(given.status == 200, "\(given.text)")
        #expect(given.text == #"{"role":"editor","user":"mari"}"#, "the name as the account spells it")
        #expect(given.response.headers["Cache-Control"] == "private, no-store")
        #expect(try put("/api/v1/catalogs/cookbook/members/jozsi", #"{"role":"owner"}"#, token: admin).status == 200)
        #expect(try put("/api/v1/catalogs/cookbook/members/mari", #"{"role":"viewer"}"#, token: admin).status == 200)

        let list = try fixture.request("/api/v1/catalogs/cookbook/members", token: admin)
        #expect(list.status == 200)
        #expect(list.text == #"{"members":[{"role":"owner","user":"jozsi"},{"role":"viewer","user":"mari"}]}"#)
        #expect(list.response.headers["Vary"] == "Authorization")
        #expect(
            try fixture.request("/api/v1/catalogs/cookbook/members/mari", token: admin).text
                == #"{"role":"viewer","user":"mari"}"#)
        #expect(try fixture.request("/api/v1/catalogs/products/members", token: admin).text == #"{"members":[]}"#)

        #expect(try fixture.request(.delete, "/api/v1/catalogs/cookbook/members/mari", token: admin).status == 204)
        #expect(try fixture.request(.delete, "/api/v1/catalogs/cookbook/members/mari", token: admin).status == 204)
        let gone = try fixture.request("/api/v1/catalogs/cookbook/members/mari", token: admin)
        #expect(gone.status == 404)
        #expect(gone.text.contains(#""mari\" has no role in catalog \"cookbook\""#), "\(gone.text)")
        #expect(
            try fixture.elsewhere { try $0.users().members(ofCatalog: "cookbook") } == [
                CatalogMember(user: "jozsi", role: .owner)
            ])
    }

    @Test func anOwnerManagesTheirCatalogOnlyAndOthersAreRefused() throws {
        try fixture.elsewhere { _ = try $0.users().grant(user: "jozsi", catalog: "cookbook", role: .owner) }
        try fixture.elsewhere { _ = try $0.users().grant(user: "mari", catalog: "products", role: .editor) }
        let owner = fixture.otherToken
        #expect(try put("/api/v1/catalogs/cookbook/members/mari", #"{"role":"editor"}"#, token: owner).status == 200)
        #expect(try fixture.request("/api/v1/catalogs/cookbook/members", token: owner).status == 200)
        let elsewhere = try put("/api/v1/catalogs/products/members/jozsi", #"{"role":"owner"}"#, token: owner)
        #expect(elsewhere.status == 403)
        #expect(elsewhere.errorCode == "forbidden")
        #expect(
            elsewhere.text.contains(#"you may not manage catalog \"products\": only its owners and administrators may"#)
        )

        // An editor changes records, not members: not even their own role.
        let editor = fixture.userToken
        #expect(try put("/api/v1/catalogs/cookbook/members/mari", #"{"role":"owner"}"#, token: editor).status == 403)
        #expect(try fixture.request("/api/v1/catalogs/cookbook/members", token: editor).status == 403)
        #expect(try fixture.request(.delete, "/api/v1/catalogs/cookbook/members/jozsi", token: editor).status == 403)
        #expect(try fixture.request("/api/v1/catalogs/cookbook/members").status == 401)
        // A catalog that does not exist is not found, as one the user may not see is.
        #expect(try fixture.request("/api/v1/catalogs/no-such/members", token: editor).status == 404)

        // The owner takes their own role away, and no longer manages the catalog.
        #expect(try fixture.request(.delete, "/api/v1/catalogs/cookbook/members/jozsi", token: owner).status == 204)
        #expect(try fixture.request("/api/v1/catalogs/cookbook/members", token: owner).status == 403)
        let jozsi = try #require(try fixture.elsewhere { try $0.users().user(named: "jozsi") })
        #expect(try fixture.elsewhere { try $0.users().roles(ofUser: jozsi.id) }.isEmpty)
    }

    @Test func mistakesAreAnswered() throws {
        let admin = fixture.adminToken
        let cases: [(HTTPMethod, String, String, Int, String)] = [
            (
                .put, "/api/v1/catalogs/cookbook/members/mari", #"{"role":"boss"}"#, 400,
                #"unknown role \"boss\"; roles: viewer, editor, owner"#
            ),
            (.put, "/api/v1/catalogs/cookbook/members/mari", #"{"rank":"owner"}"#, 400, "not the expected JSON"),
            (.put, "/api/v1/catalogs/cookbook/members/mari", "", 400, "not the expected JSON"),
            (.put, "/api/v1/catalogs/cookbook/members/nobody", #"{"role":"owner"}"#, 404, #"no user named \"nobody\""#),
            (
                .put, "/api/v1/catalogs/no-such/members/mari", #"{"role":"owner"}"#, 404,
                #"no catalog named \"no-such\""#
            ),
            (.get, "/api/v1/catalogs/no-such/members", "", 404, #"no catalog named \"no-such\""#),
            (.get, "/api/v1/catalogs/cookbook/members/nobody", "", 404, #"no user named \"nobody\""#),
            (.delete, "/api/v1/catalogs/cookbook/members/nobody", "", 404, #"no user named \"nobody\""#),
        ]
        for (method, target, body, status, message) in cases {
            let reply = try fixture.request(
                method, target, headers: [("Content-Type", "application/json")], body: Array(body.utf8), token: admin)
            #expect(reply.status == status, "\(method) \(target) \(body): \(reply.text)")
            #expect(reply.text.contains(message), "\(method) \(target) \(body): \(reply.text)")
        }
        let text = try fixture.request(
            .put, "/api/v1/catalogs/cookbook/members/mari", headers: [("Content-Type", "text/plain")],
            body: Array(#"{"role":"owner"}"#.utf8), token: admin)
        #expect(text.status == 415)
        #expect(try fixture.elsewhere { try $0.users().members(ofCatalog: "cookbook") }.isEmpty)
    }
}
