import CatalogImport
import CatalogModel
import CatalogSupport
import CatalogTestSupport
import Foundation
import Testing

/// The fetcher against a hostile server of our own on 127.0.0.1: compressed bombs, slow drips,
/// redirects to other local ports and to private addresses, credentials in URLs.
@Suite struct HostileFeedTests {
    /// A 200 with these headers, then `body` until the client goes away.
    private static func head(_ headers: [String]) -> String {
        (["HTTP/1.1 200 OK"] + headers + ["Connection: close", "", ""]).joined(separator: "\r\n")
    }

    /// A compressed stream that never ends: every MB of zeros it decodes to costs about 1 KB.
    private static func endlessBomb(_ framing: Compression.Framing, encoding: String) -> LoopbackHTTPServer.Reply {
        let segment = Compression.segment(of: [UInt8](repeating: 0, count: 1 << 20))
        return .custom { connection in
            guard connection.send(head(["Content-Type: application/xml", "Content-Encoding: \(encoding)"])),
                connection.send(framing.header)
            else { return }
            while connection.send(segment) {}
        }
    }

    private static func fetchError(_ url: String, _ options: SourceFetcher.Options) -> ImportError? {
        importError { _ = try SourceFetcher().fetchBlocking(url, options: options) }
    }

    @Test(arguments: [
        (Compression.Framing.gzip, "gzip"), (.zlib, "deflate"), (.raw, "deflate"), (.gzip, "x-gzip"),
    ])
    func endlessBombsStopAtTheLimit(_ framing: Compression.Framing, _ encoding: String) throws {
        let server = try LoopbackHTTPServer(routes: ["/bomb.xml": Self.endlessBomb(framing, encoding: encoding)])
        defer { server.stop() }
        // A generous deadline: only the decoded-size limit can end this download.
        let options = SourceFetcher.Options(timeout: 120, deadline: 600, maxBytes: 4 << 20)
        let error = try #require(Self.fetchError(server.baseURL + "/bomb.xml", options))
        #expect(error.code == .tooLarge)
        #expect(error.message == "cannot download \(server.baseURL)/bomb.xml: larger than 4 MB (--max-download-mb)")
        #expect(server.requestHeaders.first?["accept-encoding"] == "gzip, deflate")
    }

    @Test func finiteBombWithContentLength() throws {
        // 16 times the limit (kept small: the suites beside it measure the process's memory).
        let bomb = Compression.compress([UInt8](repeating: 0, count: 16 << 20), .gzip)
        let server = try LoopbackHTTPServer(routes: [
            "/bomb.csv": .custom { connection in
                connection.send(Self.head(["Content-Encoding: gzip", "Content-Length: \(bomb.count)"]))
                connection.send(bomb)
            }
        ])
        defer { server.stop() }
        let error = try #require(
            Self.fetchError(server.baseURL + "/bomb.csv", SourceFetcher.Options(maxBytes: 1 << 20)))
        #expect(error.code == .tooLarge)
        #expect(TemporaryFiles.registeredPaths.allSatisfy { !$0.hasSuffix(".csv") })
    }

    @Test(arguments: [
        ("gzip", Compression.compress(Array(sequencerFeed.utf8), .gzip)),
        ("deflate", Compression.compress(Array(sequencerFeed.utf8), .zlib)),
        ("deflate", Compression.compress(Array(sequencerFeed.utf8), .raw)),
        (
            "gzip",
            Compression.compress(Array(sequencerFeed.utf8.prefix(100)), .gzip)
                + Compression.compress(Array(sequencerFeed.utf8.dropFirst(100)), .gzip)
        ),
    ])
    func compressedFeedsAreDecoded(_ encoding: String, _ body: [UInt8]) async throws {
        let server = try LoopbackHTTPServer(routes: [
            "/feed.xml": .custom { connection in
                connection.send(Self.head(["Content-Encoding: \(encoding)", "Content-Length: \(body.count)"]))
                connection.send(body)
            }
        ])
        defer { server.stop() }
        let fetched = try await SourceFetcher().fetch(server.baseURL + "/feed.xml", timeout: 10)
        #expect(try Data(contentsOf: fetched.fileURL) == Data(sequencerFeed.utf8))
        #expect(fetched.byteCount == Int64(sequencerFeed.utf8.count))
        let records = try readAll(XMLRecordReader(fileURL: fetched.fileURL, sourceName: fetched.displayName))
        #expect(records.count == 3)
    }

    @Test func undecodableBodiesAreClearErrors() throws {
        let gzip = Compression.compress(Array(sequencerFeed.utf8), .gzip)
        let truncated = Array(gzip.prefix(gzip.count / 2))
        let server = try LoopbackHTTPServer(routes: [
            "/br.xml": .custom { $0.send(Self.head(["Content-Encoding: br"]) + "not really brotli") },
            "/corrupt.xml": .custom { $0.send(Self.head(["Content-Encoding: gzip"]) + "this is not gzip at all") },
            "/truncated.xml": .custom { connection in
                connection.send(Self.head(["Content-Encoding: gzip", "Content-Length: \(truncated.count)"]))
                connection.send(truncated)
            },
        ])
        defer { server.stop() }
        let cases = [
            ("/br.xml", "Content-Encoding \"br\" is not supported"), ("/corrupt.xml", "the compressed body is corrupt"),
            ("/truncated.xml", "the compressed body ends early"),
        ]
        for (path, reason) in cases {
            let url = server.baseURL + path
            let error = try #require(Self.fetchError(url, SourceFetcher.Options(timeout: 10)))
            #expect(error.code == .io)
            #expect(error.message.hasPrefix("cannot download \(url): "), "\(error.message)")
            #expect(error.message.contains(reason), "\(error.message)")
        }
    }

    @Test func slowCompressedDripStopsAtTheDeadline() throws {
        let gzip = Compression.compress(Array(sequencerFeed.utf8), .gzip)
        let server = try LoopbackHTTPServer(routes: [
            "/drip.xml": .custom { connection in
                guard connection.send(Self.head(["Content-Encoding: gzip"])) else { return }
                // One byte every 0.3 s never trips the 1 s silence timeout.
                for byte in gzip {
                    Thread.sleep(forTimeInterval: 0.3)
                    guard connection.send([byte]) else { return }
                }
            }
        ])
        defer { server.stop() }
        let error = try #require(
            Self.fetchError(server.baseURL + "/drip.xml", SourceFetcher.Options(timeout: 1, deadline: 2)))
        #expect(error.code == .io)
        #expect(error.message.contains("timed out after 2 s (the whole download)"), "\(error.message)")
        #expect(gzip.count > 20)  // the drip would last longer than the deadline
    }

    @Test func cancellingTheTaskStopsTheDownloadAtOnce() async throws {
        let (requested, arrival) = AsyncStream.makeStream(of: Void.self)
        let server = try LoopbackHTTPServer(routes: [
            "/hang.xml": .custom { connection in
                arrival.yield()
                connection.waitForClose()
            }
        ])
        defer { server.stop() }
        let url = server.baseURL + "/hang.xml"
        let download = Task { () -> ImportError? in
            do throws(ImportError) {
                _ = try await SourceFetcher().fetch(url, options: SourceFetcher.Options(timeout: 300, deadline: 300))
                return nil
            } catch {
                return error
            }
        }
        for await _ in requested { break }
        download.cancel()
        let error = try #require(await download.value)
        #expect(error.message == "cannot download \(url): cancelled")
    }

    // MARK: - Redirects

    @Test func redirectToAnotherLocalPortIsRefused() throws {
        let other = try LoopbackHTTPServer(routes: ["/secret.xml": .status(200, body: sequencerFeed)])
        defer { other.stop() }
        let server = try LoopbackHTTPServer(routes: [
            "/feed.xml": .redirect(to: other.baseURL + "/secret.xml"),
            "/by-name.xml": .redirect(to: "http://localhost:\(other.port)/secret.xml"),
        ])
        defer { server.stop() }
        for (path, target) in [
            ("/feed.xml", other.baseURL + "/secret.xml"), ("/by-name.xml", "http://localhost:\(other.port)/secret.xml"),
        ] {
            let url = server.baseURL + path
            let error = try #require(Self.fetchError(url, SourceFetcher.Options(timeout: 10)))
            #expect(error.code == .io)
            #expect(error.message.hasPrefix("cannot download \(url): refused the redirect to \(target), "))
            #expect(error.message.contains("a loopback address"), "\(error.message)")
            #expect(error.message.contains("--allow-private-fetch"))
            #expect(error.location.source == url)
        }
        // Nothing reached the other port, not even a connection's request.
        #expect(other.requestedPaths.isEmpty)

        // Allowed, it is followed.
        let allowed = try SourceFetcher().fetchBlocking(
            server.baseURL + "/feed.xml", options: SourceFetcher.Options(timeout: 10, allowPrivate: true))
        guard case .file(let fetched) = allowed else {
            Issue.record("expected the feed")
            return
        }
        #expect(try Data(contentsOf: fetched.fileURL) == Data(sequencerFeed.utf8))
        #expect(other.requestedPaths == ["/secret.xml"])
    }

    @Test(arguments: [
        "http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/feed.xml", "http://[::1]:9/feed.xml",
        "http://192.168.1.1/", "http://172.16.0.1/", "http://100.64.0.1/", "http://0.0.0.0:9/",
        "http://[fd00::1]/", "http://[fe80::1]/", "http://[::ffff:127.0.0.1]:9/", "http://224.0.0.1/",
        "http://2130706433:9/", "https://10.1.2.3/feed.xml",
    ])
    func redirectsToPrivateAddressesAreRefused(_ target: String) throws {
        let server = try LoopbackHTTPServer(routes: ["/feed.xml": .redirect(to: target)])
        defer { server.stop() }
        let url = server.baseURL + "/feed.xml"
        let error = try #require(Self.fetchError(url, SourceFetcher.Options(timeout: 10)))
        #expect(error.code == .io)
        #expect(error.message.hasPrefix("cannot download \(url): refused the redirect to "), "\(error.message)")
        #expect(error.message.contains("--allow-private-fetch"))
        #expect(server.requestedPaths == ["/feed.xml"])
    }

    @Test func redirectChains() throws {
        let server = try LoopbackHTTPServer(routes: [
            "/a": .redirect(to: "/b"), "/b": .redirect(to: "c"), "/c": .redirect(to: "/feed.xml?v=2"),
            "/feed.xml": .status(200, body: sequencerFeed), "/loop": .redirect(to: "/loop"),
            "/ftp": .redirect(to: "ftp://127.0.0.1/feed.xml"), "/file": .redirect(to: "file:///etc/passwd"),
        ])
        defer { server.stop() }
        guard case .file(let fetched) = try SourceFetcher().fetchBlocking(server.baseURL + "/a", options: .init())
        else {
            Issue.record("expected the feed")
            return
        }
        #expect(try Data(contentsOf: fetched.fileURL) == Data(sequencerFeed.utf8))
        #expect(server.requestedPaths == ["/a", "/b", "/c", "/feed.xml?v=2"])

        let loop = try #require(Self.fetchError(server.baseURL + "/loop", .init(timeout: 10)))
        #expect(loop.message == "cannot download \(server.baseURL)/loop: too many redirects (more than 10)")
        #expect(server.requestedPaths.filter { $0 == "/loop" }.count == 11)

        for path in ["/ftp", "/file"] {
            let error = try #require(Self.fetchError(server.baseURL + path, .init(timeout: 10)))
            #expect(error.message.contains("which is not an http(s) URL"), "\(error.message)")
        }
    }

    // MARK: - Credentials

    @Test func credentialsAreSentAsBasicAuthAndNeverShown() throws {
        let other = try LoopbackHTTPServer(routes: ["/feed.xml": .status(200, body: sequencerFeed)])
        defer { other.stop() }
        let server = try LoopbackHTTPServer(routes: [
            "/feed.xml": .status(200, body: sequencerFeed), "/moved": .redirect(to: "/feed.xml"),
            "/away": .redirect(to: other.baseURL + "/feed.xml"),
        ])
        defer { server.stop() }
        let withCredentials = "http://reader:s3cr%40t@127.0.0.1:\(server.port)"
        let basic = "Basic " + Data("reader:s3cr@t".utf8).base64EncodedString()

        let fetched = try SourceFetcher().fetchBlocking(withCredentials + "/moved", timeout: 10)
        #expect(server.requestHeaders.map { $0["authorization"] } == [basic, basic])
        #expect(fetched.displayName == "http://reader:***@127.0.0.1:\(server.port)/moved")

        let missing = try #require(Self.fetchError(withCredentials + "/nope.xml", .init(timeout: 10)))
        #expect(
            missing.message == "cannot download http://reader:***@127.0.0.1:\(server.port)/nope.xml: HTTP 404 Not Found"
        )
        #expect(missing.location.source == "http://reader:***@127.0.0.1:\(server.port)/nope.xml")
        let token = try #require(Self.fetchError("http://t0ken@127.0.0.1:\(server.port)/nope.xml", .init(timeout: 10)))
        #expect(!token.description.contains("t0ken"))

        // Another origin never gets them.
        _ = try SourceFetcher().fetchBlocking(
            withCredentials + "/away", options: SourceFetcher.Options(timeout: 10, allowPrivate: true))
        #expect(other.requestHeaders.count == 1)
        #expect(other.requestHeaders.first?["authorization"] == nil)
    }
}
