import CatalogCore
import CatalogEngines
import CatalogHTTP
import CatalogModel
import CatalogStorage
import Foundation
import Testing

@testable import CatalogServer

/// `GET` and `PATCH /api/v1/catalogs/{id}/settings`: a catalog's owners and administrators read and
/// change its search settings, and every search of the server applies them at once, also when
/// another process changed them.
@Suite struct SearchSettingsAPITests {
    let fixture: ServerFixture

    init() throws {
        fixture = try ServerFixture()
    }

    func patch(_ body: String, token: String?, headers: [(String, String)] = []) throws -> ServerFixture.Reply {
        try fixture.request(
            .patch, "/api/v1/catalogs/cookbook/settings",
            headers: [("Content-Type", "application/merge-patch+json")] + headers, body: Array(body.utf8),
            token: token)
    }

    func hits(_ query: String) throws -> [String] {
        let reply = try fixture.request("/api/v1/catalogs/cookbook/search?q=\(query)&limit=50")
        #expect(reply.status == 200, "\(reply.text)")
        return (reply.object["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    /// `listFields` and `detailFields` change what the web app's rows and detail pages show, and
    /// nothing else: no index is built again.
    @Test func listAndDetailFieldsChangeWhatPagesShow() throws {
        let admin = fixture.adminToken
        let before = try fixture.request("/c/cookbook/i/r01")
        #expect(before.text.contains("Mari néni receptje alapján") || before.status == 200)
        let changed = try patch(#"{"listFields":["complexity","categories"],"detailFields":[]}"#, token: admin)
        #expect(changed.status == 200, "\(changed.text)")
        #expect(changed.text.contains(#""listFields":["complexity","categories"]"#))
        let list = try fixture.request("/c/cookbook")
        #expect(list.status == 200)
        // A row's line: the recipe's complexity, then its categories, where the subtitle was.
        #expect(list.text.contains(" · Levesek</span>"), "\(list.text.prefix(4000))")
        let detail = try fixture.request("/c/cookbook/i/r01")
        #expect(!detail.text.contains("<dt>complexity</dt>") && !detail.text.contains(">Elkészítési idő<"))
        let wrong = try patch(#"{"listFields":["a","a"]}"#, token: admin)
        #expect(wrong.status == 422 || wrong.status == 400)
        #expect(wrong.text.contains("/listFields/1"), "\(wrong.text)")
        let reset = try patch(#"{"listFields":null,"detailFields":null}"#, token: admin)
        #expect(!reset.text.contains("listFields"))
        #expect(try fixture.request("/c/cookbook/i/r01").text.contains("Elkészítési idő"))
    }

    /// `rankingField` reorders results within their tiers, never which records are found; pages
    /// by cursor follow it; a field that is not a record's is a 422 at its pointer.
    @Test func aRankingFieldReordersTiesAndPagesFollowIt() throws {
        let admin = fixture.adminToken
        let before = try hits("leves")
        #expect(before.count > 3)
        let changed = try patch(#"{"rankingField":"-complexity"}"#, token: admin)
        #expect(changed.status == 200, "\(changed.text)")
        #expect(changed.text.contains(#""rankingField":"-complexity""#))
        // The field's order is made off the request path, before any search asks for it.
        fixture.application.segmentMaintainer.waitUntilIdle()
        #expect(fixture.application.segmentMaintainer.prepared == 1)
        let ranked = try hits("leves")
        #expect(Set(ranked) == Set(before))
        #expect(ranked != before, "nothing reordered")
        // Pages of three by cursor are the same order.
        var paged: [String] = []
        var after = ""
        repeat {
            let reply = try fixture.request("/api/v1/catalogs/cookbook/search?q=leves&limit=3" + after)
            paged += (reply.object["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            after = (reply.object["next"] as? String).map { "&after=" + $0 } ?? ""
        } while !after.isEmpty && paged.count < 100
        #expect(paged == ranked)
        let wrong = try patch(#"{"rankingField":"price"}"#, token: admin)
        #expect(wrong.status == 422, "\(wrong.text)")
        #expect(wrong.text.contains("/rankingField"))
        let removed = try patch(#"{"rankingField":null}"#, token: admin)
        #expect(!removed.text.contains("rankingField"))
        #expect(try hits("leves") == before)
    }

    @Test func anAdministratorReadsAndChangesSettingsAndSearchFollows() throws {
        let admin = fixture.adminToken
        let initial = try fixture.request("/api/v1/catalogs/cookbook/settings", token: admin)
        #expect(initial.status == 200)
        #expect(
            initial.text
                == #"{"fields":[{"facet":true,"filterable":true,"kind":"text","name":"complexity","records":32}],"#
                + #""searchableFields":["*"],"stopWords":[],"synonyms":[],"typos":{"exemptFields":["id"],"exemptWords":[],"#
                + #""oneTypoFrom":5,"twoTyposFrom":9}}"#)
        #expect(initial.headers["Cache-Control"] == "private, no-store")
        #expect(try hits("gulyás").isEmpty)
        #expect(try hits("halászlé") == ["r12"])

        let changed = try patch(#"{"synonyms":["gulyás, halászlé"],"typos":{"oneTypoFrom":6}}"#, token: admin)
        #expect(changed.status == 200, "\(changed.text)")
        #expect(
            changed.text
                == #"{"fields":[{"facet":true,"filterable":true,"kind":"text","name":"complexity","records":32}],"#
                + #""searchableFields":["*"],"stopWords":[],"synonyms":["gulyás, halászlé"],"typos":{"#
                + #""exemptFields":["id"],"exemptWords":[],"oneTypoFrom":6,"twoTyposFrom":9}}"#)
        let etag = try #require(changed.headers["ETag"])
        #expect(try fixture.request("/api/v1/catalogs/cookbook/settings", token: admin).headers["ETag"] == etag)
        #expect(try hits("gulyás") == ["r12"])
        #expect(try hits("halászlé") == ["r12"])

        // Searchable fields build the index again: a description's word is no longer found.
        #expect(try hits("burgonya").contains("r21"))
        let titles = try patch(#"{"searchableFields":["title","subtitle"]}"#, token: admin)
        #expect(titles.status == 200, "\(titles.text)")
        #expect(try hits("burgonya") == ["r15"])
        let every = try patch(#"{"searchableFields":null}"#, token: admin)
        #expect(every.status == 200)
        #expect(every.headers["ETag"] != etag)
        #expect(try hits("burgonya").contains("r21"))

        // A stale revision changes nothing.
        let stale = try patch(#"{"stopWords":["a"]}"#, token: admin, headers: [("If-Match", #""0-stale""#)])
        #expect(stale.status == 412)
        let current = try #require(every.headers["ETag"])
        #expect(try patch(#"{"synonyms":null}"#, token: admin, headers: [("If-Match", current)]).status == 200)
        #expect(try hits("gulyás").isEmpty)
    }

    /// A change that builds the index again runs in the background when asked: 202 with a job
    /// whose progress counts the records, readers keeping the old settings until it commits.
    @Test func aRebuildingChangeRunsAsAJobWhenAskedTo() throws {
        let admin = fixture.adminToken
        #expect(try hits("burgonya").contains("r21"))
        let async = [("Prefer", "respond-async")]
        // Problems are still a 422 at once, and a change that builds nothing applies at once.
        #expect(try patch(#"{"searchableFields":[]}"#, token: admin, headers: async).status == 422)
        let quick = try patch(#"{"stopWords":["a"]}"#, token: admin, headers: async)
        #expect(quick.status == 200 && quick.headers["Preference-Applied"] == nil, "\(quick.text)")

        let started = try patch(#"{"searchableFields":["title","subtitle"]}"#, token: admin, headers: async)
        #expect(started.status == 202, "\(started.text)")
        #expect(started.headers["Preference-Applied"] == "respond-async")
        let location = try #require(started.headers["Location"])
        let job = try #require(started.object["id"] as? String)
        #expect(location == "/api/v1/imports/" + job)
        let ended = try #require(fixture.application.importJobs.waitForEnd(of: job))
        #expect(ended.state == .done)
        let status = try fixture.request(location, token: admin)
        #expect(status.status == 200, "\(status.text)")
        #expect(status.object["state"] as? String == "done")
        #expect(status.object["recordsRead"] as? Int == 32, "\(status.text)")
        #expect(!(try hits("burgonya")).contains("r21"))
        let settings = try fixture.request("/api/v1/catalogs/cookbook/settings", token: admin)
        #expect(settings.text.contains(#""searchableFields":["title","subtitle"]"#))
    }

    @Test func aChangeByAnotherProcessIsSeenByTheNextSearch() throws {
        #expect(try hits("pörkölt") == ["r13"])
        _ = try fixture.elsewhere { database in
            try CatalogManagement.withICU.updateSearchSettings("cookbook", in: database) { current in
                var settings = current
                settings.synonyms = [try SynonymRule(parsing: "pörkölt => paprikás")]
                return settings
            }
        }
        // The subtitle's own word (as typed) before the titles with the synonym; one way only.
        let after = try hits("pörkölt")
        #expect(after.first == "r13" && after.contains("r30"), "\(after)")
        #expect(!(try hits("paprikás")).contains("r13"))
    }

    @Test func mistakesNameTheirKeyAndChangeNothing() throws {
        let admin = fixture.adminToken
        let bad = try patch(
            #"{"synonyms":["krumpli"],"stopWords":[""],"typos":{"oneTypoFrom":0},"weights":{},"searchableFields":[]}"#,
            token: admin)
        #expect(bad.status == 422, "\(bad.text)")
        let problems = (bad.object["error"] as? [String: Any])?["problems"] as? [[String: Any]] ?? []
        #expect(
            problems.compactMap { $0["pointer"] as? String } == [
                "/weights", "/synonyms/0", "/typos/oneTypoFrom", "/stopWords/0", "/searchableFields",
            ])
        #expect(try patch("[1]", token: admin).status == 422)
        #expect(try patch("{", token: admin).status == 400)
        let text = try fixture.request(
            .patch, "/api/v1/catalogs/cookbook/settings", headers: [("Content-Type", "text/plain")],
            body: Array("{}".utf8), token: admin)
        #expect(text.status == 415)
        #expect(
            try fixture.request("/api/v1/catalogs/cookbook/settings", token: admin).text.contains(#""synonyms":[]"#))
        #expect(try fixture.request("/api/v1/catalogs/no-such/settings", token: admin).status == 404)
    }

    @Test func onlyOwnersAndAdministratorsSeeOrChangeSettings() throws {
        try fixture.elsewhere { _ = try $0.users().grant(user: "jozsi", catalog: "cookbook", role: .owner) }
        try fixture.elsewhere { _ = try $0.users().grant(user: "mari", catalog: "cookbook", role: .editor) }
        let owner = fixture.otherToken
        #expect(try fixture.request("/api/v1/catalogs/cookbook/settings", token: owner).status == 200)
        #expect(try patch(#"{"stopWords":["a"]}"#, token: owner).status == 200)
        let editor = fixture.userToken
        #expect(try fixture.request("/api/v1/catalogs/cookbook/settings", token: editor).status == 403)
        let refused = try patch(#"{"stopWords":[]}"#, token: editor)
        #expect(refused.status == 403)
        #expect(refused.errorCode == "forbidden")
        #expect(try fixture.request("/api/v1/catalogs/products/settings", token: owner).status == 403)
        #expect(try fixture.request("/api/v1/catalogs/cookbook/settings").status == 401)
        #expect(try patch(#"{"stopWords":[]}"#, token: nil).status == 401)
        #expect(try fixture.request("/api/v1/catalogs/cookbook/settings", token: owner).text.contains(#"["a"]"#))
    }
}
