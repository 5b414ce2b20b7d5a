import CatalogAuth
import CatalogCore
import CatalogHTTP
import CatalogStorage
import Foundation
import Testing

@testable import CatalogServer

/// The web app's record editor and what its pages carry for live updates: who sees the editor,
/// what a save through the web session is (the API's `PUT` for the session's user, with its CSRF
/// token), that the API still takes bearer tokens only, and the rows a list asks for after a
/// change.
@Suite struct WebEditorTests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    /// A web session of `name`: its cookie header and the CSRF token its pages carry.
    func session(_ name: String) throws -> (cookie: String, csrf: String) {
        let cookie = try fixture.elsewhere { database in
            let users = try database.users()
            let user = try #require(try users.user(named: name))
            return try Authenticator().startSession(for: user, in: users)
        }
        let header = "\(WebSession.sessionCookie)=\(cookie)"
        let page = try fixture.request("/c/cookbook", headers: [("Cookie", header)]).text
        let csrf = try #require(page.firstMatch(of: /data-csrf="([^"]+)"/)?.1)
        return (header, String(csrf))
    }

    func grantMari(_ role: CatalogRole = .editor) throws {
        _ = try fixture.elsewhere { try $0.users().grant(user: "mari", catalog: "cookbook", role: role) }
    }

    func record(_ id: String) throws -> [String: Any] {
        try fixture.request("/api/v1/catalogs/cookbook/items/\(id)").object
    }

    func etag(_ id: String) throws -> String {
        try #require(try fixture.request("/api/v1/catalogs/cookbook/items/\(id)").headers["ETag"])
    }

    func put(
        _ id: String, _ body: String, session: (cookie: String, csrf: String)?, csrf: String? = nil,
        headers: [(String, String)] = []
    ) throws -> ServerFixture.Reply {
        var all = [("Content-Type", "application/json"), ("Accept", "application/json")] + headers
        if let session {
            all.append(("Cookie", session.cookie))
            all.append((WebSession.csrfHeader, csrf ?? session.csrf))
        }
        return try fixture.request(.put, "/c/cookbook/i/\(id)", headers: all, body: Array(body.utf8))
    }

    @Test func onlyEditorsSeeTheEditorAndTheLinksToIt() throws {
        let anonymous = try fixture.request("/c/cookbook/i/r01").text
        #expect(!anonymous.contains("id=\"edit-link\""))
        let away = try fixture.request("/c/cookbook/i/r01/edit")
        #expect(away.status == 303)
        #expect(away.headers["Location"] == "/signin?next=%2Fc%2Fcookbook%2Fi%2Fr01%2Fedit")
        let mari = try session("mari")
        #expect(
            !(try fixture.request("/c/cookbook/i/r01", headers: [("Cookie", mari.cookie)]).text).contains("edit-link"))
        #expect(try fixture.request("/c/cookbook/i/r01/edit", headers: [("Cookie", mari.cookie)]).status == 403)
        #expect(try fixture.request("/c/cookbook/new", headers: [("Cookie", mari.cookie)]).status == 403)
        try grantMari()
        let detail = try fixture.request("/c/cookbook/i/r01", headers: [("Cookie", mari.cookie)]).text
        #expect(detail.contains("href=\"/c/cookbook/i/r01/edit\""))
        #expect(
            try fixture.request("/c/cookbook", headers: [("Cookie", mari.cookie)]).text.contains("id=\"new-record\""))
        #expect(!(try fixture.request("/c/products", headers: [("Cookie", mari.cookie)]).text).contains("new-record"))
        let editor = try fixture.request("/c/cookbook/i/r01/edit", headers: [("Cookie", mari.cookie)])
        #expect(editor.status == 200)
        #expect(editor.headers["Cache-Control"] == "private, no-store")
        let page = editor.text
        // The record's ETag for If-Match, its fields under the catalog's labels (Hungarian), the
        // stored JSON for Undo, and every control names the pointer its problems come at.
        #expect(page.contains("data-etag=\"\(try etag("r01").replacingOccurrences(of: "\"", with: "&quot;"))\""))
        #expect(page.contains("<html lang=\"hu\">"))
        #expect(page.contains("data-pointer=\"/title\""))
        #expect(page.contains("data-pointer=\"/price\""))
        #expect(page.contains("id=\"f-country\""))
        #expect(page.contains("<script type=\"application/json\">"))
        #expect(page.contains(WebStrings.forLocale("hu")[.save]))
        let new = try fixture.request("/c/cookbook/new", headers: [("Cookie", mari.cookie)]).text
        #expect(new.contains("id=\"f-id\""))
        #expect(!new.contains("data-etag"))
    }

    @Test func aSaveIsTheAPIsPutForTheSessionsUser() throws {
        try grantMari()
        let mari = try session("mari")
        var body = try record("r01")
        body["title"] = "Gulyásleves (új)"
        let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        let saved = try put("r01", json, session: mari, headers: [("If-Match", try etag("r01"))])
        #expect(saved.status == 200)
        #expect(saved.headers["ETag"] == (try etag("r01")))
        #expect(try record("r01")["title"] as? String == "Gulyásleves (új)")
        // The change log names the session's user.
        let history = try fixture.request("/api/v1/catalogs/cookbook/items/r01/history", token: fixture.adminToken)
        let entries = history.object["items"] as? [[String: Any]] ?? []
        #expect(entries.first?["actor"] as? String == "mari")

        // A stale ETag: 412 as JSON, with the current ETag for Overwrite.
        let stale = try put("r01", json, session: mari, headers: [("If-Match", "\"0\"")])
        #expect(stale.status == 412)
        #expect(stale.headers["ETag"] == (try etag("r01")))
        #expect(stale.errorCode == "precondition_failed")
        // Bad values: 422 with each problem at its pointer, in the catalog's language.
        body["price"] = -5
        body["title"] = " "
        let bad = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        let invalid = try put("r01", bad, session: mari)
        #expect(invalid.status == 422)
        let problems = (invalid.object["error"] as? [String: Any])?["problems"] as? [[String: String]] ?? []
        let hungarian = WebStrings.forLocale("hu")
        #expect(Set(problems.compactMap { $0["pointer"] }) == ["/price", "/title"])
        #expect(problems.contains { $0["pointer"] == "/price" && $0["message"] == hungarian[.problemPrice] })
        #expect(problems.contains { $0["pointer"] == "/title" && $0["message"] == hungarian[.problemTitle] })
    }

    @Test func aChangeNeedsTheSessionsTokenAndAnEditor() throws {
        let mari = try session("mari")
        let json = String(decoding: try JSONSerialization.data(withJSONObject: try record("r02")), as: UTF8.self)
        #expect(try put("r02", json, session: nil).status == 401)
        #expect(try put("r02", json, session: mari).status == 403)
        try grantMari()
        #expect(try put("r02", json, session: mari, csrf: "not-the-token").status == 403)
        #expect(try put("r02", json, session: mari, headers: [("Origin", "https://elsewhere.example")]).status == 403)
        #expect(try put("r02", json, session: mari).status == 200)
        // The API takes bearer tokens only: the web session does not count there.
        let api = try fixture.request(
            .put, "/api/v1/catalogs/cookbook/items/r02",
            headers: [
                ("Content-Type", "application/json"), ("Cookie", mari.cookie), (WebSession.csrfHeader, mari.csrf),
            ], body: Array(json.utf8))
        #expect(api.status == 401)
    }

    @Test func deleteThenUndoPutsTheRecordBackAsItWas() throws {
        try grantMari()
        let mari = try session("mari")
        let stored = try #require(try fixture.request("/api/v1/catalogs/cookbook/items/r03").response.bytes)
        let before = try etag("r03")
        let deleted = try fixture.request(
            .delete, "/c/cookbook/i/r03",
            headers: [
                ("Accept", "application/json"), ("Cookie", mari.cookie), (WebSession.csrfHeader, mari.csrf),
                ("If-Match", before),
            ])
        #expect(deleted.status == 204)
        #expect(try fixture.request("/api/v1/catalogs/cookbook/items/r03").status == 404)
        let undone = try put(
            "r03", String(decoding: stored, as: UTF8.self), session: mari, headers: [("If-None-Match", "*")])
        #expect(undone.status == 201)
        #expect(try etag("r03") == before)
    }

    @Test func pagesCarryTheirChangeNumberAndRowsComeAroundACursor() throws {
        let change = try #require(try fixture.request("/api/v1/catalogs/products/items/p001").headers["Catalog-Change"])
        #expect(try fixture.request("/c/products").text.contains("data-change=\"\(change)\""))
        #expect(try fixture.request("/c/products/i/p001").text.contains("data-change=\"\(change)\""))
        let first = try fixture.request("/c/products/rows?position=0&limit=10").text
        let cursor = try #require(first.firstMatch(of: /data-cursor="([^"]+)" data-position="4"/)?.1)
        let around = try fixture.request(
            "/c/products/rows?at=\(WebPaths.encode(String(cursor)))&back=2&limit=5&outline=1")
        #expect(around.status == 200)
        #expect(around.text.contains("data-position=\"2\""))
        #expect(around.text.contains("data-anchor=\"4\""))
        #expect(around.text.contains("data-outline=\""))
        #expect(around.text.contains("data-change=\"\(change)\""))
        #expect(try fixture.request("/c/products/rows?outline=2").status == 400)
    }

    @Test func theEditorStoresAnImageWithTheSessionAndItsToken() throws {
        try grantMari()
        let mari = try session("mari")
        let editor = try fixture.request("/c/cookbook/i/r01/edit", headers: [("Cookie", mari.cookie)]).text
        #expect(editor.contains("id=\"f-image-file\""))
        #expect(editor.contains("accept=\"image/jpeg,image/png,image/gif,image/webp\""))
        #expect(editor.contains("id=\"f-image-preview\""))
        let png = Array(Data(base64Encoded: ImageTests.png)!)
        func send(_ headers: [(String, String)]) throws -> ServerFixture.Reply {
            try fixture.request(.put, "/c/cookbook/i/r01/image", headers: headers, body: png)
        }
        let tag = try etag("r01")
        #expect(try send([("Content-Type", "image/png"), ("Cookie", mari.cookie)]).status == 403, "no CSRF token")
        #expect(
            try send([("Content-Type", "text/plain"), ("Cookie", mari.cookie), (WebSession.csrfHeader, mari.csrf)])
                .status == 415, "a type a cross-site form can send")
        #expect(try send([("Content-Type", "image/png"), (WebSession.csrfHeader, mari.csrf)]).status == 401)
        let stored = try send([
            ("Content-Type", "image/png"), ("Cookie", mari.cookie), (WebSession.csrfHeader, mari.csrf),
            ("If-Match", tag),
        ])
        #expect(stored.status == 200, "\(stored.text)")
        let path = try #require(try record("r01")["image"] as? String)
        #expect(path.hasPrefix("/images/stored/cookbook/r01/"))
        let history =
            try fixture.request(
                "/api/v1/catalogs/cookbook/items/r01/history", token: fixture.adminToken
            ).object["items"] as? [[String: Any]]
        #expect(history?.first?["actor"] as? String == "mari")
        // The editor shows it, and a save that clears the field lets it go.
        let again = try fixture.request("/c/cookbook/i/r01/edit", headers: [("Cookie", mari.cookie)]).text
        #expect(again.contains("src=\"\(path)?size=240\""))
        #expect(try fixture.request(path).status == 200)
        var cleared = try record("r01")
        cleared["image"] = NSNull()
        cleared.removeValue(forKey: "section")
        let body = String(decoding: try JSONSerialization.data(withJSONObject: cleared), as: UTF8.self)
        #expect(try put("r01", body, session: mari).status == 200)
        #expect(try fixture.request(path).status == 404)
    }
}
