import CatalogAuth
import CatalogHTTP
import CatalogSQLite
import CatalogTestSupport
import Foundation
import Synchronization
import Testing

@testable import CatalogServer

/// Sign-in and sessions against a live server: throttling, password checks off the workers,
/// Secure cookies, CSRF tokens bound to the session, and Host never reflected.
@Suite struct SignInTests {
    /// The fixture's application behind a live server on a loopback port, configured as
    /// `catalog serve` configures it.
    final class Live: @unchecked Sendable {
        // @unchecked: after init, threads only call `send` and the sign-in helpers, which use the
        // immutable port and sockets of their own; the fixture is touched by the test's thread.
        let fixture: ServerFixture
        let server: HTTPServer
        var port: Int { server.port }

        init(
            threads: Int = 2, options: (inout CatalogServerOptions) -> Void = { _ in },
            configure: (inout ServerConfiguration) -> Void = { _ in }
        ) throws {
            fixture = try ServerFixture(options)
            let users = try SQLiteUserStore(path: fixture.usersPath)
            _ = try Authenticator().addUser(name: "kati", isAdmin: false, password: "paprika-42", in: users)
            users.close()
            var configuration = ServerConfiguration()
            configuration.port = 0
            configuration.threads = threads
            fixture.application.configure(&configuration)
            configure(&configuration)
            server = HTTPServer(configuration: configuration, responder: fixture.application.responder, log: { _ in })
            try server.start()
            fixture.application.listening(on: "http://127.0.0.1:\(server.port)")
        }

        deinit { server.shutdown() }

        /// One request from `source`, with `Connection: close`.
        func send(
            _ method: String, _ target: String, from source: String = "127.0.0.1", headers: [(String, String)] = [],
            body: String = ""
        ) throws -> RawClient.Reply {
            let client = RawClient(port: port)
            let socket = try client.connect(from: source)
            defer { close(socket) }
            var head = "\(method) \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.utf8.count)\r\n" }
            let bytes = Array((head + "\r\n" + body).utf8)
            _ = bytes.withUnsafeBytes { Foundation.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            return RawClient.parse(client.readUntilClosed(socket, timeout: 10).bytes)
        }

        /// The sign-in form's CSRF token and cookie, fetched from `source`.
        func form(from source: String = "127.0.0.1") throws -> (token: String, cookie: String) {
            let page = try send("GET", "/signin", from: source)
            let setCookie = try #require(page.headers["set-cookie"])
            let pair = try #require(setCookie.split(separator: ";").first)
            return (String(pair.split(separator: "=")[1]), String(pair))
        }

        /// Every `Set-Cookie` value of a reply, in order.
        static func setCookies(_ reply: RawClient.Reply) -> [String] {
            let head = String(decoding: reply.raw, as: UTF8.self).components(separatedBy: "\r\n\r\n")[0]
            return head.components(separatedBy: "\r\n").filter { $0.lowercased().hasPrefix("set-cookie:") }.map {
                String($0.dropFirst("set-cookie:".count)).trimmingCharacters(in: .whitespaces)
            }
        }

        /// The `catalog_session=…` pair a sign-in set.
        static func session(_ reply: RawClient.Reply) throws -> String {
            let cookie = try #require(setCookies(reply).first { $0.hasPrefix("catalog_session=cts_") })
            return String(cookie.split(separator: ";")[0])
        }

        /// Posts the sign-in form.
        func signIn(
            _ name: String, _ password: String, from source: String = "127.0.0.1",
            form: (token: String, cookie: String)? = nil
        ) throws -> RawClient.Reply {
            let (token, cookie) = try form ?? self.form(from: source)
            return try send(
                "POST", "/signin", from: source,
                headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", cookie)],
                body: "csrf=\(token)&name=\(name)&password=\(password)&next=%2F")
        }
    }

    @Test func wrongPasswordsAreThrottledWith429AndTheWait() throws {
        let live = try Live()
        let form = try live.form()
        var statuses: [Int] = []
        var hashed = 0
        let started = ContinuousClock.now
        for _ in 0..<200 {
            let attemptStarted = ContinuousClock.now
            let reply = try live.signIn("kati", "wrong", form: form)
            statuses.append(reply.status)
            if reply.status == 429 {
                let wait = try #require(Int(reply.headers["retry-after"] ?? ""))
                #expect(wait >= 1 && wait <= 900)
                #expect(reply.text.contains("Too many failed sign-ins. Try again in"))
            } else if ContinuousClock.now - attemptStarted > .milliseconds(20) {
                hashed += 1
            }
        }
        #expect(statuses.prefix(5) == [401, 401, 401, 401, 401])
        #expect(statuses.filter { $0 == 429 }.count >= 190, "\(statuses)")
        #expect(hashed <= 10, "a locked sign-in is refused before any password is hashed")
        #expect(ContinuousClock.now - started < .seconds(30))
        // The right password right after is refused too: the account is locked, not the guess.
        let right = try live.signIn("kati", "paprika-42", form: form)
        #expect(right.status == 429)
        #expect(right.headers["location"] == nil)
    }

    @Test func successesOfOneAccountDoNotBuyGuessesAtOthers() throws {
        // A lock long enough that no guess after the address's free failures gets through on a
        // loaded machine.
        let live = try Live(options: { $0.signInPolicy.firstLock = 120 })
        let form = try live.form()
        var statuses: [Int] = []
        for guess in 0..<95 {
            // Five guesses per name stay within each account's free failures: only the address
            // can stop them.
            statuses.append(try live.signIn("victim\(guess / 5)", "guess\(guess)", form: form).status)
            if guess % 4 == 3 { _ = try live.signIn("kati", "paprika-42", form: form) }
        }
        #expect(statuses.prefix(20).allSatisfy { $0 == 401 }, "\(statuses)")
        #expect(statuses.filter { $0 == 429 }.count >= 70, "\(statuses)")
        #expect(try live.signIn("kati", "paprika-42", form: form).status == 429, "the address is held")
        #expect(try live.signIn("kati", "paprika-42", from: "127.0.0.5").status == 303, "others are not")
    }

    @Test func clientsBehindATrustedProxyAreThrottledApartAndOthersHeadersIgnored() throws {
        let loopback = try AddressRange("127.0.0.1/32")
        let live = try Live(
            options: {
                $0.signInPolicy.firstLock = 120
                $0.signInPolicy.freeFailuresPerAddress = 3
            },
            configure: { $0.trustedProxies = [loopback] })
        let form = try live.form()
        /// A sign-in through the proxy at 127.0.0.1 (or from `peer`) for the client it names.
        func signIn(_ name: String, _ password: String, as client: String, peer: String = "127.0.0.1") throws
            -> RawClient.Reply
        {
            try live.send(
                "POST", "/signin", from: peer,
                headers: [
                    ("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", form.cookie),
                    ("X-Forwarded-For", "192.0.2.200, \(client)"), ("X-Forwarded-Proto", "https"),
                ],
                body: "csrf=\(form.token)&name=\(name)&password=\(password)&next=%2F")
        }
        // One forwarded client guesses at several accounts until its address is held.
        for guess in 0..<5 { _ = try signIn("victim\(guess)", "guess", as: "198.51.100.7") }
        #expect(try signIn("kati", "paprika-42", as: "198.51.100.7").status == 429, "the guesser is held")
        // Another client behind the same proxy is not.
        let other = try signIn("kati", "paprika-42", as: "203.0.113.9")
        #expect(other.status == 303)
        #expect(Live.setCookies(other).allSatisfy { $0.hasSuffix("; Secure") }, "the proxy said https")
        // A peer that is no trusted proxy is held by its own address, whatever it forwards.
        for guess in 0..<5 { _ = try signIn("victim\(guess)", "guess", as: "198.51.100.8", peer: "127.0.0.2") }
        #expect(try signIn("kati", "paprika-42", as: "203.0.113.10", peer: "127.0.0.2").status == 429)
        let direct = try signIn("kati", "paprika-42", as: "198.51.100.7", peer: "127.0.0.3")
        #expect(direct.status == 303, "its forwarded address is not the held one")
        #expect(!Live.setCookies(direct).contains { $0.contains("Secure") }, "nor its scheme")
    }

    @Test func aRealUserIsNeverLockedOutForGood() throws {
        let time = Mutex(Date())
        let live = try Live(options: {
            $0.signInClock = AuthClock { time.withLock { $0 } }
            $0.signInPolicy.firstLock = 0.2
            $0.signInPolicy.longestAccountLock = 1
            $0.signInPolicy.longestAddressLock = 1
        })
        // Kati signed in from her address before.
        #expect(try live.signIn("kati", "paprika-42", from: "127.0.0.2").status == 303)
        // Someone else guesses, from another address, without pause.
        for _ in 0..<30 { _ = try live.signIn("kati", "guess", from: "127.0.0.3") }
        #expect(try live.signIn("kati", "guess", from: "127.0.0.3").status == 429)
        #expect(try live.signIn("kati", "paprika-42", from: "127.0.0.4").status == 429, "held elsewhere")
        // From her own address she is not held by the account's lock.
        #expect(try live.signIn("kati", "paprika-42", from: "127.0.0.2").status == 303)
        // Anywhere else, the lock ends after its ceiling.
        for _ in 0..<30 { _ = try live.signIn("kati", "guess", from: "127.0.0.3") }
        time.withLock { $0 += 1.1 }
        #expect(try live.signIn("kati", "paprika-42", from: "127.0.0.4").status == 303)
    }

    @Test func passwordChecksDoNotHoldUpOtherRequests() throws {
        // One event-loop worker: if it hashed passwords itself, every read would wait behind them.
        let live = try Live(threads: 1)
        let form = try live.form()
        let port = live.port
        let signIns = LockedLines()
        let flood = (0..<8).map { index in
            Thread {
                for _ in 0..<3 {
                    let reply = try? live.signIn("kati", "paprika-42", form: form)
                    signIns.append("\(reply?.status ?? 0)")
                }
                _ = index
            }
        }
        flood.forEach { $0.start() }
        #expect(waitUntil { live.server.requestsInFlight > 0 || !signIns.lines.isEmpty })
        var latencies: [Duration] = []
        let client = RawClient(port: port)
        while signIns.lines.count < 24 && latencies.count < 400 {
            let started = ContinuousClock.now
            #expect(try client.request("GET", "/api/v1/catalogs").status == 200)
            latencies.append(ContinuousClock.now - started)
        }
        #expect(signIns.wait(forCount: 24))
        #expect(signIns.lines.allSatisfy { $0 == "303" }, "\(signIns.lines)")
        let sorted = latencies.sorted()
        let median = sorted[sorted.count / 2]
        #expect(latencies.count >= 10)
        #expect(median < .milliseconds(25), "median read during the flood: \(median)")
    }

    @Test func everySpellingOfTheSignInPathIsOffloaded() throws {
        let fixture = try ServerFixture()
        var configuration = ServerConfiguration()
        fixture.application.configure(&configuration)
        let options = try #require(configuration.routeOptions)
        #expect(configuration.offloadLanes.contains { $0.name == "passwords" })
        // What the server does with a request once its head is in: its route's lane, if it admits it.
        func offload(_ request: Request) -> Bool {
            guard let lane = options(request.method, request.segments).lane else { return false }
            return lane.name == "passwords" && (lane.admits?(request) ?? true)
        }
        for target in ["/signin", "//signin", "/signin/", "/signin?next=%2F"] {
            #expect(offload(Request(method: .post, target: target)!), "\(target)")
        }
        #expect(!offload(Request(method: .get, target: "/signin")!))
        #expect(!offload(Request(method: .post, target: "/signout")!))
    }

    @Test func theQueueOfPasswordChecksIsBounded() throws {
        let live = try Live(configure: { $0.offloadLanes[0].queueLimit = 1 })
        let form = try live.form()
        let results = LockedLines()
        let threads = (0..<12).map { _ in
            Thread {
                let reply = try? live.signIn("kati", "paprika-42", form: form)
                results.append("\(reply?.status ?? 0) \(reply?.headers["retry-after"] ?? "-")")
            }
        }
        threads.forEach { $0.start() }
        #expect(results.wait(forCount: 12))
        let busy = results.lines.filter { $0.hasPrefix("503") }
        #expect(!busy.isEmpty, "\(results.lines)")
        #expect(busy.allSatisfy { $0 == "503 1" })
        #expect(results.lines.allSatisfy { $0.hasPrefix("503") || $0.hasPrefix("303") })
    }

    @Test func cookiesAreSecureBehindAnHTTPSPublicURL() throws {
        let secure = try Live(options: { $0.publicURL = "https://catalog.example" })
        let form = try secure.form()
        #expect(form.cookie.hasPrefix("catalog_csrf="))
        let page = try secure.send("GET", "/signin")
        #expect(page.headers["set-cookie"]?.hasSuffix("; Secure") == true)
        let signedIn = try secure.signIn("kati", "paprika-42", form: form)
        #expect(signedIn.status == 303)
        let cookies = Live.setCookies(signedIn)
        #expect(cookies.count == 2)
        #expect(cookies.allSatisfy { $0.contains("; Secure") }, "\(cookies)")
        #expect(cookies.first?.contains("catalog_session=cts_") == true)

        let plain = try Live()
        let plainCookie = try #require(try plain.send("GET", "/signin").headers["set-cookie"])
        #expect(!plainCookie.contains("Secure"))
    }

    @Test func csrfTokensAreBoundToTheSession() throws {
        let live = try Live()
        let form = try live.form()
        // A cookie-and-field pair the attacker chose is refused.
        let chosen = String(repeating: "A", count: 43)
        let forged = try live.send(
            "POST", "/signin",
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", "catalog_csrf=\(chosen)")],
            body: "csrf=\(chosen)&name=kati&password=paprika-42")
        #expect(forged.status == 403)
        let signedIn = try live.signIn("kati", "paprika-42", form: form)
        #expect(signedIn.status == 303)
        let session = try Live.session(signedIn)
        let cookies = "\(form.cookie); \(session)"
        let page = try live.send("GET", "/c/cookbook/i/r01", headers: [("Cookie", cookies)])
        let bound = try #require(page.text.firstMatch(of: /name="csrf" value="([A-Za-z0-9_-]+)"/)?.1)
        #expect(String(bound) != form.token, "rotated at sign-in")
        func favorite(_ token: String, cookie: String) throws -> Int {
            try live.send(
                "POST", "/c/cookbook/i/r01/favorite",
                headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", cookie)],
                body: "csrf=\(token)&favorite=1"
            ).status
        }
        #expect(try favorite(form.token, cookie: cookies) == 403, "the token from before sign-in")
        #expect(try favorite(chosen, cookie: "catalog_csrf=\(chosen); \(session)") == 403, "an attacker's pair")
        #expect(try favorite(String(bound), cookie: cookies) == 303)
        // Another session's token does not fit this one.
        let other = try live.signIn("kati", "paprika-42")
        let otherSession = try Live.session(other)
        #expect(try favorite(String(bound), cookie: otherSession) == 403)
    }

    @Test func hostIsNeverReflectedIntoAbsoluteURLs() throws {
        let live = try Live()
        for host in ["evil.example", "evil.example:8080", "localhost.evil.example"] {
            let client = RawClient(port: live.port)
            let raw = try client.exchange(
                Array("GET /gethots HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8), timeout: 5)
            let text = RawClient.parse(raw).text
            #expect(
                text.contains("\"imageurl\":\"http://127.0.0.1:\(live.port)/images/"), "\(host): \(text.prefix(300))")
            #expect(!text.contains("evil"), "\(host)")
        }
        let named = try Live(options: { $0.hostNames = ["cook.example"] })
        let raw = try RawClient(port: named.port).exchange(
            Array("GET /gethots HTTP/1.1\r\nHost: cook.example:8080\r\nConnection: close\r\n\r\n".utf8), timeout: 5)
        #expect(RawClient.parse(raw).text.contains("\"imageurl\":\"http://cook.example:8080/images/"))
    }
}
