import CatalogHTTP
import CatalogModel
import Foundation
import Synchronization
import Testing

@testable import CatalogServer

/// The import preview (`POST …/import/preview`) and imports run as jobs (`Prefer:
/// respond-async`, `GET /api/v1/imports/{job}`).
@Suite struct ImportJobsTests {
    let fixture: ServerFixture

    init() throws {
        fixture = try ServerFixture()
    }

    static let csv = """
        sku,name,cost,maker
        a-1,Kettle,12.50,Acme
        a-2,Teapot,8,Acme
        a-3,Mug,3.20,Bolt

        """

    private func post(_ path: String, _ body: String, type: String = "text/csv", headers: [(String, String)] = [])
        throws -> ServerFixture.Reply
    {
        try fixture.request(
            .post, path, headers: [("Content-Type", type)] + headers, body: Array(body.utf8),
            token: fixture.adminToken)
    }

    @Test func thePreviewShowsTheImportersMappingAndStoresNothing() throws {
        let reply = try post("/api/v1/catalogs/kitchen/import/preview?limit=2", Self.csv)
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply.object["format"] as? String == "csv")
        #expect(reply.object["fields"] as? [String] == ["sku", "name", "cost", "maker"])
        // No field is named like a role but the ones the importer maps by name: none here.
        #expect(reply.object["mapping"] as? [String: String] == [:])
        #expect(reply.object["complete"] as? Bool == false)
        // Without a title field the import would refuse every record: the preview says why.
        #expect((reply.object["records"] as? [Any])?.isEmpty == true)
        let problems = reply.object["problems"] as? [String] ?? []
        #expect(problems.count == 2)
        #expect(problems.first?.hasPrefix("upload:2:1: record has no title") == true, "\(problems)")
        #expect(try fixture.request("/api/v1/catalogs/kitchen").status == 404)
    }

    @Test func aMappingChangesThePreviewAndTheImportTheSameWay() throws {
        let mapping = "field=id%3Dsku&field=title%3Dname&field=price%3Dcost"
        let preview = try post("/api/v1/catalogs/kitchen/import/preview?\(mapping)", Self.csv)
        #expect(preview.status == 200, "\(preview.text)")
        #expect(preview.object["mapping"] as? [String: String] == ["id": "sku", "title": "name", "price": "cost"])
        let records = preview.object["records"] as? [[String: Any]] ?? []
        #expect(records.count == 3)
        #expect(preview.object["complete"] as? Bool == true)
        #expect(records.first?["id"] as? String == "a-1")
        #expect(records.first?["title"] as? String == "Kettle")
        #expect((records.first?["fields"] as? [String: Any])?["maker"] as? String == "Acme")

        let imported = try post("/api/v1/catalogs/kitchen/import?\(mapping)&title=Kitchen&locale=de", Self.csv)
        #expect(imported.status == 200, "\(imported.text)")
        let item = try fixture.request("/api/v1/catalogs/kitchen/items/a-1").object
        #expect(item["title"] as? String == "Kettle")
        for key in ["id", "title", "fields"] {
            #expect("\(item[key] ?? "")" == "\(records.first?[key] ?? "")", "\(key)")
        }
    }

    @Test func anExistingCatalogIsPreviewedWithItsOwnMapping() throws {
        let imported = try post("/api/v1/catalogs/kitchen/import?field=id%3Dsku&field=title%3Dname", Self.csv)
        #expect(imported.status == 200, "\(imported.text)")
        let preview = try post("/api/v1/catalogs/kitchen/import/preview", Self.csv)
        #expect(preview.object["mapping"] as? [String: String] == ["id": "sku", "title": "name"])
        #expect((preview.object["records"] as? [[String: Any]])?.last?["id"] as? String == "a-3")
    }

    @Test func aMalformedFileIsA422WithLineAndColumn() throws {
        let reply = try post(
            "/api/v1/catalogs/kitchen/import/preview", "<r><i><title>A</i></r>", type: "application/xml")
        #expect(reply.status == 422)
        let message = (reply.object["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message.hasPrefix("upload:1:"), "\(message)")
    }

    @Test func aBadMappingIsA400AndABadFileA422WithWhere() throws {
        let unknown = try post("/api/v1/catalogs/kitchen/import/preview?field=colour%3Dname", Self.csv)
        #expect(unknown.status == 400)
        #expect(unknown.text.contains("unknown role"))
        let missing = try post("/api/v1/catalogs/kitchen/import/preview?field=title%3Dnom", Self.csv)
        #expect(missing.status == 422)
        #expect(missing.text.contains("no field \\\"nom\\\""), "\(missing.text)")
        let private_ = try post("/api/v1/catalogs/kitchen/import/preview?url=file%3A%2F%2F%2Fetc%2Fpasswd", "")
        #expect(private_.status == 400)
    }

    @Test func anAsyncImportAnswers202AndItsJobEndsDone() throws {
        let reply = try post(
            "/api/v1/catalogs/kitchen/import?field=id%3Dsku&field=title%3Dname", Self.csv,
            headers: [("Prefer", "respond-async")])
        #expect(reply.status == 202, "\(reply.text)")
        let id = try #require(reply.object["id"] as? String)
        #expect(reply.headers["Location"] == "/api/v1/imports/\(id)")
        let ended = try #require(fixture.application.importJobs.waitForEnd(of: id))
        #expect(ended.state == .done)
        let job = try fixture.request("/api/v1/imports/\(id)", token: fixture.adminToken)
        #expect(job.status == 200)
        #expect(job.object["state"] as? String == "done")
        #expect(job.object["recordsRead"] as? Int == 3)
        #expect(job.object["bytesRead"] as? Int == Self.csv.utf8.count)
        #expect(job.object["totalBytes"] as? Int == Self.csv.utf8.count)
        #expect((job.object["result"] as? [String: Any])?["added"] as? Int == 3)
        #expect(try fixture.request("/api/v1/catalogs/kitchen/items/a-2").status == 200)
    }

    @Test func aBadFileFailsTheJobWithLineAndColumnAndChangesNothing() throws {
        let bad = "sku,name\na-1,\"Kettle\na-2,Teapot\n"
        let reply = try post(
            "/api/v1/catalogs/broken/import?field=title%3Dname", bad, headers: [("Prefer", "respond-async")])
        #expect(reply.status == 202)
        let id = try #require(reply.object["id"] as? String)
        _ = fixture.application.importJobs.waitForEnd(of: id)
        let job = try fixture.request("/api/v1/imports/\(id)", token: fixture.adminToken)
        #expect(job.object["state"] as? String == "failed")
        let error = try #require(job.object["error"] as? [String: Any])
        #expect(error["status"] as? Int == 422)
        #expect(error["code"] as? String == "import_failed")
        #expect(error["source"] as? String == "upload")
        #expect((error["line"] as? Int ?? 0) > 0)
        #expect((error["column"] as? Int ?? 0) > 0)
        #expect((error["message"] as? String ?? "").hasPrefix("upload:"))
        #expect(try fixture.request("/api/v1/catalogs/broken").status == 404)
    }

    @Test func unknownAndOtherPeoplesJobsAre404() throws {
        #expect(try fixture.request("/api/v1/imports/nope", token: fixture.adminToken).status == 404)
        #expect(try fixture.request("/api/v1/imports/nope").status == 401)
        let reply = try post(
            "/api/v1/catalogs/kitchen/import?field=title%3Dname", Self.csv, headers: [("Prefer", "respond-async")])
        let id = try #require(reply.object["id"] as? String)
        _ = fixture.application.importJobs.waitForEnd(of: id)
        #expect(try fixture.request("/api/v1/imports/\(id)", token: fixture.userToken).status == 404)
        #expect(try fixture.request("/api/v1/imports/\(id)", token: fixture.adminToken).status == 200)
    }

    @Test func jobsAreBoundedAndForgotten() throws {
        var now = ContinuousClock.now
        let clock = Mutex(now)
        let jobs = ImportJobs(clock: { clock.withLock { $0 } })
        let gate = DispatchSemaphore(value: 0)
        let work: @Sendable (ImportJobs.Progress) throws -> ImportSummary = { _ in
            gate.wait()
            return ImportSummary(read: 0, total: 0, added: 0, updated: 0, removed: 0)
        }
        let first = try jobs.start(catalog: "a", owner: 1, work)
        let second = try jobs.start(catalog: "b", owner: 1, work)
        #expect(throws: HTTPError.self) { try jobs.start(catalog: "c", owner: 1, work) }
        gate.signal()
        gate.signal()
        #expect(jobs.waitForEnd(of: first.id)?.state == .done)
        #expect(jobs.waitForEnd(of: second.id)?.state == .done)
        #expect(jobs.job(first.id, for: 2, isAdmin: false) == nil)
        #expect(jobs.job(first.id, for: 2, isAdmin: true) != nil)
        now += ImportJobs.keepFor + .seconds(1)
        clock.withLock { $0 = now }
        #expect(jobs.job(first.id, for: 1, isAdmin: false) == nil)
    }

    @Test func stoppingWaitsForRunningJobsAndRefusesNewOnes() throws {
        let jobs = ImportJobs()
        let started = DispatchSemaphore(value: 0)
        let job = try jobs.start(catalog: "a", owner: 1) { progress in
            started.signal()
            // As an import does: it looks between steps whether to stop.
            while !progress.isStopped() { _ = sched_yield() }
            throw HTTPError(.serviceUnavailable, code: "stopped", "the server stops")
        }
        started.wait()
        jobs.stop()
        #expect(jobs.job(job.id, for: 1, isAdmin: false)?.state == .failed)
        #expect(throws: HTTPError.self) {
            try jobs.start(catalog: "b", owner: 1) { _ in
                ImportSummary(read: 0, total: 0, added: 0, updated: 0, removed: 0)
            }
        }
    }
}
