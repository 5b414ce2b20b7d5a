import CatalogClient
import CatalogHTTP
import CatalogSQLite
import CatalogTestSupport
import Foundation
import Synchronization
import Testing

/// `GET /api/v1/catalogs/{id}/snapshot` and ``CatalogClient/download(catalog:to:progress:)``.
@Suite struct SnapshotTests {
    let live: LiveServer
    let client: CatalogClient
    let raw: RawClient

    init() throws {
        live = try LiveServer()
        client = live.client()
        raw = RawClient(port: live.server.port)
    }

    var destination: URL { live.directory.appendingPathComponent("offline/cookbook.sqlite") }

    func makeFolder() throws {
        try FileManager.default.createDirectory(
            at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
    }

    @Test func downloadsOpensAndRevalidates() async throws {
        try makeFolder()
        let reports = Mutex<[DownloadProgress]>([])
        let first = try await client.download(catalog: "cookbook", to: destination) { progress in
            reports.withLock { $0.append(progress) }
        }
        guard case .downloaded(let etag, let bytes) = first else {
            Issue.record("nothing was downloaded")
            return
        }
        #expect(bytes == Int64(try Data(contentsOf: destination).count))
        #expect(reports.withLock { $0.last } == DownloadProgress(received: bytes, total: bytes))
        let offline = try OfflineCatalog(at: destination)
        #expect(offline.id == "cookbook" && offline.etag == etag)
        #expect(try await offline.catalogs().map(\.id) == ["cookbook"])
        #expect(try await offline.catalog("cookbook") == client.catalog("cookbook"))
        // Unchanged: a 304, nothing downloaded.
        #expect(try await client.download(catalog: "cookbook", to: destination) == .notModified(etag: etag))
        // Changed: a new file, while the open one keeps reading the old version.
        try live.importRecords([Record(id: "z1", title: "Zserbó")], into: "cookbook", locale: "hu")
        let second = try await client.download(catalog: "cookbook", to: destination)
        #expect(second.etag != etag)
        #expect(try await offline.catalog("cookbook").count == 32)
        let fresh = try OfflineCatalog(at: destination)
        #expect(try await fresh.catalog("cookbook").count == 1)
        offline.close()
        fresh.close()
        // Only the current version stays on the server's disk.
        let kept = try FileManager.default.contentsOfDirectory(
            atPath: live.directory.appendingPathComponent("snapshots").path)
        #expect(kept.filter { $0.hasPrefix("cookbook.") }.count == 1)
    }

    @Test func headRangesAndConditions() async throws {
        let full = try raw.request("GET", "/api/v1/catalogs/products/snapshot")
        #expect(full.status == 200)
        #expect(full.headers["content-type"] == "application/vnd.sqlite3")
        #expect(full.headers["accept-ranges"] == "bytes")
        #expect(full.body.starts(with: Array("SQLite format 3\u{0}".utf8)))
        let etag = try #require(full.headers["etag"])
        let head = try raw.request("HEAD", "/api/v1/catalogs/products/snapshot")
        #expect(head.status == 200 && head.body.isEmpty && head.headers["content-length"] == String(full.body.count))
        let part = try raw.request("GET", "/api/v1/catalogs/products/snapshot", headers: [("Range", "bytes=100-199")])
        #expect(part.status == 206 && part.body == Array(full.body[100..<200]))
        #expect(part.headers["content-range"] == "bytes 100-199/\(full.body.count)")
        let tail = try raw.request(
            "GET", "/api/v1/catalogs/products/snapshot", headers: [("Range", "bytes=1000-"), ("If-Range", etag)])
        #expect(tail.status == 206 && tail.body == Array(full.body[1000...]))
        let stale = try raw.request(
            "GET", "/api/v1/catalogs/products/snapshot", headers: [("Range", "bytes=1000-"), ("If-Range", "\"old\"")])
        #expect(stale.status == 200 && stale.body == full.body)
        let beyond = try raw.request(
            "GET", "/api/v1/catalogs/products/snapshot", headers: [("Range", "bytes=\(full.body.count)-")])
        #expect(beyond.status == 416 && beyond.headers["content-range"] == "bytes */\(full.body.count)")
        let unchanged = try raw.request("GET", "/api/v1/catalogs/products/snapshot", headers: [("If-None-Match", etag)])
        #expect(unchanged.status == 304 && unchanged.body.isEmpty)
        #expect(try raw.request("GET", "/api/v1/catalogs/nope/snapshot").status == 404)
    }

    /// The file holds one catalog and no accounts.
    @Test func theFileHoldsOneCatalogAndNoAccounts() throws {
        let body = try raw.request("GET", "/api/v1/catalogs/sequencers/snapshot").body
        let path = live.directory.appendingPathComponent("check.sqlite")
        try Data(body).write(to: path)
        let file = try SQLiteCatalogFile(path: path.path)
        defer { file.close() }
        #expect(try file.reader.catalogs().map(\.id) == ["sequencers"])
        #expect(file.metadata["catalog"] == "sequencers")
        let tables = try SQLiteTables.names(path.path)
        #expect(!tables.contains("users") && !tables.contains("sessions") && !tables.contains("favorites"))
        #expect(tables.contains("search_postings") && tables.contains("snapshot"))
    }

    /// A download that broke off resumes where it stopped, with a Range request.
    @Test func anInterruptedDownloadResumes() async throws {
        try makeFolder()
        let full = try raw.request("GET", "/api/v1/catalogs/cookbook/snapshot")
        let etag = try #require(full.headers["etag"])
        let half = full.body.count / 2
        try Data(full.body.prefix(half)).write(to: destination.appendingPathExtension("part"))
        try Data(etag.utf8).write(to: destination.appendingPathExtension("part-etag"))
        let first = Mutex<DownloadProgress?>(nil)
        let result = try await client.download(catalog: "cookbook", to: destination) { progress in
            first.withLock { if $0 == nil { $0 = progress } }
        }
        #expect(result == .downloaded(etag: etag, bytes: Int64(full.body.count)))
        #expect(try Data(contentsOf: destination) == Data(full.body))
        #expect((first.withLock { $0 }?.received ?? 0) > Int64(half))
        #expect(!FileManager.default.fileExists(atPath: destination.appendingPathExtension("part").path))
        // A partial file of another version is thrown away (If-Range), and the whole file comes.
        try Data(full.body.prefix(half).map { $0 ^ 0xFF }).write(to: destination.appendingPathExtension("part"))
        try Data("\"other\"".utf8).write(to: destination.appendingPathExtension("part-etag"))
        try FileManager.default.removeItem(at: destination)
        #expect(try await client.download(catalog: "cookbook", to: destination).etag == etag)
        #expect(try Data(contentsOf: destination) == Data(full.body))
    }

    /// Cancelling a download keeps what arrived for a resume; nothing half-written replaces the file.
    @Test func aCancelledDownloadLeavesTheOldFile() async throws {
        try makeFolder()
        try await client.download(catalog: "cookbook", to: destination)
        let before = try Data(contentsOf: destination)
        // The task cancels itself before it downloads: cancelling from outside could come after a
        // fast download had already finished.
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.download(catalog: "products", to: destination)
        }
        _ = try? await task.value
        #expect(try Data(contentsOf: destination) == before)
    }

    /// What arrives must be a snapshot of the catalog asked for.
    @Test func somethingElseIsRefused() async throws {
        try makeFolder()
        let server = try LoopbackHTTPServer(routes: [
            "/api/v1/catalogs/cookbook/snapshot": .raw(
                "HTTP/1.1 200 OK\r\nETag: \"x\"\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
        ])
        defer { server.stop() }
        let client = CatalogClient(baseURL: URL(string: server.baseURL)!, cache: .none)
        do {
            try await client.download(catalog: "cookbook", to: destination)
            Issue.record("garbage was installed")
        } catch {
            #expect(error.code == .storage)
        }
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        do {
            try await self.client.download(catalog: "nope", to: destination)
            Issue.record("an unknown catalog downloaded")
        } catch {
            #expect(error.code == .notFound)
        }
    }

    /// Many clients asking at once for a version not built yet get one build, the same bytes.
    @Test func concurrentRequestsShareOneBuild() async throws {
        let port = live.server.port
        let bodies = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<6 {
                group.addTask { try RawClient(port: port).request("GET", "/api/v1/catalogs/products/snapshot").body }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(bodies).count == 1 && bodies[0].count > 4096)
        let files = try FileManager.default.contentsOfDirectory(
            atPath: live.directory.appendingPathComponent("snapshots").path)
        #expect(files.filter { $0.hasPrefix("products.") }.count == 1)
        #expect(!files.contains { $0.hasSuffix(".part") })
    }
}

/// Table names of an SQLite file.
enum SQLiteTables {
    static func names(_ path: String) throws -> [String] {
        let file = try SQLiteCatalogFile(path: path)
        defer { file.close() }
        return try file.tableNames()
    }
}
