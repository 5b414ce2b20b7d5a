import CatalogTestSupport
import Foundation
import Testing

@testable import CatalogServer

/// Nothing made for a signed-in user may be stored by a browser, a proxy or the web app's
/// service worker (which keeps only what `Cache-Control` allows): every personalised answer is
/// `private, no-store`, anonymous pages stay storable, and sign-in and sign-out clear the
/// browser's cache.
@Suite struct PrivatePagesTests {
    typealias Live = SignInTests.Live

    static func cacheControl(_ reply: RawClient.Reply) -> String { reply.headers["cache-control"] ?? "" }

    @Test func personalisedResponsesCarryNoStore() throws {
        let live = try Live()
        // Anonymous: the first page sets the form cookie, so it is private; later ones are storable.
        let form = try live.form()
        let first = try live.send("GET", "/c/cookbook")
        #expect(Self.cacheControl(first) == WebHeaders.personal)
        let anonymous = try live.send("GET", "/c/cookbook/i/r01", headers: [("Cookie", form.cookie)])
        #expect(anonymous.status == 200)
        #expect(Self.cacheControl(anonymous) == "no-cache")
        #expect(anonymous.headers["vary"]?.contains("Cookie") == true)

        let signedIn = try live.signIn("kati", "paprika-42", form: form)
        #expect(signedIn.status == 303)
        #expect(signedIn.headers["clear-site-data"] == "\"cache\"")
        #expect(Self.cacheControl(signedIn).contains("no-store"))
        let session = try Live.session(signedIn)
        let cookies = "\(form.cookie); \(session)"
        #expect(
            try live.send(
                "POST", "/c/cookbook/i/r01/favorite",
                headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", cookies)],
                body: "csrf=\(try token(live, cookies))&favorite=1"
            ).status == 303)

        for path in [
            "/", "/c/cookbook", "/c/cookbook/favorites", "/c/cookbook/i/r01", "/c/cookbook/hot",
            "/c/cookbook/categories", "/c/cookbook?q=leves", "/signin?next=%2F", "/c/no-such-catalog",
            "/c/cookbook/i/no-such-item", "/offline/en",
        ] {
            let page = try live.send("GET", path, headers: [("Cookie", cookies)])
            #expect(Self.cacheControl(page) == WebHeaders.personal, "\(path) (\(page.status))")
            #expect(page.headers["vary"]?.contains("Cookie") == true, "\(path)")
        }
        let favorites = try live.send("GET", "/c/cookbook/favorites", headers: [("Cookie", cookies)])
        #expect(favorites.text.contains("data-id=\"r01\""))
        // The API's list of one user's favorites, with the session as its bearer token.
        let bearer = String(session.split(separator: "=", maxSplits: 1)[1])
        let api = try live.send("GET", "/api/v1/favorites", headers: [("Authorization", "Bearer \(bearer)")])
        #expect(api.status == 200)
        #expect(Self.cacheControl(api) == WebHeaders.personal)
        // What is the same for everyone stays cacheable, signed in or not.
        let script = try live.send("GET", WebAssets.script.path, headers: [("Cookie", cookies)])
        #expect(Self.cacheControl(script) == WebRoutes.immutable)
        let items = try live.send("GET", "/api/v1/catalogs/cookbook/items", headers: [("Cookie", cookies)])
        #expect(Self.cacheControl(items) == "no-cache")

        let signedOut = try live.send(
            "POST", "/signout",
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", cookies)],
            body: "csrf=\(try token(live, cookies))")
        #expect(signedOut.status == 303)
        #expect(signedOut.headers["clear-site-data"] == "\"cache\"")
        #expect(Self.cacheControl(signedOut).contains("no-store"))
        // Clean up: the favorite goes with a new sign-in's form.
        let again = try Live.session(try live.signIn("kati", "paprika-42"))
        _ = try live.send(
            "POST", "/c/cookbook/i/r01/favorite",
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", again)],
            body: "csrf=\(try token(live, again))&favorite=0")
    }

    /// The form token of the signed-in session in `cookies`.
    func token(_ live: Live, _ cookies: String) throws -> String {
        let page = try live.send("GET", "/c/cookbook/i/r01", headers: [("Cookie", cookies)])
        return String(try #require(page.text.firstMatch(of: /name="csrf" value="([A-Za-z0-9_-]+)"/)?.1))
    }
}
