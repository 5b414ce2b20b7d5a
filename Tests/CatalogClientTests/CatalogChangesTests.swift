@testable import CatalogClient
import CatalogCore
import Foundation
import Synchronization
import Testing

/// A catalog's change feed through the client: pages of the log, and the sequence that pages
/// through it, follows it live, waits out a server that went away and ends when its task stops.
@Suite(.timeLimit(.minutes(3))) struct CatalogChangesTests {
    let live: LiveServer
    let admin: CatalogClient

    init() throws {
        live = try LiveServer()
        admin = live.client(token: live.adminToken)
    }

    /// Options that page two changes at a time and poll through `gate` (or quickly): polls every
    /// 10 ms, retries after 15 ms, 30 ms, then 60 ms.
    static func options(_ gate: PauseGate? = nil) -> ChangeFeedOptions {
        var options = ChangeFeedOptions()
        options.pageSize = 2
        options.transport = .polling(every: .milliseconds(10))
        options.retryDelay = .milliseconds(15)
        options.maxRetryDelay = .milliseconds(60)
        if let gate { options.pause = gate.pause }
        return options
    }

    /// Changes five products' subtitles; the stored records, in order.
    func changeFive() async throws -> [VersionedRecord] {
        var stored: [VersionedRecord] = []
        for number in 1...5 {
            let id = String(format: "p%03d", number)
            stored.append(try await admin.patch(id, in: "products", changes: ["subtitle": .text("Neu \(number)")]))
        }
        return stored
    }

    @Test func changeLogPagesThroughTheLog() async throws {
        let start = try await admin.record("p001", in: "products").change
        let stored = try await changeFive()
        var page = try await admin.changeLog(of: "products", since: start, limit: 2)
        var changes = page.changes
        var pages = 1
        while let next = page.next {
            page = try await admin.changeLog(of: "products", since: next, limit: 2)
            changes += page.changes
            pages += 1
        }
        #expect(pages == 3 && page.change == start + 5 && !page.reload)
        #expect(changes.map(\.number) == Array(start + 1...start + 5))
        #expect(changes.map(\.kind) == Array(repeating: .upsert, count: 5))
        #expect(changes.map(\.record) == stored.map(\.record))
        #expect(changes.map(\.id) == stored.map(\.record.id))
        #expect(changes.allSatisfy { $0.time != nil && $0.cursor != nil })
        // The cursor is the record's place in index order: the page after it starts after it.
        let order = try await admin.items(of: "products", limit: 50).items.map(\.id)
        let cursor = try #require(changes.first?.cursor)
        let after = try await admin.items(of: "products", after: cursor, limit: 1).items.first?.id
        #expect(after == order[try #require(order.firstIndex(of: "p001")) + 1])
        // Caught up: an empty last page.
        let end = try await admin.changeLog(of: "products", since: start + 5)
        #expect(end.changes.isEmpty && end.next == nil && end.change == start + 5)
    }

    @Test func theSequencePagesThroughTheLogThenFollowsLiveChanges() async throws {
        let start = try await admin.record("p001", in: "products").change
        let stored = try await changeFive()
        var changes = admin.changes(of: "products", since: start, options: Self.options()).makeAsyncIterator()
        for record in stored {
            let change = try await changes.next()
            #expect(change?.number == record.change && change?.record == record.record)
        }
        // Caught up; an edit made now arrives as it happens.
        let added = try await admin.put(Record(id: "z-live", title: "Live"), in: "products")
        let arrived = try await changes.next()
        #expect(arrived?.number == added.change && arrived?.kind == .upsert && arrived?.record == added.record)
        let deleted = try await admin.delete("z-live", in: "products")
        let removal = try await changes.next()
        #expect(removal?.number == deleted && removal?.kind == .delete && removal?.id == "z-live")
        #expect(removal?.record == nil)
    }

    @Test func theSequenceWaitsOutAServerThatWentAwayAndResumesAfterTheLastChange() async throws {
        let start = try await admin.record("p001", in: "products").change
        let first = try await admin.patch("p001", in: "products", changes: ["subtitle": .text("vorher")])
        let gate = PauseGate()
        let (arrivals, arrived) = AsyncStream.makeStream(of: CatalogChange.self)
        let follower = Task { [admin] in
            for try await change in admin.changes(of: "products", since: start, options: Self.options(gate)) {
                arrived.yield(change)
            }
            arrived.finish()
        }
        var received = arrivals.makeAsyncIterator()
        #expect(await received.next()?.number == first.change)
        // Caught up: the sequence waits the polling interval.
        #expect(await gate.nextWait() == .milliseconds(10))
        var offlineEdits: EditOutcome?
        try await live.restart {
            // Nothing listens: asking fails, and the sequence waits, longer each time.
            gate.release()
            #expect(await gate.nextWait() == .milliseconds(15))
            offlineEdits = try live.edit(
                [
                    RecordEdit(.upsert(Record(id: "z-down", title: "Während"))),
                    RecordEdit(.delete(id: "p002")),
                ], in: "products")
            gate.release()
            #expect(await gate.nextWait() == .milliseconds(30))
            gate.release()
            #expect(await gate.nextWait() == .milliseconds(60))
        }
        // The server is back on its port: the next request finds what changed meanwhile.
        gate.release()
        let afterRestart = [await received.next(), await received.next()]
        #expect(afterRestart.map { $0?.number } == [first.change + 1, first.change + 2])
        #expect(afterRestart.map { $0?.kind } == [.upsert, .delete])
        #expect(offlineEdits?.change == first.change + 2)
        // Caught up again.
        #expect(await gate.nextWait() == .milliseconds(10))
        follower.cancel()
        try await follower.value
        #expect(await received.next() == nil)
    }

    @Test func aSequenceStartedAgainAfterItsLastNumberMissesNothing() async throws {
        let start = try await admin.record("p001", in: "products").change
        let stored = try await changeFive()
        var seen: [CatalogChange] = []
        for try await change in admin.changes(of: "products", since: start, options: Self.options()) {
            seen.append(change)
            if seen.count == 3 { break }
        }
        let last = try #require(seen.last).number
        for try await change in admin.changes(of: "products", since: last, options: Self.options()) {
            seen.append(change)
            if seen.count == 5 { break }
        }
        #expect(seen.map(\.number) == stored.map(\.change))
        #expect(seen.map(\.record) == stored.map(\.record))
    }

    @Test func cancellingTheTaskEndsTheSequence() async throws {
        let gate = PauseGate()
        let start = try await admin.record("p001", in: "products").change
        let follower = Task { [admin] in
            var count = 0
            for try await _ in admin.changes(of: "products", since: start, options: Self.options(gate)) { count += 1 }
            return count
        }
        // Idle, between polls.
        #expect(await gate.nextWait() == .milliseconds(10))
        follower.cancel()
        #expect(try await follower.value == 0)
    }

    @Test func reloadsArriveAsReloads() async throws {
        var changes = admin.changes(of: "cookbook", since: 0, options: Self.options()).makeAsyncIterator()
        // The log starts with the import that made the catalog: a reload.
        #expect(try await changes.next()?.kind == .reload)
        try live.importRecords([Record(id: "z1", title: "Zserbó")], into: "cookbook", locale: "hu")
        let imported = try await changes.next()
        #expect(imported?.kind == .reload && imported?.time != nil)
        // A log that no longer reaches back: one reload at the current number, then the rest.
        try live.pruneChangeLog()
        let added = try await admin.put(Record(id: "z2", title: "Zserbó II"), in: "cookbook")
        let fromStart = admin.changes(of: "cookbook", since: 0, options: Self.options())
        var fresh = fromStart.makeAsyncIterator()
        #expect(try await fresh.next() == CatalogChange(number: added.change, kind: .reload))
        let next = try await admin.put(Record(id: "z3", title: "Zserbó III"), in: "cookbook")
        #expect(try await fresh.next()?.number == next.change)
    }

    @Test func anUnknownCatalogEndsTheSequenceWithNotFound() async throws {
        do {
            for try await _ in admin.changes(of: "nope", since: 0, options: Self.options()) {}
            Issue.record("the sequence of a catalog that does not exist ended without an error")
        } catch {
            #expect(error.code == .notFound)
        }
    }
}
