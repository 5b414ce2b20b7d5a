import CatalogAuth
import CatalogSQLite
import CatalogStorage
import Foundation
import Testing

@Suite struct AuthenticatorTests {
    @Test func aNewUsersTokenSignsThemIn() throws {
        let fixture = try AuthFixture()
        let auth = Authenticator()
        let (ada, token) = try auth.addUser(name: "ada", isAdmin: true, password: nil, in: fixture.store)
        #expect(ada.name == "ada")
        #expect(ada.isAdmin)
        #expect(try auth.user(bearerToken: token, in: fixture.store) == ada)
        let (bob, bobToken) = try auth.addUser(name: "bob", isAdmin: false, password: nil, in: fixture.store)
        #expect(try auth.user(bearerToken: bobToken, in: fixture.store) == bob)
        #expect(!bob.isAdmin)
    }

    @Test func theStoreKeepsOnlyTheSelectorAndAHash() throws {
        let fixture = try AuthFixture()
        let auth = Authenticator(random: CountingRandom().source)
        let (_, token) = try auth.addUser(name: "ada", isAdmin: false, password: nil, in: fixture.store)
        #expect(token == "ctk_AAECAwQFBgcICQoL_DA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKis")
        let credential = try #require(try fixture.store.tokenCredential(selector: "AAECAwQFBgcICQoL"))
        #expect(credential.user.name == "ada")
        #expect(credential.hash.count == 32)
        var file = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
        file += (try? Data(contentsOf: URL(fileURLWithPath: fixture.path + "-wal"))) ?? Data()
        #expect(file.range(of: Data("DA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKis".utf8)) == nil)
        #expect(file.range(of: Data(Array(12..<44))) == nil, "the secret's bytes are nowhere in the file")
    }

    @Test func wrongUnknownAndMalformedTokensSignNobodyIn() throws {
        let fixture = try AuthFixture()
        let auth = Authenticator()
        let (_, token) = try auth.addUser(name: "ada", isAdmin: false, password: nil, in: fixture.store)
        // Same selector, another secret.
        let (_, other) = try auth.addUser(name: "bob", isAdmin: false, password: nil, in: fixture.store)
        let forged = String(token.prefix(21)) + String(other.suffix(43))
        #expect(APIToken.parse(forged) != nil)
        #expect(try auth.user(bearerToken: forged, in: fixture.store) == nil)
        // A well-formed token nobody was issued.
        #expect(try auth.user(bearerToken: APIToken.issue().text, in: fixture.store) == nil)
        for text in APITokenTests.malformed + ["Bearer " + token, token + " ", token.uppercased()] {
            #expect(try auth.user(bearerToken: text, in: fixture.store) == nil)
        }
    }

    @Test func aReplacedTokenStopsWorking() throws {
        let fixture = try AuthFixture()
        let auth = Authenticator()
        let (ada, old) = try auth.addUser(name: "ada", isAdmin: false, password: nil, in: fixture.store)
        let new = try auth.replaceToken(forUser: "ada", in: fixture.store)
        #expect(new != old)
        #expect(try auth.user(bearerToken: old, in: fixture.store) == nil)
        #expect(try auth.user(bearerToken: new, in: fixture.store) == ada)
        #expect {
            try auth.replaceToken(forUser: "nobody", in: fixture.store)
        } throws: { ($0 as? StorageError)?.code == .userNotFound }
    }

    @Test func passwordsSignInOnlyWithTheRightPassword() throws {
        let fixture = try AuthFixture()
        let auth = Authenticator()
        let (ada, _) = try auth.addUser(name: "ada", isAdmin: false, password: "analytical engine", in: fixture.store)
        _ = try auth.addUser(name: "bob", isAdmin: false, password: nil, in: fixture.store)
        #expect(try auth.user(name: "ada", password: "analytical engine", in: fixture.store) == ada)
        #expect(try auth.user(name: "ADA", password: "analytical engine", in: fixture.store) == ada)
        #expect(try auth.user(name: "ada", password: "difference engine", in: fixture.store) == nil)
        #expect(try auth.user(name: "ada", password: "", in: fixture.store) == nil)
        #expect(try auth.user(name: "bob", password: "", in: fixture.store) == nil, "no password: no sign-in")
        #expect(try auth.user(name: "bob", password: "anything", in: fixture.store) == nil)
        #expect(try auth.user(name: "carol", password: "analytical engine", in: fixture.store) == nil)
        #expect(try auth.user(name: "' OR 1=1 --", password: "x", in: fixture.store) == nil)

        try auth.setPassword("difference engine", forUser: "ada", in: fixture.store)
        #expect(try auth.user(name: "ada", password: "analytical engine", in: fixture.store) == nil)
        #expect(try auth.user(name: "ada", password: "difference engine", in: fixture.store) == ada)
        try auth.setPassword(nil, forUser: "ada", in: fixture.store)
        #expect(try auth.user(name: "ada", password: "difference engine", in: fixture.store) == nil)
        #expect(throws: AuthError.self) { try auth.setPassword("", forUser: "ada", in: fixture.store) }
        #expect(throws: AuthError.self) {
            try auth.addUser(name: "carol", isAdmin: false, password: "", in: fixture.store)
        }
        #expect(try fixture.store.user(named: "carol") == nil, "a refused password creates no account")
    }

    @Test func unknownNamesCostAPasswordCheckToo() throws {
        let fixture = try AuthFixture()
        let auth = Authenticator()
        _ = try auth.addUser(name: "ada", isAdmin: false, password: "analytical engine", in: fixture.store)
        _ = try auth.user(name: "nobody", password: "warm-up", in: fixture.store)  // makes the dummy hash
        // The CPU time of the calling thread, not the wall clock: on a busy machine a check may
        // wait for a core for longer than it computes, and the comparison is of the work done.
        func fastest(_ name: String) -> Duration {
            (0..<3).map { _ in
                threadCPUTime { _ = try? auth.user(name: name, password: "wrong", in: fixture.store) }
            }.min()!
        }
        let known = fastest("ada")
        let unknown = fastest("nobody")
        let invalid = fastest("not a valid name")
        // Each runs one argon2id check (tens of milliseconds); without the dummy check an unknown
        // name would answer in microseconds.
        #expect(unknown > known / 4, "known \(known), unknown \(unknown)")
        #expect(invalid > known / 4, "known \(known), invalid \(invalid)")
    }

    @Test func sessionsLastTheirLifetimeOnTheInjectedClock() throws {
        let fixture = try AuthFixture()
        let clock = TestClock()
        let auth = Authenticator(clock: clock.authClock)
        let (ada, _) = try auth.addUser(name: "ada", isAdmin: false, password: "pw", in: fixture.store)
        let cookie = try auth.startSession(for: ada, in: fixture.store, lifetime: .seconds(3600))
        #expect(cookie.hasPrefix("cts_"))
        #expect(cookie.utf8.count == 64)
        #expect(APIToken.parse(cookie) == nil, "a session cookie is not an API token")
        #expect(try auth.user(bearerToken: cookie, in: fixture.store) == nil)
        #expect(try auth.user(sessionCookie: cookie, in: fixture.store) == ada)
        let selector = String(cookie.dropFirst(4).prefix(16))
        #expect(try fixture.store.sessionCredential(selector: selector)?.expires == "2023-11-14T23:13:20Z")
        clock.advance(seconds: 3599)
        #expect(try auth.user(sessionCookie: cookie, in: fixture.store) == ada)
        clock.advance(seconds: 1)
        #expect(try auth.user(sessionCookie: cookie, in: fixture.store) == nil)
        // The next sign-in sweeps expired sessions away.
        let next = try auth.startSession(for: ada, in: fixture.store, lifetime: .seconds(60))
        #expect(try fixture.store.sessionCredential(selector: selector) == nil)
        #expect(try auth.user(sessionCookie: next, in: fixture.store) == ada)
        #expect(throws: AuthError.self) { try auth.startSession(for: ada, in: fixture.store, lifetime: .zero) }
        #expect(throws: AuthError.self) {
            try auth.startSession(for: ada, in: fixture.store, lifetime: .milliseconds(500))
        }
    }

    @Test func cookiesAreExactWithInjectedRandomness() throws {
        let fixture = try AuthFixture()
        let auth = Authenticator(clock: TestClock().authClock, random: CountingRandom().source)
        let (ada, _) = try auth.addUser(name: "ada", isAdmin: false, password: nil, in: fixture.store)
        let cookie = try auth.startSession(for: ada, in: fixture.store)
        #expect(cookie == "cts_LC0uLzAxMjM0NTY3_ODk6Ozw9Pj9AQUJDREVGR0hJSktMTU5PUFFSU1RVVlc")
        let session = try #require(try fixture.store.sessionCredential(selector: "LC0uLzAxMjM0NTY3"))
        #expect(session.expires == "2023-12-14T22:13:20Z", "30 days by default")
    }

    @Test func signingOutEndsOnlyThatSession() throws {
        let fixture = try AuthFixture()
        let auth = Authenticator()
        let (ada, _) = try auth.addUser(name: "ada", isAdmin: false, password: "pw", in: fixture.store)
        let laptop = try auth.startSession(for: ada, in: fixture.store)
        let phone = try auth.startSession(for: ada, in: fixture.store)
        // A cookie with the right selector but a wrong secret ends nothing.
        let other = try auth.startSession(for: ada, in: fixture.store)
        try auth.endSession(cookie: String(laptop.prefix(21)) + String(other.suffix(43)), in: fixture.store)
        #expect(try auth.user(sessionCookie: laptop, in: fixture.store) == ada)
        try auth.endSession(cookie: laptop, in: fixture.store)
        try auth.endSession(cookie: "garbage", in: fixture.store)
        #expect(try auth.user(sessionCookie: laptop, in: fixture.store) == nil)
        #expect(try auth.user(sessionCookie: phone, in: fixture.store) == ada)
        for text in ["", "cts_", phone + "A", String(phone.dropLast()) + "!", "ctk" + phone.dropFirst(3)] {
            #expect(try auth.user(sessionCookie: text, in: fixture.store) == nil)
        }
    }

    @Test func changingThePasswordEndsEverySession() throws {
        let fixture = try AuthFixture()
        let auth = Authenticator()
        let (ada, _) = try auth.addUser(name: "ada", isAdmin: false, password: "pw", in: fixture.store)
        let cookie = try auth.startSession(for: ada, in: fixture.store)
        try auth.setPassword("new password", forUser: "ada", in: fixture.store)
        #expect(try auth.user(sessionCookie: cookie, in: fixture.store) == nil)
    }

    @Test func aRemovedUserSignsInNoMore() throws {
        let fixture = try AuthFixture()
        let auth = Authenticator()
        let (ada, token) = try auth.addUser(name: "ada", isAdmin: false, password: "pw", in: fixture.store)
        let cookie = try auth.startSession(for: ada, in: fixture.store)
        #expect(try fixture.store.removeUser(named: "ada"))
        #expect(try auth.user(bearerToken: token, in: fixture.store) == nil)
        #expect(try auth.user(sessionCookie: cookie, in: fixture.store) == nil)
        #expect(try auth.user(name: "ada", password: "pw", in: fixture.store) == nil)
        #expect {
            try auth.startSession(for: ada, in: fixture.store)
        } throws: { ($0 as? StorageError)?.code == .userNotFound }
    }
}

/// The CPU time the calling thread spends in `body` (which must not suspend).
private func threadCPUTime(_ body: () -> Void) -> Duration {
    func now() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
    let start = now()
    body()
    return now() - start
}
