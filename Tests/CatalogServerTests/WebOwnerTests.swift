import CatalogAuth
import CatalogCore
import CatalogHTTP
import CatalogModel
import CatalogStorage
import Foundation
import Testing

@testable import CatalogServer

/// The catalog owner's web screens: who sees them, and that their changes are the API's own
/// (the preview, the import job, the catalog's change and deletion) for the web session's user,
/// with its CSRF token.
@Suite struct WebOwnerTests {
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
        let page = try fixture.request("/", headers: [("Cookie", header)]).text
        let csrf = try #require(page.firstMatch(of: /data-csrf="([^"]+)"/)?.1)
        return (header, String(csrf))
    }

    func send(
        _ method: HTTPMethod, _ target: String, _ body: String, type: String,
        session: (cookie: String, csrf: String), csrf: String? = nil, headers: [(String, String)] = []
    ) throws -> ServerFixture.Reply {
        try fixture.request(
            method, target,
            headers: [
                ("Cookie", session.cookie), (WebSession.csrfHeader, csrf ?? session.csrf), ("Content-Type", type),
                ("Accept", "application/json"),
            ]
                + headers, body: Array(body.utf8))
    }

    static let csv = "sku,name\nk-1,Kettle\nk-2,Teapot\n"

    @Test func onlyAdministratorsCreateAndOnlyOwnersSeeTheSettings() throws {
        let admin = try session("admin")
        let mari = try session("mari")
        #expect(try fixture.request("/").text.contains("new-catalog-link") == false)
        #expect(try fixture.request("/", headers: [("Cookie", admin.cookie)]).text.contains("id=\"new-catalog-link\""))
        #expect(try fixture.request("/new", headers: [("Cookie", admin.cookie)]).status == 200)
        #expect(try fixture.request("/new", headers: [("Cookie", mari.cookie)]).status == 403)
        #expect(try fixture.request("/new").status == 303)
        #expect(try fixture.request("/c/cookbook/settings", headers: [("Cookie", mari.cookie)]).status == 403)
        _ = try fixture.elsewhere { try $0.users().grant(user: "mari", catalog: "cookbook", role: .owner) }
        let settings = try fixture.request("/c/cookbook/settings", headers: [("Cookie", mari.cookie)])
        #expect(settings.status == 200)
        // An owner changes the settings but may not delete the catalog: no danger section.
        #expect(!settings.text.contains("delete-catalog"))
        #expect(
            try fixture.request("/c/cookbook", headers: [("Cookie", mari.cookie)]).text.contains("catalog-settings"))
        #expect(
            try send(.delete, "/c/cookbook/settings", "", type: "application/json", session: mari).status == 403)
        // A catalog that does not exist is not found (as a hidden one is), before anything else.
        #expect(
            try send(.post, "/c/mine/import/preview", Self.csv, type: "text/csv", session: mari).status == 404)
        #expect(
            try send(.post, "/c/cookbook/import/preview", Self.csv, type: "text/csv", session: mari).status == 403)
    }

    @Test func theWebPreviewAndImportAreTheAPIsForTheSession() throws {
        let admin = try session("admin")
        let query = "?field=id%3Dsku&field=title%3Dname&title=Kitchen"
        #expect(
            try send(.post, "/c/kitchen/import/preview\(query)", Self.csv, type: "text/csv", session: admin, csrf: "x")
                .status == 403)
        let preview = try send(.post, "/c/kitchen/import/preview\(query)", Self.csv, type: "text/csv", session: admin)
        #expect(preview.status == 200, "\(preview.text)")
        #expect((preview.object["records"] as? [Any])?.count == 2)
        let started = try send(.post, "/c/kitchen/import\(query)", Self.csv, type: "text/csv", session: admin)
        #expect(started.status == 202, "\(started.text)")
        let id = try #require(started.object["id"] as? String)
        #expect(started.headers["Location"] == "/imports/\(id)")
        _ = fixture.application.importJobs.waitForEnd(of: id)
        let job = try fixture.request("/imports/\(id)", headers: [("Cookie", admin.cookie)])
        #expect(job.object["state"] as? String == "done")
        #expect(try fixture.request("/api/v1/catalogs/kitchen").object["title"] as? String == "Kitchen")
        // The id is taken now: said at /id.
        let again = try send(.post, "/c/kitchen/import/preview\(query)", Self.csv, type: "text/csv", session: admin)
        #expect(again.status == 422)
        let problems = (again.object["error"] as? [String: Any])?["problems"] as? [[String: Any]]
        #expect(problems?.first?["pointer"] as? String == "/id")
    }

    @Test func settingsAreTheAPIsPatchWithProblemsInTheCatalogsLanguage() throws {
        let admin = try session("admin")
        let long = String(repeating: "x", count: 201)
        let bad = try send(
            .patch, "/c/cookbook/settings", #"{"title":"\#(long)"}"#, type: "application/merge-patch+json",
            session: admin)
        #expect(bad.status == 422)
        let problems = (bad.object["error"] as? [String: Any])?["problems"] as? [[String: Any]]
        #expect(problems?.first?["pointer"] as? String == "/title")
        let locale = try fixture.request("/api/v1/catalogs/cookbook").object["locale"] as? String ?? "en"
        #expect(problems?.first?["message"] as? String == WebStrings.forLocale(locale)[.problemCatalogTitle])
        let renamed = try send(
            .patch, "/c/cookbook/settings", #"{"title":"Renamed"}"#, type: "application/merge-patch+json",
            session: admin)
        #expect(renamed.status == 200, "\(renamed.text)")
        #expect(try fixture.request("/api/v1/catalogs/cookbook").object["title"] as? String == "Renamed")
        // The description: a field of the page, its problem in the catalog's language.
        let settingsPage = try fixture.request("/c/cookbook/settings", headers: [("Cookie", admin.cookie)]).text
        #expect(settingsPage.contains(#"<textarea id="s-description" name="description" data-pointer="/description""#))
        #expect(settingsPage.contains("Otthoni receptek levesektől a desszertekig"))
        let tooLong = try send(
            .patch, "/c/cookbook/settings", #"{"description":"\#(String(repeating: "x", count: 501))"}"#,
            type: "application/merge-patch+json", session: admin)
        #expect(tooLong.status == 422)
        let described = (tooLong.object["error"] as? [String: Any])?["problems"] as? [[String: Any]]
        #expect(described?.first?["pointer"] as? String == "/description")
        #expect(described?.first?["message"] as? String == WebStrings.forLocale(locale)[.problemCatalogDescription])
        // Who may see it: the page offers the three choices with the current one checked, and the
        // same patch changes it.
        let page = try fixture.request("/c/cookbook/settings", headers: [("Cookie", admin.cookie)]).text
        for value in CatalogVisibility.allCases {
            #expect(page.contains(#"id="s-visibility-\#(value.rawValue)""#))
        }
        #expect(page.range(of: #"<input[^>]*id="s-visibility-public"[^>]*checked"#, options: .regularExpression) != nil)
        let hidden = try send(
            .patch, "/c/cookbook/settings", #"{"visibility":"members"}"#, type: "application/merge-patch+json",
            session: admin)
        #expect(hidden.status == 200, "\(hidden.text)")
        #expect(try fixture.request("/api/v1/catalogs/cookbook").status == 404)
        let again = try fixture.request("/c/cookbook/settings", headers: [("Cookie", admin.cookie)]).text
        #expect(
            again.range(of: #"<input[^>]*id="s-visibility-members"[^>]*checked"#, options: .regularExpression) != nil)
        let deleted = try send(.delete, "/c/cookbook/settings", "", type: "application/json", session: admin)
        #expect(deleted.status == 204)
        #expect(try fixture.request("/api/v1/catalogs/cookbook").status == 404)
        let home = try fixture.request("/?deleted=cookbook", headers: [("Cookie", admin.cookie)]).text
        #expect(home.contains("id=\"home-message\""))
    }
}
