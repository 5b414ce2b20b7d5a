import CatalogCollation
import CatalogCore
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Synchronization
import Testing

/// Reads are scoped, on every engine: one snapshot for exactly the closure, nested reads in the
/// outer snapshot, an `async` twin on the database's threads, and a search index cache per
/// database.
@Suite struct ScopedReadTests {
    static let pantry = CatalogDefinition(id: "pantry", title: "Pantry", locale: "en")

    /// Imports `records` as the pantry through `database`.
    static func stock(_ records: [Record], into database: any CatalogDatabase) throws {
        _ = try CatalogImporter.run(
            into: database, definition: pantry, replace: true, collation: try ICUCollation.forImport(locale: "en"),
            records: { add in
                for record in records { try add(record) }
                return nil
            })
    }

    @Test(arguments: CatalogBehaviourTests.engines)
    func aSnapshotLastsExactlyTheClosure(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try Self.stock([Record(id: "a", title: "Apples")], into: fixture.database)
        let other = try TemporaryDatabase.reopen(fixture.temporary)
        defer { other.close() }
        try fixture.read { (reader) throws in
            #expect(try reader.requireCatalog("pantry").summary.count == 1)
            // Another connection writes while the read is open: the read does not see it.
            try Self.stock([Record(id: "a", title: "Apples"), Record(id: "b", title: "Beans")], into: other)
            #expect(try reader.requireCatalog("pantry").summary.count == 1)
            #expect(try reader.catalogs().map(\.count) == [1])
        }
        // The next read does.
        #expect(try fixture.read { try $0.requireCatalog("pantry").summary.count } == 2)
        // So it does for a write through the same database, from another thread.
        try fixture.read { (reader) throws in
            #expect(try reader.requireCatalog("pantry").summary.count == 2)
            let done = DispatchSemaphore(value: 0)
            let database = fixture.database
            let thread = Thread {
                try? Self.stock([Record(id: "c", title: "Cider")], into: database)
                done.signal()
            }
            thread.start()
            done.wait()
            #expect(try reader.requireCatalog("pantry").summary.count == 2)
        }
        #expect(try fixture.read { try $0.requireCatalog("pantry").summary.count } == 1)
    }

    @Test(arguments: CatalogBehaviourTests.engines)
    func aNestedReadReadsInTheOuterSnapshot(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try Self.stock([Record(id: "a", title: "Apples")], into: fixture.database)
        let other = try TemporaryDatabase.reopen(fixture.temporary)
        defer { other.close() }
        try fixture.read { (outer) throws in
            #expect(try outer.requireCatalog("pantry").summary.count == 1)
            try Self.stock([Record(id: "a", title: "Apples"), Record(id: "b", title: "Beans")], into: other)
            try fixture.read { (inner) throws in
                #expect(inner === outer)
                #expect(try inner.requireCatalog("pantry").summary.count == 1)
            }
            // The outer read goes on in its snapshot after the nested one returned.
            #expect(try outer.requireCatalog("pantry").summary.count == 1)
        }
        #expect(try fixture.read { try $0.requireCatalog("pantry").summary.count } == 2)
    }

    @Test(arguments: CatalogBehaviourTests.engines)
    func theAsyncReadRunsOnTheDatabasesThreads(engine: TemporaryDatabase.Engine) async throws {
        let fixture = try StoreFixture(engine)
        try Self.stock([Record(id: "a", title: "Apples"), Record(id: "b", title: "Beans")], into: fixture.database)
        // (Which threads: ReadWorkersTests. Thread names are for debuggers only, since Foundation on
        // Linux does not always report the name a thread gave itself.)
        let count = try await fixture.database.read { reader in
            try reader.requireCatalog("pantry").summary.count
        }
        #expect(count == 2)
        // Errors come back as thrown.
        await #expect(throws: StorageError.self) {
            try await fixture.database.read { try $0.requireCatalog("nope") }
        }
        // Many at once, each in a snapshot of its own.
        let database = fixture.database
        let titles = try await withThrowingTaskGroup(of: String.self) { group in
            for id in ["a", "b", "a", "b", "a", "b", "a", "b"] {
                group.addTask {
                    try await database.read { reader in
                        try reader.item(of: reader.requireCatalog("pantry"), id: id)?.title ?? ""
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(titles.sorted() == Array(repeating: "Apples", count: 4) + Array(repeating: "Beans", count: 4))
    }

    @Test(arguments: CatalogBehaviourTests.engines)
    func eachDatabaseHasItsOwnSearchIndexCache(engine: TemporaryDatabase.Engine) throws {
        let first = try StoreFixture(engine)
        let second = try StoreFixture(engine)
        for fixture in [first, second] {
            try Self.stock([Record(id: "a", title: "Apples")], into: fixture.database)
        }
        let cache = try first.read { $0.indexCache }
        #expect(try first.read { $0.indexCache } === cache, "one cache for every read of a database")
        #expect(try second.read { $0.indexCache } !== cache)
        #expect(try first.search("app", in: "pantry").items.map(\.id) == ["a"])
        #expect(try first.read { $0.indexCache.indexCount } == 1)
        #expect(try second.read { $0.indexCache.indexCount } == 0, "the other database loaded nothing")
    }

    /// Searches that all find an index missing (each worker's first after a start) take the one
    /// load under way instead of each loading a copy.
    @Test func anIndexIsLoadedOnceWhileOthersWaitForIt() throws {
        let cache = SearchIndexCache()
        let loads = Mutex(0)
        let loading = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let values = Mutex<[Int]>([])
        DispatchQueue.global().async(group: group) {
            let value = try? cache.value(for: "segment") { () -> Int in
                loads.withLock { $0 += 1 }
                loading.signal()
                release.wait()
                return 7
            }
            values.withLock { $0.append(value ?? -1) }
        }
        loading.wait()
        for _ in 0..<3 {
            DispatchQueue.global().async(group: group) {
                let value = try? cache.value(for: "segment") { () -> Int in
                    loads.withLock { $0 += 1 }
                    return 8
                }
                values.withLock { $0.append(value ?? -1) }
            }
        }
        release.signal()
        group.wait()
        #expect(loads.withLock { $0 } == 1)
        #expect(values.withLock { $0 } == [7, 7, 7, 7])
        #expect(cache.indexCount == 1)
    }

    /// A load waits only for a load of the same index: another catalog's (the new version an
    /// import just made) keeps loading while this one is found or loaded.
    @Test func anotherIndexLoadsWhileOneIsUnderWay() throws {
        let cache = SearchIndexCache()
        let loading = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let events = Mutex<[String]>([])
        DispatchQueue.global().async(group: group) {
            _ = try? cache.value(for: "imported") { () -> Int in
                loading.signal()
                // Bounded only so that a regression fails instead of hanging: were the loads one
                // at a time, the load below would end only after this one gave up.
                let released = release.wait(timeout: .now() + 60) == .success
                events.withLock { $0.append(released ? "released" : "gave up") }
                return 1
            }
        }
        loading.wait()
        #expect(try cache.value(for: "other") { 2 } == 2)
        events.withLock { $0.append("other loaded") }
        release.signal()
        group.wait()
        #expect(events.withLock { $0 } == ["other loaded", "released"])
        #expect(try cache.value(for: "imported") { 3 } == 1)
        #expect(cache.indexCount == 2)
    }

    @Test(arguments: CatalogBehaviourTests.engines)
    func theReadEpochChangesWithWritesOnly(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try Self.stock([Record(id: "a", title: "Apples")], into: fixture.database)
        let epoch = try fixture.database.readEpoch()
        _ = try fixture.read { try $0.catalogs() }
        #expect(try fixture.database.readEpoch() == epoch, "reading changes nothing")
        try Self.stock([Record(id: "b", title: "Beans")], into: fixture.database)
        let written = try fixture.database.readEpoch()
        #expect(written != epoch, "a write through this database")
        let other = try TemporaryDatabase.reopen(fixture.temporary)
        defer { other.close() }
        try Self.stock([Record(id: "c", title: "Cider")], into: other)
        #expect(try fixture.database.readEpoch() != written, "another process's write")
        guard engine == .sqlite else { return }
        // SQLite's epochs notice another process's commits at once, however soon one follows
        // another, and only then (the wal-index header stands in for asking the database).
        for (index, id) in ["d", "e", "f"].enumerated() {
            let seen = try fixture.database.readEpoch()
            #expect(try fixture.database.readEpoch() == seen, "nothing changed since")
            try Self.stock([Record(id: id, title: "Dates \(index)")], into: other)
            #expect(try fixture.database.readEpoch() != seen, "another write of that process")
            let inside = try fixture.read { _ in try fixture.database.readEpoch() }
            #expect(try fixture.database.readEpoch() == inside, "a check inside a read")
        }
        // A check inside a read answers for its snapshot; a commit it did not see is noticed
        // after it, though the header has not changed since that check.
        let before = try fixture.database.readEpoch()
        let during = try fixture.read { reader in
            _ = try reader.catalogs()
            try Self.stock([Record(id: "g", title: "Grapes")], into: other)
            return try fixture.database.readEpoch()
        }
        #expect(during == before, "the read's snapshot has not changed")
        #expect(try fixture.database.readEpoch() != during, "the commit the read did not see")
    }
}
