import CatalogCollation
@testable import CatalogCore
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

/// Merges apart from the edits (``SegmentMerger``), on every engine: a merge changes no answer,
/// one that races with edits loses none of them, and one that stops half-way leaves the catalog
/// as it was.
@Suite struct SegmentMergerTests {
    typealias Live = LiveCatalogTests.Live

    /// A catalog changed by single edits without merges: many small segments.
    func unmerged(_ engine: TemporaryDatabase.Engine) throws -> Live {
        let live = try Live(engine)
        live.merges = false
        for index in 0..<11 {
            try live.upsert(
                Record(
                    id: "s\(index)", title: "Szilvás gombóc \(index)",
                    categories: [index % 2 == 0 ? "Levesek" : "Desszertek"]))
        }
        try live.delete("s4")
        try live.delete("r2")
        return live
    }

    func segmentNumbers(_ live: Live) throws -> [Int64] {
        try live.fixture.read { try $0.searchSegments(of: $0.requireCatalog("cookbook")).map(\.number) }
    }

    /// Every query's pages, totals and scope counts.
    func answers(_ live: Live) throws -> [String] {
        try live.fixture.read { reader in
            let catalog = try reader.requireCatalog("cookbook")
            return try live.queries.flatMap { query in
                try [SearchSort.relevance, .title, .priceDescending].map { sort in
                    let (ids, total, scopes) = try LiveCatalogTests.search(reader, catalog, query, sort: sort)
                    return "\(query) \(sort): \(total) \(ids) \(scopes.map(\.count))"
                }
            }
        }
    }

    @Test(arguments: CatalogBehaviourTests.engines)
    func answersAreTheSameBeforeAndAfterAMerge(engine: TemporaryDatabase.Engine) throws {
        let live = try unmerged(engine)
        let before = try answers(live)
        let segments = try segmentNumbers(live)
        #expect(segments.count == 12, "the base and one segment per edit")
        try LiveCatalogTests.expectSameAnswers(live)
        let change = try live.fixture.catalog("cookbook").change

        let steps = try SegmentMerger.mergeAll(catalog: "cookbook", in: live.fixture.database)
        #expect(!steps.isEmpty)
        let merged = try segmentNumbers(live)
        #expect(merged.count < segments.count && merged.first == segments.first, "the base stays")
        #expect(try answers(live) == before)
        try LiveCatalogTests.expectSameAnswers(live)
        #expect(try live.fixture.catalog("cookbook").change == change, "a merge is no change of the records")
        #expect(try SegmentMerger.mergeAll(catalog: "cookbook", in: live.fixture.database).isEmpty)

        for index in 0..<3 { try live.upsert(Record(id: "t\(index)", title: "Túrós táska \(index)")) }
        let more = try answers(live)
        let compacted = try #require(try SegmentMerger.compact(catalog: "cookbook", in: live.fixture.database))
        #expect(compacted.records == 13)
        #expect(try segmentNumbers(live).count == 2)
        #expect(try answers(live) == more)
        try LiveCatalogTests.expectSameAnswers(live)
    }

    /// Edits made after a merge read its segments and before it writes: the merge sees its
    /// segments changed, builds again from a new snapshot, and every edit is kept.
    @Test(arguments: CatalogBehaviourTests.engines)
    func aMergeRacingWithEditsLosesNothing(engine: TemporaryDatabase.Engine) throws {
        let live = try unmerged(engine)
        // The emptied segment goes first; the next merge is of the ten small segments.
        #expect(
            try SegmentMerger.mergeOnce(catalog: "cookbook", in: live.fixture.database, temporaryDirectory: nil)?
                .records == 0)
        let read = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let reads = Mutex(0)
        let outcome = Mutex<Result<SegmentMerger.Step?, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let database = live.fixture.database
        let thread = Thread {
            let result = Result {
                try SegmentMerger.mergeOnce(
                    catalog: "cookbook", in: database, temporaryDirectory: nil,
                    afterReading: {
                        // Only the first snapshot waits for the edits.
                        guard
                            reads.withLock({ count in
                                count += 1
                                return count == 1
                            })
                        else { return }
                        read.signal()
                        proceed.wait()
                    })
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        thread.start()
        read.wait()
        // A record of a segment being merged changes, one goes, and a new one comes.
        try live.upsert(Record(id: "s1", title: "Szilvás lepény", categories: ["Desszertek"]))
        try live.delete("s2")
        try live.upsert(Record(id: "s20", title: "Meggyes rétes"))
        proceed.signal()
        done.wait()
        // The edits emptied two of its segments: the merge read again, and dropped those first.
        let step = try #require(try outcome.withLock { $0 }?.get())
        #expect(step.records == 0 && step.segments == 2)
        #expect(reads.withLock { $0 } == 2, "built again from a new snapshot")
        #expect(try live.fixture.item("cookbook", "s1")?.title == "Szilvás lepény")
        #expect(try live.fixture.item("cookbook", "s2") == nil)
        #expect(try live.fixture.search("lepeny", in: "cookbook").items.map(\.id) == ["s1"])
        try LiveCatalogTests.expectSameAnswers(live)
        _ = try SegmentMerger.mergeAll(catalog: "cookbook", in: database)
        try LiveCatalogTests.expectSameAnswers(live)
    }

    /// A merge that stops inside its transaction (as a crash would) leaves the segments and
    /// every answer as they were; the next merge runs as if it had not been tried.
    @Test(arguments: CatalogBehaviourTests.engines)
    func aMergeStoppedHalfWayLeavesTheCatalogAsItWas(engine: TemporaryDatabase.Engine) throws {
        struct Crash: Error {}
        let live = try unmerged(engine)
        #expect(
            try SegmentMerger.mergeOnce(catalog: "cookbook", in: live.fixture.database, temporaryDirectory: nil)?
                .records == 0)
        let before = try answers(live)
        let segments = try segmentNumbers(live)
        #expect(segments.count == 11)
        #expect(throws: Crash.self) {
            try SegmentMerger.mergeOnce(
                catalog: "cookbook", in: live.fixture.database, temporaryDirectory: nil, interrupt: { throw Crash() })
        }
        #expect(try segmentNumbers(live) == segments)
        #expect(try answers(live) == before)
        try LiveCatalogTests.expectSameAnswers(live)
        #expect(try SegmentMerger.mergeAll(catalog: "cookbook", in: live.fixture.database).map(\.records) == [10])
        #expect(try segmentNumbers(live).count == 2)
        #expect(try answers(live) == before)
    }
}
