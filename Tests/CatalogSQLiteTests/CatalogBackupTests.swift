import CatalogCollation
import CatalogCore
import CatalogEngines
import CatalogModel
import CatalogSQLite
import CatalogStorage
import CatalogTestSupport
import Foundation
import SQLiteSupport
import Synchronization
import Testing

/// Backups of a live SQLite database (``CatalogBackup``): consistent under a stream of writes,
/// checked, never half-written; restores into an open database that its readers (and their
/// loaded search indexes) see at their next read; scheduled backups named by time, the newest
/// kept, a failure logged.
@Suite(.timeLimit(.minutes(5))) struct CatalogBackupTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    static let definition = CatalogDefinition(id: "shop", title: "Shop", locale: "en")

    /// A database at `name` with catalog "shop" holding `records`.
    func database(_ name: String, _ records: [Record]) throws -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: path(name))
        _ = try CatalogImporter.run(
            into: database, definition: Self.definition, replace: true, collation: try ICUCollation(locale: "en"),
            records: { add in
                for record in records { try add(record) }
                return nil
            })
        return database
    }

    static func ids(_ database: any CatalogDatabase, search query: String) throws -> [String] {
        try database.read { reader in
            try reader.search(SearchRequest(query: query, limit: 50).checked(), in: reader.requireCatalog("shop"))
                .response().items.map(\.record.id)
        }
    }

    static func record(_ database: any CatalogDatabase, _ id: String) throws -> Record? {
        try database.read { reader in try reader.item(of: reader.requireCatalog("shop"), id: id)?.record() }
    }

    @Test func aBackupTakenDuringWritesHoldsEveryWriteAcknowledgedBeforeIt() throws {
        let live = try database("live.sqlite", (1...300).map { Record(id: "r\($0)", title: "Record \($0)") })
        defer { live.close() }
        let acknowledged = Mutex<[String]>([])
        let stop = Atomic<Bool>(false)
        let writes = Atomic<Int>(0)
        let writer = Thread {
            var number = 0
            while !stop.load(ordering: .acquiring) {
                number += 1
                let id = "w\(number)"
                do {
                    _ = try CatalogEditor.apply(
                        [RecordEdit(.upsert(Record(id: id, title: "Written \(number)")))], to: "shop", in: live,
                        collation: try ICUCollation(locale: "en"))
                    acknowledged.withLock { $0.append(id) }
                    writes.add(1, ordering: .releasing)
                } catch {
                    Issue.record("write \(id) failed: \(error)")
                    return
                }
            }
        }
        writer.start()
        defer { stop.store(true, ordering: .releasing) }
        #expect(waitUntil { writes.load(ordering: .acquiring) >= 20 })
        let before = acknowledged.withLock { $0 }
        // Between the backup's first two steps the writer acknowledges another write: an event the
        // backup waits for, so that writes go on during it however the threads are scheduled.
        let waited = Atomic<Bool>(false)
        let written = try CatalogBackup.backUp(
            database: live.path, to: path("backup.sqlite"),
            pace: Connection.BackupPace(pagesPerStep: 4, restartsBeforeOneStep: 3) {
                guard !waited.exchange(true, ordering: .acquiringAndReleasing) else { return }
                waitUntil { writes.load(ordering: .acquiring) > before.count }
            })
        let after = writes.load(ordering: .acquiring)
        stop.store(true, ordering: .releasing)
        #expect(after > before.count, "writes went on during the backup")

        try CatalogBackup.check(backup: written.catalogFile)
        try CatalogBackup.restore(from: written.catalogFile, into: path("restored.sqlite"), replace: false)
        let restored = try SQLiteDatabase(path: path("restored.sqlite"))
        defer { restored.close() }
        let connection = try Connection(path: path("restored.sqlite"), mode: .readOnly)
        #expect(try connection.integrityProblems() == [])
        connection.close()
        for id in before {
            #expect(try Self.record(restored, id)?.id == id, "acknowledged write \(id) is in the backup")
        }
        #expect(try Self.record(restored, "r300")?.title == "Record 300")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!files.contains { $0.contains(".partial-") }, "no temporary file is left: \(files)")
    }

    @Test func aRestoreIntoAnOpenDatabaseIsSeenByItsReadersAndTheirLoadedIndexes() throws {
        let other = try database("other.sqlite", [Record(id: "b1", title: "Blueberry jam")])
        _ = try CatalogEditor.apply(
            [RecordEdit(.upsert(Record(id: "b2", title: "Blackberry jam")))], to: "shop", in: other,
            collation: try ICUCollation(locale: "en"))
        other.close()
        try CatalogBackup.backUp(database: path("other.sqlite"), to: path("other-backup.sqlite"))

        // The same catalog version and change numbers, other records: only the file's identity differs.
        let live = try database("live.sqlite", [Record(id: "a1", title: "Apple pie")])
        defer { live.close() }
        _ = try CatalogEditor.apply(
            [RecordEdit(.upsert(Record(id: "a2", title: "Apricot pie")))], to: "shop", in: live,
            collation: try ICUCollation(locale: "en"))
        #expect(try Self.ids(live, search: "pie").sorted() == ["a1", "a2"])

        #expect(throws: StorageError.self) {
            try CatalogBackup.restore(from: path("other-backup.sqlite"), into: live.path, replace: false)
        }
        try CatalogBackup.restore(from: path("other-backup.sqlite"), into: live.path, replace: true)
        #expect(try Self.ids(live, search: "jam").sorted() == ["b1", "b2"])
        #expect(try Self.ids(live, search: "pie") == [])
        #expect(try Self.record(live, "a1") == nil)
        // The restored file keeps its write-ahead log and takes writes again.
        _ = try CatalogEditor.apply(
            [RecordEdit(.upsert(Record(id: "b3", title: "Blackcurrant jam")))], to: "shop", in: live,
            collation: try ICUCollation(locale: "en"))
        #expect(try Self.ids(live, search: "jam").sorted() == ["b1", "b2", "b3"])
    }

    @Test func aBackupRefusesToOverwriteAndLeavesNothingWhenItFails() throws {
        let live = try database("live.sqlite", [Record(id: "a1", title: "Apple pie")])
        live.close()
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: path("taken.sqlite")))
        #expect(throws: StorageError.self) {
            try CatalogBackup.backUp(database: path("live.sqlite"), to: path("taken.sqlite"))
        }
        #expect(try String(contentsOfFile: path("taken.sqlite"), encoding: .utf8) == "keep me")
        try CatalogBackup.backUp(database: path("live.sqlite"), to: path("taken.sqlite"), replace: true)
        try CatalogBackup.check(backup: path("taken.sqlite"))

        // Not a catalog database: refused, and no file is made.
        try Data("not a database at all, just text".utf8).write(to: URL(fileURLWithPath: path("text.sqlite")))
        #expect(throws: StorageError.self) {
            try CatalogBackup.backUp(database: path("text.sqlite"), to: path("from-text.sqlite"))
        }
        #expect(throws: StorageError.self) { try CatalogBackup.check(backup: path("text.sqlite")) }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!files.contains { $0.contains("from-text") || $0.contains(".partial-") }, "\(files)")
    }

    @Test func aBackupWithAccountsRestoresThem() throws {
        let live = try database("live.sqlite", [Record(id: "a1", title: "Apple pie")])
        _ = try live.users().addUser(
            name: "ada", isAdmin: true, passwordHash: nil, tokenSelector: "sel", tokenHash: [1, 2, 3])
        live.close()
        let written = try DatabaseBackup.backUp(path("live.sqlite"), to: path("b.sqlite"), withAccounts: true)
        #expect(written.accountsFile == path("b-users.sqlite"))
        try DatabaseBackup.restore(path("b.sqlite"), into: path("new.sqlite"), withAccounts: true, replace: false)
        let restored = try SQLiteDatabase(path: path("new.sqlite"))
        defer { restored.close() }
        #expect(try restored.users().user(named: "ada")?.isAdmin == true)
        #expect(throws: StorageError.self) {
            try DatabaseBackup.backUp("postgres://localhost/catalog", to: path("pg.sqlite"), withAccounts: false)
        }
    }

    @Test func scheduledBackupsAreNamedByTimeKeepTheNewestAndLogFailures() throws {
        let live = try database("live.sqlite", [Record(id: "a1", title: "Apple pie")])
        defer { live.close() }
        let clock = Mutex(Date(timeIntervalSince1970: 1_764_990_000))
        let lines = LockedLines()
        let backups = ScheduledBackups(
            database: live.path, accounts: DatabaseBackup.accountsFile(of: live.path), directory: path("backups"),
            keep: 2, interval: 1_000_000, log: { lines.append($0) },
            now: {
                clock.withLock {
                    $0 = $0.addingTimeInterval(3600); return $0
                }
            })
        backups.start()
        for count in 1...3 {
            backups.trigger()
            #expect(waitUntil { lines.lines.count == count })
        }
        backups.stop()
        #expect(lines.lines.allSatisfy { $0.hasPrefix("backed up ") }, "\(lines.lines)")
        let names = try FileManager.default.contentsOfDirectory(atPath: path("backups")).sorted()
        #expect(
            names == [
                "live-20251206T050000Z-users.sqlite", "live-20251206T050000Z.sqlite",
                "live-20251206T060000Z-users.sqlite", "live-20251206T060000Z.sqlite",
            ])
        try CatalogBackup.check(backup: path("backups/live-20251206T060000Z.sqlite"))

        let failing = ScheduledBackups(
            database: path("missing.sqlite"), accounts: nil, directory: path("backups"), keep: 2, interval: 1_000_000,
            log: { lines.append($0) })
        failing.start()
        failing.trigger()
        #expect(waitUntil { lines.lines.count == 4 })
        failing.trigger()
        #expect(waitUntil { lines.lines.count == 5 }, "the schedule goes on after a failure")
        failing.stop()
        #expect(lines.lines.suffix(2).allSatisfy { $0.contains("failed") && $0.contains("missing.sqlite") })
    }
}
