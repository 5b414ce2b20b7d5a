import CatalogAuth
import CatalogHTTP
import CatalogSQLite
import CatalogStorage
import CatalogTestSupport
import Foundation
import Synchronization
import Testing

@testable import CatalogServer

/// The audit log: events recorded by live requests (sign-ins, refusals, role changes) with the
/// client's address as a trusted proxy forwards it, the admin API, the cap per minute, pruning.
@Suite struct AuditTests {
    /// Every event stored so far, once the log wrote what was recorded.
    static func events(_ application: CatalogApplication, _ query: AuditQuery = AuditQuery()) throws -> [AuditEvent] {
        application.audit.flush()
        return try application.stores.users().auditEvents(query)
    }

    /// A JSON body for `POST /api/v1/signin`.
    static func credentials(_ name: String, _ password: String) -> String {
        #"{"name":"\#(name)","password":"\#(password)"}"#
    }

    @Test func signInsAreRecordedWithTheAddressATrustedProxyForwards() throws {
        let loopback = try AddressRange("127.0.0.1/32")
        let live = try SignInTests.Live(configure: { $0.trustedProxies = [loopback] })
        func signIn(_ name: String, _ password: String, as client: String, peer: String = "127.0.0.1") throws
            -> RawClient.Reply
        {
            try live.send(
                "POST", "/api/v1/signin", from: peer,
                headers: [("Content-Type", "application/json"), ("X-Forwarded-For", "192.0.2.200, \(client)")],
                body: Self.credentials(name, password))
        }
        let wrong = try signIn("kati", "not-it", as: "198.51.100.7")
        #expect(wrong.status == 401)
        #expect(try signIn("nobody", "guess", as: "198.51.100.7").status == 401)
        #expect(try signIn("mari", "guess", as: "198.51.100.7").status == 401, "mari has no password")
        let right = try signIn("kati", "paprika-42", as: "203.0.113.9")
        #expect(right.status == 200)
        // A peer that is no trusted proxy is recorded by its own address, whatever it forwards.
        #expect(try signIn("kati", "not-it", as: "198.51.100.8", peer: "127.0.0.2").status == 401)

        let events = try Self.events(live.fixture.application)
        #expect(events.map(\.kind) == [.signInFailed, .signInFailed, .signInFailed, .signIn, .signInFailed])
        #expect(events.map(\.address) == ["198.51.100.7", "198.51.100.7", "198.51.100.7", "203.0.113.9", "127.0.0.2"])
        #expect(events.map(\.target) == ["kati", "nobody", "mari", "kati", "kati"])
        #expect(
            events.map(\.detail) == [
                "wrong-password (api)", "unknown-user (api)", "no-password (api)", "api", "wrong-password (api)",
            ])
        #expect(events.map(\.actor) == [nil, nil, nil, "kati", nil])
        #expect(events[0].requestID == wrong.headers["x-request-id"])
        #expect(events.allSatisfy { $0.requestID != nil })
        // The password appears nowhere.
        let stored = try String(decoding: JSONEncoder().encode(events), as: UTF8.self)
        #expect(!stored.contains("not-it") && !stored.contains("paprika") && !stored.contains("guess"))
    }

    @Test func webSignInsAndSignOutsAreRecorded() throws {
        let live = try SignInTests.Live()
        #expect(try live.signIn("kati", "wrong").status == 401)
        let signedIn = try live.signIn("kati", "paprika-42")
        #expect(signedIn.status == 303)
        let session = try SignInTests.Live.session(signedIn)
        let page = try live.send("GET", "/", headers: [("Cookie", session)])
        let token = try #require(page.text.firstMatch(of: /name="csrf" value="([^"]+)"/)?.1)
        let out = try live.send(
            "POST", "/signout",
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", session)],
            body: "csrf=\(token)")
        #expect(out.status == 303)
        let events = try Self.events(live.fixture.application)
        #expect(events.map(\.kind) == [.signInFailed, .signIn, .signOut])
        #expect(events.map(\.detail) == ["wrong-password (web)", "web", "web"])
        #expect(events.map(\.actor) == [nil, "kati", "kati"])
        #expect(events.allSatisfy { $0.address == "127.0.0.1" })
    }

    @Test func refusalsAndRoleChangesThroughTheAPIAreRecorded() throws {
        let fixture = try ServerFixture()
        let member = "/api/v1/catalogs/cookbook/members/mari"
        let editor = Array(#"{"role":"editor"}"#.utf8)
        let headers = [("Content-Type", "application/json")]
        // Mari may not manage the catalog; a bad token is no one.
        let refused = try fixture.request(.put, member, headers: headers, body: editor, token: fixture.userToken)
        #expect(refused.status == 403)
        #expect(try fixture.request(.get, "/api/v1/favorites", token: "ctk_nonsense").status == 401)
        #expect(
            try fixture.request(.put, member, headers: headers, body: editor, token: fixture.adminToken).status == 200)
        let owner = Array(#"{"role":"owner"}"#.utf8)
        #expect(
            try fixture.request(.put, member, headers: headers, body: owner, token: fixture.adminToken).status == 200)
        #expect(try fixture.request(.delete, member, token: fixture.adminToken).status == 204)
        #expect(try fixture.request(.delete, member, token: fixture.adminToken).status == 204, "had none: no event")

        let events = try Self.events(fixture.application)
        #expect(
            events.map(\.kind) == [.permissionRefused, .permissionRefused, .roleGranted, .roleGranted, .roleRevoked])
        #expect(events[0].actor == "mari")
        #expect(events[0].catalog == "cookbook")
        #expect(events[0].detail == "403 manageCatalog")
        #expect(events[0].requestID == refused.headers["X-Request-Id"])
        #expect(events[1].actor == nil)
        #expect(events[1].detail == "401 GET /api/v1/favorites")
        #expect(events[2...].allSatisfy { $0.actor == "admin" && $0.catalog == "cookbook" && $0.target == "mari" })
        #expect(events[2...].map(\.detail) == ["editor", "owner (was editor)", "owner"])
    }

    @Test func catalogsMadeChangedAndDeletedAreRecorded() throws {
        let fixture = try ServerFixture()
        let json = [("Content-Type", "application/json")]
        let made = try fixture.request(
            .post, "/api/v1/catalogs", headers: json, body: Array(#"{"id":"pantry","title":"Pantry"}"#.utf8),
            token: fixture.adminToken)
        #expect(made.status == 201, "\(made.text)")
        let changed = try fixture.request(
            .patch, "/api/v1/catalogs/pantry", headers: json, body: Array(#"{"title":"Larder"}"#.utf8),
            token: fixture.adminToken)
        #expect(changed.status == 200, "\(changed.text)")
        #expect(try fixture.request(.delete, "/api/v1/catalogs/pantry", token: fixture.adminToken).status == 204)
        let events = try Self.events(fixture.application)
        #expect(events.map(\.kind) == [.catalogCreated, .catalogChanged, .catalogDeleted])
        #expect(events.allSatisfy { $0.catalog == "pantry" && $0.actor == "admin" })
        #expect(events[1].detail == "definition")
    }

    @Test func visibilityChangesAndKeysAreRecorded() throws {
        let fixture = try ServerFixture()
        let json = [("Content-Type", "application/json")]
        let hidden = try fixture.request(
            .patch, "/api/v1/catalogs/cookbook", headers: json, body: Array(#"{"visibility":"members"}"#.utf8),
            token: fixture.adminToken)
        #expect(hidden.status == 200, "\(hidden.text)")
        let made = try fixture.request(
            .post, "/api/v1/keys", headers: json,
            body: Array(#"{"name":"shop-app","catalogs":["products"],"actions":["read","search"]}"#.utf8),
            token: fixture.adminToken)
        #expect(made.status == 201, "\(made.text)")
        let key = try #require(made.object["token"] as? String)
        #expect(try fixture.request("/api/v1/catalogs/products/items?limit=1", token: key).status == 200)
        #expect(try fixture.request(.delete, "/api/v1/keys/shop-app", token: fixture.adminToken).status == 204)
        let events = try Self.events(fixture.application).filter { $0.kind != .catalogChanged }
        #expect(events.map(\.kind) == [.visibilityChanged, .keyCreated, .keyUsed, .keyRevoked])
        #expect(events.first?.detail == "public => members" && events.first?.catalog == "cookbook")
        #expect(events.dropFirst().allSatisfy { $0.target == "shop-app" })
        #expect(events[2].actor == "admin" && events[2].address != nil)
    }

    @Test func theAPIIsForAdministratorsAndPagesWithACursor() throws {
        let fixture = try ServerFixture()
        for attempt in 0..<5 {
            _ = try fixture.request(
                .post, "/api/v1/signin", headers: [("Content-Type", "application/json")],
                body: Array(Self.credentials("user\(attempt)", "guess").utf8))
        }
        fixture.application.audit.flush()
        #expect(try fixture.request("/api/v1/audit").status == 401)
        let refused = try fixture.request("/api/v1/audit", token: fixture.userToken)
        #expect(refused.status == 403)
        #expect(refused.errorCode == "forbidden")
        // Events are written in the background: what the API reads next is what was written by then.
        fixture.application.audit.flush()

        let first = try fixture.request("/api/v1/audit?kind=sign-in-failed&limit=3", token: fixture.adminToken)
        #expect(first.status == 200)
        #expect(first.headers["Cache-Control"] == "no-store")
        let events = try #require(first.object["events"] as? [[String: Any]])
        #expect(events.map { $0["target"] as? String } == ["user0", "user1", "user2"])
        #expect(events.allSatisfy { $0["kind"] as? String == "sign-in-failed" && $0["requestId"] is String })
        let next = try #require(first.object["next"] as? String)
        let second = try fixture.request(
            "/api/v1/audit?kind=sign-in-failed&limit=3&cursor=\(next)", token: fixture.adminToken)
        #expect((second.object["events"] as? [[String: Any]])?.map { $0["target"] as? String } == ["user3", "user4"])
        #expect(second.object["next"] is NSNull, "the last page")

        // The refusals are events too, and a user's events are theirs by name.
        let mine = try fixture.request("/api/v1/audit?user=MARI&since=1h", token: fixture.adminToken)
        let refusals = try #require(mine.object["events"] as? [[String: Any]])
        #expect(refusals.map { $0["kind"] as? String } == ["permission-refused"])
        #expect(refusals.first?["detail"] as? String == "403 GET /api/v1/audit")
        let future = try fixture.request("/api/v1/audit?since=2999-01-01", token: fixture.adminToken)
        #expect((future.object["events"] as? [Any])?.isEmpty == true)
        for bad in ["since=yesterday", "kind=nope", "kind=sign-in,nope", "limit=0", "limit=1001", "cursor=x"] {
            let answer = try fixture.request("/api/v1/audit?\(bad)", token: fixture.adminToken)
            #expect(answer.status == 400, "\(bad)")
        }
    }

    @Test func theCapStoresSoManyPerMinuteAndCountsWhatItLeftOut() throws {
        let time = Mutex(Date(timeIntervalSince1970: 1_796_000_000))
        let fixture = try ServerFixture { options in
            options.auditClock = AuthClock { time.withLock { $0 } }
            options.auditLimits.perAddressPerMinute = 3
        }
        let audit = fixture.application.audit
        for _ in 0..<10 { audit.record(.signInFailed, address: "192.0.2.7", target: "ada") }
        audit.record(.signInFailed, address: "192.0.2.8", target: "ada")
        #expect(try Self.events(fixture.application).count == 4)
        time.withLock { $0 += 60 }
        audit.record(.signInFailed, address: "192.0.2.7", target: "ada")
        let events = try Self.events(fixture.application)
        #expect(events.count == 6)
        #expect(events[4].kind == .eventsDropped)
        #expect(events[4].address == "192.0.2.7")
        #expect(events[4].detail == "7 sign-in-failed events over the limit per minute")
        #expect(events[5].kind == .signInFailed)
    }

    @Test func pruningRemovesWhatIsOlderThanKept() throws {
        let time = Mutex(Date(timeIntervalSince1970: 1_796_000_000))
        let fixture = try ServerFixture { options in options.auditClock = AuthClock { time.withLock { $0 } } }
        let audit = fixture.application.audit
        audit.record(.userAdded, target: "old")
        time.withLock { $0 += 10 * 86_400 }
        audit.record(.userAdded, target: "new")
        audit.flush()
        #expect(try audit.prune(keeping: 5 * 86_400) == 1)
        #expect(try Self.events(fixture.application).map(\.target) == ["new"])
        #expect(try audit.prune(keeping: 5 * 86_400) == 0)
    }

    @Test func anEventThatCannotBeWrittenIsLoggedAndNeverThrown() throws {
        let fixture = try ServerFixture()
        var options = SQLiteDatabase.Options()
        options.keepsAccounts = false
        let database = try SQLiteDatabase(path: fixture.path, options: options)
        defer { database.close() }
        let lines = LockedLines()
        let audit = AuditLog(database: database, log: { lines.append($0) })
        audit.record(.userAdded, target: "ada")
        audit.close()
        #expect(lines.lines.count == 1)
        #expect(lines.lines.first?.hasPrefix("cannot write 1 audit events: ") == true, "\(lines.lines)")
        audit.record(.userAdded, target: "bob")
        audit.flush()
        #expect(lines.lines.count == 1, "a closed log records nothing")
    }
}
