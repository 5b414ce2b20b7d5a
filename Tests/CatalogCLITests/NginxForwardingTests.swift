import CatalogTestSupport
import Foundation
import Testing

/// `catalog serve --trusted-proxy 127.0.0.1/32` behind nginx with the documented configuration
/// (docs/nginx/catalog.conf): clients at different addresses are told apart through nginx's
/// `X-Forwarded-For`, at sign-in and in the access log.
@Suite(.serialized, .enabled(if: NginxProcess.isInstalled, "needs nginx (nginx-light)"))
struct NginxForwardingTests {
    /// One request through nginx at `port`, from the loopback address `source`.
    static func send(
        _ method: String, _ target: String, port: Int, from source: String, headers: [(String, String)] = [],
        body: String = ""
    ) throws -> RawClient.Reply {
        let client = RawClient(port: port)
        let socket = try client.connect(from: source)
        defer { close(socket) }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if method == "POST" { head += "Content-Length: \(body.utf8.count)\r\n" }
        RawClient.sendAll(Array((head + "\r\n" + body).utf8), on: socket)
        return RawClient.parse(client.readUntilClosed(socket, timeout: 30).bytes)
    }

    @Test func clientsBehindNginxAreThrottledApart() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)
        #expect(try cli.run(["user", "add", "ada"]).status == 0)
        #expect(try cli.run(["user", "password", "ada"], input: "proxied\n").status == 0)
        let server = try ServeProcess(
            database: cli.database, arguments: ["--trusted-proxy", "127.0.0.1/32"],
            log: cli.directory.appendingPathComponent("serve.log"))
        defer { server.stop() }
        let nginx = try NginxProcess(first: server.port, second: server.port, directory: cli.directory)
        defer { nginx.stop() }
        let port = nginx.port
        #expect(
            waitUntil(timeout: 10) { (try? Self.send("GET", "/healthz", port: port, from: "127.0.0.1").status) == 200 })

        /// A sign-in through nginx from `source`; a spoofed X-Forwarded-For that nginx replaces.
        func signIn(_ name: String, _ password: String, from source: String) throws -> Int {
            let form = try Self.send("GET", "/signin", port: port, from: source)
            let pair = try #require(form.headers["set-cookie"]?.split(separator: ";").first)
            let token = try #require(pair.split(separator: "=", maxSplits: 1).last)
            return try Self.send(
                "POST", "/signin", port: port, from: source,
                headers: [
                    ("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", String(pair)),
                    ("X-Forwarded-For", "127.0.0.3"),
                ],
                body: "csrf=\(token)&name=\(name)&password=\(password)&next=%2F"
            ).status
        }
        // 127.0.0.2 guesses at many accounts (one guess each, so no account is locked) until its
        // address is held; 127.0.0.3 signs in meanwhile. Locks start at a second and double, so
        // the round repeats until the guesser was still held after the other signed in.
        var provedApart = false
        var guess = 0
        for _ in 0..<4 where !provedApart {
            var held = false
            while !held && guess < 60 {
                held = try signIn("victim\(guess)", "wrong", from: "127.0.0.2") == 429
                guess += 1
            }
            #expect(held, "the guesser is held after \(guess) guesses")
            #expect(try signIn("ada", "proxied", from: "127.0.0.3") == 303, "the other client is not")
            provedApart = try signIn("ada", "proxied", from: "127.0.0.2") == 429
        }
        #expect(provedApart, "the guesser was held while the other signed in")
        // The access log names each client, not nginx.
        let log = try String(contentsOf: server.log, encoding: .utf8)
        #expect(log.contains(" 127.0.0.2 POST /signin"))
        #expect(log.contains(" 127.0.0.3 POST /signin"))
        #expect(!log.contains(" 127.0.0.1 POST /signin"), "every sign-in came through nginx for a client")
    }
}
