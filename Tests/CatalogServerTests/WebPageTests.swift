import CatalogAuth
import CatalogHTTP
import CatalogCore
import CatalogModel
import CatalogStorage
import Foundation
import Testing

@testable import CatalogServer

/// The web app's pages, rendered in process: what works without JavaScript.
@Suite struct WebPageTests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    @Test func homeListsCatalogsWithCounts() throws {
        let reply = try fixture.request("/")
        #expect(reply.status == 200)
        #expect(reply.response.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(reply.text.contains("Szakácskönyv"))
        #expect(reply.text.contains("href=\"/c/sequencers\""))
        let csp = try #require(reply.response.headers["Content-Security-Policy"])
        #expect(csp.contains("script-src 'self'"))
        #expect(!csp.contains("unsafe-inline"))
        #expect(reply.response.headers["X-Content-Type-Options"] == "nosniff")
        #expect(reply.response.headers["Set-Cookie"]?.contains("HttpOnly") == true)
    }

    @Test func homeSearchesEveryCatalogGroupedByCatalog() throws {
        let page = try fixture.request("/search?q=paprika")
        #expect(page.status == 200)
        #expect(page.text.contains("class=\"home-group\" lang=\"hu\" aria-label=\"Szakácskönyv\""))
        #expect(page.text.contains("href=\"/c/cookbook?q=paprika&amp;search=1\""))
        #expect(!page.text.contains("aria-label=\"Products\""))
        // The catalog list is there for the script, hidden while searching.
        #expect(page.text.contains("id=\"catalogs\" hidden"))
        let fragment = try fixture.request("/search?q=paprika&fragment=1")
        #expect(fragment.status == 200)
        #expect(fragment.text.hasPrefix("<div class=\"home-results\""))
        #expect(!fragment.text.contains("<html"))
        #expect(try fixture.request("/search?q=zzqqxx&fragment=1").text.contains("id=\"home-empty\""))
        #expect(try fixture.request("/search?q=paprika&fragment=2").status == 400)
        #expect(try fixture.request("/search?q=" + String(repeating: "a", count: 5000)).status == 400)
        // No query: the catalog list, as at `/`.
        #expect(try fixture.request("/search").text.contains("href=\"/c/sequencers\""))
    }

    /// Scope counts say something only while some scope's count is exact: capped in every scope
    /// ("1,000+" everywhere), they are left out.
    @Test func scopeCountsCappedEverywhereAreLeftOut() {
        let scopes = [
            ScopeDefinition(label: "All", categories: []), ScopeDefinition(label: "Tools", categories: ["Tools"]),
        ]
        func buttons(_ counts: [ScopeCount]) -> String {
            var html = HTMLWriter()
            ListPage.scopeButtons(
                scopes, counts: counts, state: ListState(), category: nil, strings: WebStrings.forLocale("en"),
                into: &html)
            return html.output
        }
        let capped = buttons([
            ScopeCount(label: "All", count: 1000, capped: true), ScopeCount(label: "Tools", count: 1000, capped: true),
        ])
        #expect(capped.contains("class=\"scope\"") && !capped.contains("class=\"count\""))
        let mixed = buttons([
            ScopeCount(label: "All", count: 1000, capped: true), ScopeCount(label: "Tools", count: 12),
        ])
        #expect(mixed.contains(">1,000+</span>") && mixed.contains(">12</span>"))
        // Each button says which categories it selects (the offline search reads them).
        #expect(mixed.contains("data-categories=\"[&quot;Tools&quot;]\""))
    }

    @Test func listHasSectionsRailAndRows() throws {
        let reply = try fixture.request("/c/products")
        #expect(reply.status == 200)
        #expect(reply.text.contains("class=\"section-header\" id=\"s-A\""))
        #expect(reply.text.contains("class=\"rail\""))
        #expect(reply.text.contains("class=\"flag\""))
        // A flag reads as its country's name, in the catalog's language.
        #expect(reply.text.contains("alt=\"Germany\" title=\"Germany\""))
        #expect(!reply.text.contains("alt=\"DE\""))
        #expect(reply.text.contains("class=\"price\""))
        // German catalog: the "Kategorie …" subtitle.
        #expect(try fixture.request("/c/sequencers").text.contains("Kategorie "))
        // Hungarian sections.
        #expect(try fixture.request("/c/cookbook").text.contains("id=\"s-CS\""))
    }

    @Test func railJumpsToASection() throws {
        let reply = try fixture.request("/c/cookbook?from=GY")
        #expect(reply.status == 200)
        let first = try #require(reply.text.range(of: "class=\"section-header\""))
        #expect(
            reply.text[first.upperBound...].hasPrefix(" id=\"s-GY\"")
                || reply.text[first.upperBound...].contains("s-GY"))
        #expect(try fixture.request("/c/cookbook?from=%3Cscript%3E").status == 404)
    }

    @Test func searchWithoutJavaScript() throws {
        let reply = try fixture.request("/c/sequencers?q=klang&search=1")
        #expect(reply.status == 200)
        #expect(reply.text.contains("<mark>Klang</mark>werk"))
        #expect(reply.text.contains("aria-pressed=\"true\""))
        #expect(!reply.text.contains("class=\"rail\""))
        let scoped = try fixture.request("/c/sequencers?q=&scope=Apple%26Win&search=1")
        #expect(scoped.text.contains("value=\"Apple&amp;Win\" class=\"scope\" aria-pressed=\"true\""))
        let none = try fixture.request("/c/sequencers?q=zzzzzz&search=1")
        #expect(none.text.contains("Keine Treffer"))
    }

    @Test func detailWithPlaceholderAndBackToTheSearch() throws {
        let empty = try fixture.request("/c/sequencers/i/" + firstEmptyDescription())
        #expect(empty.text.contains("(Keine Daten hinterlegt)"))
        let reply = try fixture.request("/c/sequencers/i/" + firstEmptyDescription() + "?q=fu&search=1")
        #expect(reply.text.contains("href=\"/c/sequencers?q=fu&amp;search=1\""))
        let recipe = try fixture.request("/c/cookbook/i/r01")
        #expect(recipe.text.contains("<title>Csirkepaprikás</title>"))
        #expect(recipe.text.contains("1 óra"))
        #expect(try fixture.request("/c/cookbook/i/nope").status == 404)
        #expect(
            try fixture.request("/c/cookbook/i/nope").response.headers["Content-Type"]?.hasPrefix("text/html") == true)
        // A record that is not there keeps the catalog's tab bar and a way back to it.
        let missing = try fixture.request("/c/cookbook/i/nope").text
        #expect(missing.contains("<nav class=\"tabs\""))
        #expect(missing.contains("href=\"/c/cookbook\" id=\"error-back\""))
        #expect(missing.contains("<html lang=\"hu\""))
        // A catalog that is not there has neither.
        let nowhere = try fixture.request("/c/nowhere/i/nope").text
        #expect(!nowhere.contains("<nav class=\"tabs\"") && !nowhere.contains("error-back"))
    }

    func firstEmptyDescription() throws -> String {
        let records = try fixture.elsewhere { database in
            return try database.read { reader in
                return try reader.items(of: reader.requireCatalog("sequencers"), limit: 100).records()
            }
        }
        return try #require(records.first { ($0.description ?? "").isEmpty }?.id)
    }

    @Test func cookbookTabs() throws {
        let hot = try fixture.request("/c/cookbook/hot")
        #expect(hot.status == 200)
        #expect(hot.text.contains("class=\"tabs\""))
        #expect(hot.text.matches(of: /<li class="row/).count == 6)
        let categories = try fixture.request("/c/cookbook/categories")
        #expect(categories.text.contains("Levesek"))
        let soups = try fixture.request("/c/cookbook/categories/1")
        #expect(soups.status == 200)
        #expect(soups.text.matches(of: /<li class="row/).count == 5)
        #expect(try fixture.request("/c/cookbook/categories/99").status == 404)
        // Signed out, the favorites are the browser's own: the page keeps its tabs and says so.
        let favorites = try fixture.request("/c/cookbook/favorites")
        #expect(favorites.status == 200)
        #expect(favorites.text.contains("data-favorites=\"local\""))
        #expect(favorites.text.contains("class=\"tabs\""))
        #expect(favorites.text.contains("Ezeket a kedvenceket ez az eszköz őrzi."))
    }

    @Test func signInFavoritesAndCSRF() throws {
        _ = try fixture.elsewhere { database in
            try Authenticator().addUser(name: "kati", isAdmin: false, password: "paprika-42", in: database.users())
        }
        let form = try fixture.request("/signin")
        let csrf = try #require(
            form.response.headers["Set-Cookie"]?.split(separator: ";").first?.split(separator: "=").last)
        let cookie = "catalog_csrf=\(csrf)"
        let body = Array("csrf=\(csrf)&name=kati&password=paprika-42&next=%2Fc%2Fcookbook%2Fi%2Fr01".utf8)
        let signedIn = try fixture.request(
            .post, "/signin", headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", cookie)],
            body: body)
        #expect(signedIn.status == 303)
        #expect(signedIn.response.headers["Location"] == "/c/cookbook/i/r01")
        let session = try #require(signedIn.response.headers["Set-Cookie"]?.split(separator: ";").first)
        #expect(signedIn.response.headers["Set-Cookie"]?.contains("HttpOnly; SameSite=Lax") == true)
        let cookies = "\(cookie); \(session)"
        let page = try fixture.request("/c/cookbook/i/r01", headers: [("Cookie", cookies)])
        #expect(page.text.contains("id=\"favorite\" aria-pressed=\"false\""))
        // Signed in, forms carry a token bound to the session, not the one from before.
        let bound = try #require(page.text.firstMatch(of: /name="csrf" value="([A-Za-z0-9_-]+)"/)?.1)
        #expect(bound != csrf)
        let stale = try fixture.request(
            .post, "/c/cookbook/i/r01/favorite",
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", cookies)],
            body: Array("csrf=\(csrf)&favorite=1".utf8))
        #expect(stale.status == 403, "the token from before sign-in no longer works")
        // Without the token the form is refused; with it the favorite is stored.
        let forged = try fixture.request(
            .post, "/c/cookbook/i/r01/favorite",
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", cookies)],
            body: Array("favorite=1".utf8))
        #expect(forged.status == 403)
        let crossSite = try fixture.request(
            .post, "/c/cookbook/i/r01/favorite",
            headers: [
                ("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", cookies),
                ("Origin", "https://evil.example"),
                ("Host", "localhost:8080"),
            ], body: Array("csrf=\(bound)&favorite=1".utf8))
        #expect(crossSite.status == 403)
        let added = try fixture.request(
            .post, "/c/cookbook/i/r01/favorite",
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", cookies)],
            body: Array("csrf=\(bound)&favorite=1".utf8))
        #expect(added.status == 303)
        let favorites = try fixture.request("/c/cookbook/favorites", headers: [("Cookie", cookies)])
        #expect(favorites.text.contains("Csirkepaprikás"))
        let wrong = try fixture.request(
            .post, "/signin", headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", cookie)],
            body: Array("csrf=\(csrf)&name=kati%20%3Cb%3E&password=nope-secret".utf8))
        #expect(wrong.status == 401)
        #expect(wrong.text.contains("Wrong name or password."))
        // The form comes back with the name typed (escaped), never the password, and a fresh token.
        #expect(wrong.text.contains("value=\"kati &lt;b&gt;\""))
        #expect(!wrong.text.contains("nope-secret"))
        #expect(wrong.text.contains("name=\"csrf\" value=\"\(csrf)\""))
        #expect(wrong.text.contains("id=\"show-password\""))
    }

    @Test func openRedirectsAreRefused() {
        #expect(SignInPage.safeNext("https://evil.example/") == "/")
        #expect(SignInPage.safeNext("//evil.example/") == "/")
        #expect(SignInPage.safeNext("/\\evil") == "/")
        #expect(SignInPage.safeNext("/c/cookbook") == "/c/cookbook")
    }

    @Test func scriptInRecordsIsText() throws {
        try fixture.importElsewhere(
            CatalogDefinition(id: "hostile", title: "<script>alert('t')</script>", locale: "en"),
            [
                Record(
                    id: "x\"><script>alert(1)</script>", title: "<script>alert(2)</script>",
                    subtitle: "<img src=x onerror=alert(3)>", description: "</p><script>alert(4)</script>",
                    fields: ["note": .text("<b onclick=alert(5)>")])
            ])
        for path in ["/", "/c/hostile", "/c/hostile?q=script&search=1"] {
            let text = try fixture.request(path).text
            #expect(!text.contains("<script>alert"), "\(path)")
            #expect(!text.contains("<img src=x"), "\(path)")
        }
        let detail = try fixture.request(
            "/c/hostile/i/" + "x\"><script>alert(1)</script>".addingPercentEncoding(
                withAllowedCharacters: .alphanumerics)!)
        #expect(detail.status == 200)
        #expect(!detail.text.contains("<script>alert"))
        #expect(detail.text.contains("&lt;script&gt;alert(2)&lt;/script&gt;"))
    }

    @Test func enterKeepsTheScopeAndCancelLeavesTheSearch() throws {
        let reply = try fixture.request("/c/sequencers?q=t&scope=Apple&search=1").text
        // The first submit button (the one Enter presses) carries no scope; a hidden field after
        // the scope buttons keeps the current one, and a pressed button's value comes first.
        let go = try #require(reply.range(of: "class=\"search-go\""))
        let firstScope = try #require(reply.range(of: "class=\"scope\""))
        #expect(go.lowerBound < firstScope.lowerBound)
        let hidden = try #require(reply.range(of: "<input type=\"hidden\" name=\"scope\" value=\"Apple\">"))
        #expect(hidden.lowerBound > firstScope.lowerBound)
        #expect(reply.contains("<a class=\"search-cancel\" href=\"/c/sequencers\" id=\"search-cancel\">Abbrechen</a>"))
        // Without a scope there is no hidden one.
        #expect(!(try fixture.request("/c/sequencers?q=t&search=1").text.contains("type=\"hidden\" name=\"scope\"")))
    }

    @Test func detailBackLinksReturnToTheTabOrCategory() throws {
        let hot = try fixture.request("/c/cookbook/hot").text
        #expect(hot.contains("href=\"/c/cookbook/i/r01?via=hot\""))
        let fromHot = try fixture.request("/c/cookbook/i/r01?via=hot").text
        #expect(fromHot.contains("<a class=\"back\" href=\"/c/cookbook/hot\" rel=\"up\">"))
        #expect(fromHot.contains("href=\"/c/cookbook/hot\" class=\"tab\" aria-current=\"page\""))
        let soups = try fixture.request("/c/cookbook/categories/1").text
        #expect(soups.contains("&amp;via=categories%2F1\""))
        let fromSoups = try fixture.request("/c/cookbook/i/r02?via=categories%2F1").text
        #expect(fromSoups.contains("href=\"/c/cookbook/categories/1\" rel=\"up\">"))
        #expect(fromSoups.contains("<span class=\"back-label\">Levesek</span></a>"))
        // Anything else is the list.
        let odd = try fixture.request("/c/cookbook/i/r01?via=%2F%2Fevil.example").text
        #expect(odd.contains("<a class=\"back\" href=\"/c/cookbook\" rel=\"up\">"))
    }

    @Test func voidElementsHaveNoEndTags() throws {
        let page = try fixture.request("/c/products/i/p001").text
        for tag in ["</img>", "</input>", "</link>", "</meta>"] {
            #expect(!page.contains(tag), "\(tag)")
        }
        #expect(page.contains("<link rel=\"icon\" href=\"\(WebAssets.icon.path)\" type=\"image/svg+xml\">"))
        #expect(try fixture.request(WebAssets.icon.path).response.headers["Content-Type"] == "image/svg+xml")
    }

    @Test func assetsAreFingerprintedAndImmutable() throws {
        let page = try fixture.request("/").text
        #expect(page.contains(WebAssets.script.path))
        let script = try fixture.request(WebAssets.script.path)
        #expect(script.status == 200)
        #expect(script.response.headers["Cache-Control"] == "public, max-age=31536000, immutable")
        #expect(script.response.headers["Content-Type"] == "text/javascript; charset=utf-8")
        #expect(try fixture.request("/assets/app-00000000.js").status == 404)
        #expect(try fixture.request("/assets/js-00000000/app.js").status == 404)
    }

    @Test func theScriptIsModulesInOneFingerprintedFolder() throws {
        let page = try fixture.request("/").text
        #expect(page.contains("<script type=\"module\" src=\"\(WebAssets.script.path)\"></script>"))
        let folder = WebAssets.script.path.dropLast("app.js".count)
        #expect(folder.hasPrefix("/assets/js-"))
        let names = Set(WebAssets.modules.map { String($0.path.dropFirst(folder.count)) })
        #expect(names.isSuperset(of: ["app.js", "page.js", "windowed-list.js", "search.js", "favorites.js"]))
        for module in WebAssets.modules {
            #expect(module.path.hasPrefix(folder), "\(module.path)")
            if module.path != WebAssets.script.path {
                #expect(page.contains("<link rel=\"modulepreload\" href=\"\(module.path)\">"), "\(module.path)")
            }
            let reply = try fixture.request(module.path)
            #expect(reply.status == 200, "\(module.path)")
            #expect(reply.response.headers["Cache-Control"] == WebRoutes.immutable)
            // Every module it imports is served beside it.
            for name in reply.text.matches(of: /from "\.\/([a-z-]+\.js)"/).map({ String($0.1) }) {
                #expect(names.contains(name), "\(module.path) imports \(name)")
            }
        }
    }
}
