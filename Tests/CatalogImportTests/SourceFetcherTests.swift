#if canImport(Glibc)
    import Glibc
#endif
import CatalogImport
import CatalogModel
import CatalogTestSupport
import Foundation
import Testing

/// Downloads only ever go to a server of our own on 127.0.0.1.
@Suite(.serialized) struct SourceFetcherTests {
    private static func leftoverDownloads() -> Set<String> {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
        return Set(names.filter { $0.hasPrefix("catalog-download-") })
    }

    /// Whether every download file that appeared since `before` goes away: other suites download
    /// at the same time, so a new file only counts as left behind if it is still there after
    /// theirs have had time to finish.
    private static func noNewDownloads(since before: Set<String>) -> Bool {
        waitUntil(timeout: 20, every: .milliseconds(20)) { leftoverDownloads().subtracting(before).isEmpty }
    }

    @Test func downloadsAndCleansUp() async throws {
        let server = try LoopbackHTTPServer(routes: [
            "/feed.xml": .status(200, body: sequencerFeed), "/old": .redirect(to: "/feed.xml"),
        ])
        defer { server.stop() }
        let url = server.baseURL + "/feed.xml"
        let fetched = try await SourceFetcher().fetch(url, timeout: 5)
        #expect(fetched.isTemporary)
        #expect(fetched.displayName == url)
        #expect(fetched.fileURL.pathExtension == "xml")
        #expect(fetched.byteCount == Int64(sequencerFeed.utf8.count))
        #expect(try Data(contentsOf: fetched.fileURL) == Data(sequencerFeed.utf8))
        let records = try readAll(XMLRecordReader(fileURL: fetched.fileURL, sourceName: fetched.displayName))
        #expect(records.count == 3)
        #expect(records[0].location.source == url)
        fetched.discard()
        #expect(!FileManager.default.fileExists(atPath: fetched.fileURL.path))

        // Redirects are followed; the temporary file goes away with the object.
        var redirected: FetchedSource? = try await SourceFetcher().fetch(server.baseURL + "/old", timeout: 5)
        let path = try #require(redirected?.fileURL.path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(sequencerFeed.utf8))
        redirected = nil
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(server.requestedPaths == ["/feed.xml", "/old", "/feed.xml"])
    }

    @Test func blockingVariant() throws {
        let server = try LoopbackHTTPServer(routes: ["/data.json": .status(200, body: #"[{"a": 1}]"#)])
        defer { server.stop() }
        let fetched = try SourceFetcher().fetchBlocking(server.baseURL + "/data.json", timeout: 5)
        #expect(try readAll(JSONRecordReader(fileURL: fetched.fileURL)).map(pairs) == [["a=1"]])
    }

    @Test func httpErrorStatus() async throws {
        let server = try LoopbackHTTPServer(routes: ["/gone": .status(410, body: "gone")])
        defer { server.stop() }
        let before = Self.leftoverDownloads()
        for (path, status) in [("/missing.xml", "HTTP 404"), ("/gone", "HTTP 410")] {
            let url = server.baseURL + path
            let error = try #require(await fetchError(url, timeout: 5))
            #expect(error.code == .io)
            #expect(error.message.contains(url))
            #expect(error.message.contains(status))
            #expect(error.location.source == url)
        }
        #expect(Self.noNewDownloads(since: before))
    }

    @Test func timeout() async throws {
        let server = try LoopbackHTTPServer(routes: ["/hang": .silence])
        defer { server.stop() }
        let start = Date()
        let error = try #require(await fetchError(server.baseURL + "/hang", timeout: 1))
        #expect(error.code == .io)
        #expect(error.message.contains("timed out after 1 s"))
        #expect(Date().timeIntervalSince(start) < 10)
    }

    @Test func connectionRefused() async throws {
        // A port bound by a socket that does not listen: refused, and nobody else's meanwhile.
        let down = try RefusingPort()
        let url = down.baseURL + "/x.csv"
        let error = try #require(await fetchError(url, timeout: 30))
        withExtendedLifetime(down) {}
        #expect(error.code == .io)
        #expect(error.message.contains(url))
        #expect(error.message.contains("connection refused"))
    }

    @Test func sizeLimit() async throws {
        let server = try LoopbackHTTPServer(routes: [
            "/big.csv": .status(200, body: String(repeating: "x", count: 100_000))
        ])
        defer { server.stop() }
        let before = Self.leftoverDownloads()
        let error = try #require(await fetchError(server.baseURL + "/big.csv", timeout: 5, maxBytes: 1000))
        #expect(error.code == .tooLarge)
        #expect(error.message.contains("--max-download-mb"))
        #expect(Self.noNewDownloads(since: before))
    }

    @Test func totalDeadline() throws {
        // One byte every 0.4 s never trips the 1 s silence timeout; the 2 s deadline stops it.
        let server = try LoopbackHTTPServer(routes: [
            "/slow.xml": .trickle(String(repeating: "x", count: 100), interval: 0.4)
        ])
        defer { server.stop() }
        let before = Self.leftoverDownloads()
        let start = Date()
        let options = SourceFetcher.Options(timeout: 1, deadline: 2)
        let error = try #require(
            importError { _ = try SourceFetcher().fetchBlocking(server.baseURL + "/slow.xml", options: options) })
        #expect(error.code == .io)
        #expect(error.message.contains("timed out after 2 s (the whole download)"), "\(error.message)")
        #expect(Date().timeIntervalSince(start) < 6)
        #expect(Self.noNewDownloads(since: before))
        #expect(TemporaryFiles.registeredPaths.allSatisfy { !$0.hasSuffix("slow.xml") })
    }

    @Test func conditionalGet() throws {
        let feed = LoopbackFeed(sequencerFeed)
        let server = try LoopbackHTTPServer(routes: ["/feed.xml": .feed(feed)])
        defer { server.stop() }
        let url = server.baseURL + "/feed.xml"
        guard case .file(let first) = try SourceFetcher().fetchBlocking(url, options: .init()) else {
            Issue.record("expected a file")
            return
        }
        #expect(first.etag == "\"v1\"")
        #expect(first.lastModified == "Mon, 01 Dec 2025 10:00:00 GMT")
        first.discard()
        var options = SourceFetcher.Options()
        options.etag = first.etag
        options.lastModified = first.lastModified
        guard case .notModified = try SourceFetcher().fetchBlocking(url, options: options) else {
            Issue.record("expected not modified")
            return
        }
        #expect(server.requestHeaders.last?["if-none-match"] == "\"v1\"")
        #expect(server.requestHeaders.last?["if-modified-since"] == "Mon, 01 Dec 2025 10:00:00 GMT")
        feed.update(sequencerFeed + "\n")
        guard case .file(let second) = try SourceFetcher().fetchBlocking(url, options: options) else {
            Issue.record("expected the changed feed")
            return
        }
        #expect(second.etag == "\"v2\"")
        #expect(feed.answers.full == 2 && feed.answers.notModified == 1)
    }

    @Test func staleTemporaryFilesAreSwept() throws {
        let directory = try TemporaryDirectory()
        func touch(_ name: String, age: TimeInterval = 0) throws {
            let path = directory.file(name).path
            _ = FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
            try FileManager.default.setAttributes(
                [.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: path)
        }
        // A process id that is not running (pid_max is far below it).
        let dead = "catalog-download-99999999-\(UUID().uuidString).xml"
        let mine = "catalog-upload-\(getpid())-\(UUID().uuidString)"
        let oldLegacy = "catalog-upload-\(UUID().uuidString)"
        let newLegacy = "catalog-download-\(UUID().uuidString).json"
        for name in [dead, mine, newLegacy, "unrelated.txt"] { try touch(name) }
        try touch(oldLegacy, age: 7200)
        let removed = TemporaryFiles.removeStale(in: directory.url)
        #expect(Set(removed) == [dead, oldLegacy])
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory.url.path))
        #expect(left == [mine, newLegacy, "unrelated.txt"])
    }

    @Test func localPaths() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("feed.xml")
        try Data(sequencerFeed.utf8).write(to: file)
        let fetched = try await SourceFetcher().fetch(file.path)
        #expect(!fetched.isTemporary)
        #expect(fetched.fileURL.path == file.path)
        fetched.discard()
        #expect(FileManager.default.fileExists(atPath: file.path))

        let missing = try #require(await fetchError(directory.file("nope.xml").path))
        #expect(missing.code == .io)
        #expect(missing.message.contains(directory.file("nope.xml").path))
        let folder = try #require(await fetchError(directory.url.path))
        #expect(folder.code == .io)
        #expect(folder.message.contains("directory"))
    }

    @Test(.enabled(if: getuid() != 0, "root can read anything")) func unreadableFile() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("secret.csv")
        try Data("a\n1".utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: file.path)
        let error = try #require(await fetchError(file.path))
        #expect(error.code == .io)
        #expect(error.message.contains("permission denied"))
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1/x.xml", "gopher://127.0.0.1/"])
    func otherSchemesAreRefused(_ source: String) async throws {
        let error = try #require(await fetchError(source))
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("unsupported URL scheme"))
    }

    private func fetchError(_ source: String, timeout: TimeInterval = 30, maxBytes: Int64 = 1 << 31) async
        -> ImportError?
    {
        do {
            _ = try await SourceFetcher().fetch(source, timeout: timeout, maxBytes: maxBytes)
            return nil
        } catch {
            return error
        }
    }
}
