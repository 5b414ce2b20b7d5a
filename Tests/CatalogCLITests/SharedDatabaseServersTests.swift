import CatalogTestSupport
import Foundation
import Testing

/// Two `catalog serve` processes on one database, PostgreSQL or one SQLite file: a record changed
/// through one is seen through the other's item page and search within a second, and the other's
/// change feed (JSON pages and the event stream) delivers every change within a second, in order,
/// with the numbers the writes were answered with.
@Suite(.serialized, .timeLimit(.minutes(5))) struct SharedDatabaseServersTests {
    /// A fresh database with the demo catalogs, an administrator, and two servers on it.
    final class Servers {
        let database: TemporaryDatabase
        let a: ServeProcess
        let b: ServeProcess
        let token: String

        init(engine: TemporaryDatabase.Engine) throws {
            database = try TemporaryDatabase(engine: engine, prefix: "shared-servers")
            let location = database.location
            token = try ServeProcess.demoWithAdministrator(at: location)
            let directory = database.directory
            // One snapshot folder for both, as servers of one database on one machine share by default.
            let arguments = [
                "--snapshots", directory.appendingPathComponent("snapshots").path, "--threads", "2",
                "--client-cpu-budget", "0",
            ]
            a = try ServeProcess(
                database: location, arguments: arguments, log: directory.appendingPathComponent("a.log"))
            b = try ServeProcess(
                database: location, arguments: arguments, log: directory.appendingPathComponent("b.log"))
        }

        deinit {
            a.stop()
            b.stop()
        }

        var admin: [(String, String)] { [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")] }
    }

    static let base = "/api/v1/catalogs/cookbook"

    /// A JSON object's value, for comparing records however their members are spelled and ordered.
    static func object(_ bytes: [UInt8]) -> NSDictionary? {
        (try? JSONSerialization.jsonObject(with: Data(bytes))) as? NSDictionary
    }

    static func object(_ text: String) -> NSDictionary? { object(Array(text.utf8)) }

    /// Whether `condition` holds before `deadline` (asked again every 10 ms until then).
    static func before(_ deadline: ContinuousClock.Instant, _ condition: () throws -> Bool) -> Bool {
        let seconds = deadline - .now
        let timeout = Double(seconds.components.seconds) + Double(seconds.components.attoseconds) / 1e18
        return waitUntil(timeout: max(0, timeout), every: .milliseconds(10)) { (try? condition()) == true }
    }

    /// The change feed's page after `since` from `client`: its changes as (number, kind, id, record).
    static func feed(_ client: RawClient, since: Int) throws -> [(Int, String, String, NSDictionary?)] {
        let page = try #require(object(try client.request("GET", "\(base)/changes?since=\(since)").body))
        let changes = try #require(page["changes"] as? [NSDictionary])
        return changes.map {
            (
                ($0["number"] as? Int) ?? -1, ($0["kind"] as? String) ?? "", ($0["id"] as? String) ?? "",
                $0["record"] as? NSDictionary
            )
        }
    }

    /// The next event of `stream`: its number, kind and data as JSON; nil for anything else.
    static func nextChange(_ stream: EventStreamClient) -> (id: Int, event: String, data: NSDictionary)? {
        guard case .event(let id, let event, let data) = stream.nextEvent(), let id = id.flatMap({ Int($0) }),
            let event, let object = object(data)
        else { return nil }
        return (id, event, object)
    }

    @Test(arguments: TemporaryDatabase.Engine.available)
    func aChangeThroughOneServerReachesTheOtherWithinASecond(_ engine: TemporaryDatabase.Engine) throws {
        let servers = try Servers(engine: engine)
        let (a, b) = (servers.a.client, servers.b.client)
        let base = Self.base
        let head = try b.request("GET", "\(base)/changes?since=0&limit=1")
        let start = try #require(head.headers["catalog-change"].flatMap { Int($0) })
        // B answers these before the write, so its response cache holds them.
        #expect(try b.request("GET", "\(base)/items/live-1").status == 404)
        #expect(try b.request("GET", "\(base)/search?q=zuzmo").status == 200)
        let streamB = try EventStreamClient(port: servers.b.port, path: "\(base)/changes?since=\(start)")
        let streamA = try EventStreamClient(port: servers.a.port, path: "\(base)/changes?since=\(start)")
        #expect(streamB.readHead() && streamB.status == 200)
        #expect(streamA.readHead() && streamA.status == 200)

        // A new record through A.
        let put = try a.request(
            "PUT", "\(base)/items/live-1", headers: servers.admin,
            body: Array(#"{"id":"live-1","title":"Zuzmótorta élőben","price":4.5}"#.utf8))
        #expect(put.status == 201, "\(put.text)")
        var deadline = ContinuousClock.now + .seconds(1)
        let created = try #require(put.headers["catalog-change"].flatMap { Int($0) })
        #expect(created == start + 1)
        let record = try #require(Self.object(put.body))
        #expect(
            Self.before(deadline) {
                let item = try b.request("GET", "\(base)/items/live-1")
                return item.status == 200 && item.headers["etag"] == put.headers["etag"]
                    && Self.object(item.body) == record
            }, "B serves the record within a second")
        #expect(
            Self.before(deadline) { try b.request("GET", "\(base)/search?q=zuzmo").text.contains("\"live-1\"") },
            "B's search finds it within a second")
        #expect(
            Self.before(deadline) {
                let changes = try Self.feed(b, since: start)
                return changes.count == 1 && changes[0].0 == created && changes[0].1 == "upsert"
                    && changes[0].2 == "live-1" && changes[0].3 == record
            }, "B's change feed lists it within a second")
        let event = Self.nextChange(streamB)
        #expect(ContinuousClock.now < deadline, "B's event stream sends it within a second")
        #expect(event?.id == created && event?.event == "change" && event?.data["number"] as? Int == created)
        #expect(event?.data["record"] as? NSDictionary == record)

        // Changed, then deleted through A.
        let patch = try a.request(
            "PATCH", "\(base)/items/live-1",
            headers: servers.admin + [("Content-Type", "application/merge-patch+json")],
            body: Array(#"{"title":"Áfonyás zuzmótorta","price":null}"#.utf8))
        #expect(patch.status == 200, "\(patch.text)")
        deadline = ContinuousClock.now + .seconds(1)
        let patched = try #require(patch.headers["catalog-change"].flatMap { Int($0) })
        #expect(patched == created + 1)
        let patchedRecord = try #require(Self.object(patch.body))
        #expect(
            (patchedRecord["price"] ?? NSNull()) is NSNull && patchedRecord["title"] as? String == "Áfonyás zuzmótorta")
        #expect(
            Self.before(deadline) {
                let item = try b.request("GET", "\(base)/items/live-1")
                return item.headers["etag"] == patch.headers["etag"] && Self.object(item.body) == patchedRecord
            }, "B serves the changed record within a second")
        #expect(
            Self.before(deadline) { try b.request("GET", "\(base)/search?q=afonyas").text.contains("\"live-1\"") },
            "B's search finds its new title within a second")
        let patchEvent = Self.nextChange(streamB)
        #expect(ContinuousClock.now < deadline, "B's event stream sends the change within a second")
        #expect(patchEvent?.id == patched && patchEvent?.data["record"] as? NSDictionary == patchedRecord)

        let delete = try a.request("DELETE", "\(base)/items/live-1", headers: servers.admin)
        #expect(delete.status == 204)
        deadline = ContinuousClock.now + .seconds(1)
        let deleted = try #require(delete.headers["catalog-change"].flatMap { Int($0) })
        #expect(deleted == patched + 1)
        #expect(
            Self.before(deadline) { try b.request("GET", "\(base)/items/live-1").status == 404 },
            "B no longer serves the record within a second")
        #expect(
            Self.before(deadline) { try !b.request("GET", "\(base)/search?q=zuzmo").text.contains("\"live-1\"") },
            "B's search no longer finds it within a second")
        let deleteEvent = Self.nextChange(streamB)
        #expect(ContinuousClock.now < deadline, "B's event stream sends the deletion within a second")
        #expect(deleteEvent?.id == deleted && deleteEvent?.data["kind"] as? String == "delete")
        #expect(deleteEvent?.data["id"] as? String == "live-1")

        // A batch through B reaches A the same way.
        let batch = try b.request(
            "POST", "\(base)/items", headers: servers.admin,
            body: Array(
                #"[{"upsert":{"id":"live-2","title":"Lekváros bukta élőben"}},{"upsert":{"id":"live-3","title":"Mákos bukta élőben"}}]"#
                    .utf8))
        #expect(batch.status == 200, "\(batch.text)")
        deadline = ContinuousClock.now + .seconds(1)
        #expect(batch.headers["catalog-change"] == String(deleted + 2))
        #expect(
            Self.before(deadline) {
                try a.request("GET", "\(base)/search?q=bukta%20elob").text.contains("\"live-3\"")
                    && a.request("GET", "\(base)/items/live-2").status == 200
            }, "A serves B's batch within a second")
        var fromA: [Int] = []
        while fromA.count < 5, let change = Self.nextChange(streamA) { fromA.append(change.id) }
        #expect(ContinuousClock.now < deadline, "A's event stream sends B's batch within a second")
        #expect(fromA == Array(created...deleted + 2), "A's stream: every change once, in order")
        let batchEvents = [Self.nextChange(streamB), Self.nextChange(streamB)]
        #expect(batchEvents.map { $0?.id } == [deleted + 1, deleted + 2])
        #expect(batchEvents.map { $0?.data["id"] as? String } == ["live-2", "live-3"])

        // Either feed, read again from the start: the five changes, in order, alike.
        for client in [a, b] {
            let changes = try Self.feed(client, since: start)
            #expect(changes.map(\.0) == Array(created...deleted + 2))
            #expect(changes.map(\.1) == ["upsert", "upsert", "delete", "upsert", "upsert"])
            #expect(changes.map(\.2) == ["live-1", "live-1", "live-1", "live-2", "live-3"])
        }
    }
}
