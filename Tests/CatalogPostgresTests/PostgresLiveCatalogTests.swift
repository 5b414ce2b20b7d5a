import CatalogCollation
import CatalogCore
import CatalogDemo
import CatalogEngines
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Synchronization
import Testing

@testable import CatalogPostgres

/// Records changed in place on PostgreSQL, where what only this engine has matters: databases
/// of schema 2 upgrade to segments, several servers write one catalog at once and take change
/// numbers without gaps in commit order, and every server sees a change at its next read.
@Suite(.enabled(if: PostgresTestServer.url != nil, "needs CATALOG_TEST_POSTGRES"))
struct PostgresLiveCatalogTests {
    static let definition = CatalogDefinition(
        id: "cookbook", title: "Szakácskönyv", locale: "hu",
        categories: [CategoryInfo(id: 1, name: "Levesek"), CategoryInfo(id: 2, name: "Desszertek")])
    static let records = [
        Record(id: "r1", title: "Gulyásleves", categories: ["Levesek"], featured: 1),
        Record(id: "r2", title: "Cukros palacsinta", categories: ["Desszertek"]),
        Record(id: "r3", title: "Almás pite", categories: ["Desszertek"]),
        Record(id: "r4", title: "Zsemlegombóc", categories: ["Levesek"]),
    ]

    static func edit(
        _ edits: [RecordEdit], in database: any CatalogDatabase, actor: String? = nil
    ) throws -> EditOutcome {
        let outcome = try CatalogEditor.apply(
            edits, to: "cookbook", in: database, collation: try ICUCollation.forImport(locale: "hu"), actor: actor)
        _ = try SegmentMerger.mergeAll(catalog: "cookbook", in: database)
        return outcome
    }

    static func titles(_ query: String, in database: any CatalogDatabase) throws -> [String] {
        try database.read { reader in
            try reader.search(SearchRequest(query: query).checked(), in: reader.requireCatalog("cookbook")).hits.map {
                $0.stored.title
            }
        }
    }

    @Test func aDatabaseOfSchema3BecomesOneSegmentPerCatalogAndTakesChanges() throws {
        let temporary = try TemporaryPostgresDatabase()
        let database = try PostgresDatabase(url: temporary.url)
        try load(Self.records, as: Self.definition, into: database)
        database.close()
        // The layout of schema 3, with the catalog in it (what a database of the previous
        // program holds).
        try temporary.psql(
            """
            DROP TABLE changes, deleted_documents, segments, stored_images, api_keys, audit_events;
            DROP INDEX items_live_id, items_live_order, items_live_featured;
            ALTER TABLE items DROP COLUMN live;
            ALTER TABLE item_categories DROP COLUMN segment;
            ALTER TABLE catalogs DROP COLUMN change;
            CREATE UNIQUE INDEX items_id ON items (version, id);
            CREATE INDEX items_order ON items (version, section, sort_key, id);
            CREATE INDEX items_featured ON items (version, featured) WHERE featured IS NOT NULL;
            DELETE FROM catalog_schema WHERE version >= 4;
            """)
        let version = try temporary.psql("SELECT version FROM catalogs")

        let migrated = try PostgresDatabase(url: temporary.url)
        defer { migrated.close() }
        #expect(
            try temporary.psql("SELECT string_agg(version::text, ',' ORDER BY version) FROM catalog_schema")
                == "1,2,3,4,5,6,7")
        #expect(
            try temporary.psql("SELECT segment, version, documents, deleted FROM segments")
                == "\(version)|\(version)|4|0")
        #expect(try temporary.psql("SELECT count(*) FROM items WHERE live = version") == "4")
        try migrated.read { reader in
            let catalog = try reader.requireCatalog("cookbook")
            #expect(catalog.change == 0)
            #expect(try reader.items(of: catalog, limit: 10).items.map(\.id) == ["r3", "r2", "r1", "r4"])
            #expect(try reader.items(of: catalog, category: "Levesek", limit: 10).items.map(\.id) == ["r1", "r4"])
            #expect(try reader.featured(of: catalog, limit: 5).map(\.id) == ["r1"])
            #expect(try reader.searchSegments(of: catalog).map(\.documents) == [4])
            #expect(try reader.oldestChange(of: catalog) == nil)
        }
        #expect(try Self.titles("leves", in: migrated) == ["Gulyásleves", "Zsemlegombóc"])
        let outcome = try Self.edit(
            [
                RecordEdit(.upsert(Record(id: "r5", title: "Bableves", categories: ["Levesek"]))),
                RecordEdit(.delete(id: "r1")),
            ], in: migrated)
        #expect(outcome.change == 2)
        #expect(try Self.titles("leves", in: migrated) == ["Bableves", "Zsemlegombóc"])
        try migrated.read { reader in
            let catalog = try reader.requireCatalog("cookbook")
            #expect(try reader.changes(of: catalog, since: 0, limit: 10).map(\.number) == [1, 2])
            #expect(try reader.items(of: catalog, category: "Levesek", limit: 10).items.map(\.id) == ["r5", "r4"])
            #expect(try reader.featured(of: catalog, limit: 5).isEmpty)
        }
        // The next import, which changes little, is applied as changes like any other.
        try load(Self.records, as: Self.definition, into: migrated)
        #expect(try Self.titles("leves", in: migrated) == ["Gulyásleves", "Zsemlegombóc"])
        try migrated.read { reader in
            let catalog = try reader.requireCatalog("cookbook")
            #expect(try reader.changes(of: catalog, since: 2, limit: 10).map(\.kind) == [.upsert, .delete])
        }
    }

    /// Two servers (two databases on one PostgreSQL database) change the same catalog at once:
    /// every change gets its own number, the numbers have no gaps, and their order is the order
    /// the changes were committed in (each record's entries chain: one's record is the next
    /// one's previous).
    @Test func twoServersChangingOneCatalogTakeGapFreeNumbersInCommitOrder() throws {
        let temporary = try TemporaryPostgresDatabase()
        let servers = [try PostgresDatabase(url: temporary.url), try PostgresDatabase(url: temporary.url)]
        defer { servers.forEach { $0.close() } }
        try load(Self.records, as: Self.definition, into: servers[0])
        let rounds = 12
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: servers.count) { server in
            do {
                for round in 0..<rounds {
                    // Both servers change the shared records r1 and r2, and records of their own.
                    let shared = Record(id: "r\(1 + round % 2)", title: "Közös \(server)-\(round)")
                    let own = Record(id: "s\(server)-\(round % 3)", title: "Saját \(server)-\(round)")
                    var edits = [RecordEdit(.upsert(shared)), RecordEdit(.upsert(own))]
                    if round % 4 == 3 { edits.append(RecordEdit(.delete(id: "s\(server)-\((round + 1) % 3)"))) }
                    _ = try Self.edit(edits, in: servers[server], actor: "server\(server)")
                }
            } catch {
                failures.withLock { $0.append("server \(server): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let expected = 1 + servers.count * rounds * 2 + servers.count * (rounds / 4)
        try servers[1].read { reader in
            let catalog = try reader.requireCatalog("cookbook")
            let log = try reader.changes(of: catalog, since: 0, limit: 1_000)
            #expect(catalog.change == expected)
            #expect(log.map(\.number) == Array(1...expected))
            var last: [String: [UInt8]?] = [:]
            for entry in log.dropFirst() {
                let item = try #require(entry.item)
                if let known = last[item] {
                    #expect(entry.previous == known, "change \(entry.number) follows the last one of \(item)")
                }
                last[item] = .some(entry.record)
            }
            // What the log says last is what the catalog holds.
            for (item, record) in last {
                #expect(try reader.item(of: catalog, id: item)?.json == record, "\(item)")
            }
            #expect(catalog.summary.count == Self.records.count + last.values.filter { $0 != nil }.count - 2)
        }
        #expect(try Int(temporary.psql("SELECT coalesce(max(change), 0) FROM deleted_documents"))! <= expected)
        #expect(
            try temporary.psql("SELECT sum(deleted) = (SELECT count(*) FROM deleted_documents) FROM segments") == "t")
    }

    /// A writer that holds the catalog's row (as another server's change would) makes a change
    /// wait for it, and the change then takes the number after the one that writer took.
    @Test func aChangeWaitsForTheCatalogRowAndTakesTheNextNumber() throws {
        let temporary = try TemporaryPostgresDatabase()
        let database = try PostgresDatabase(url: temporary.url)
        defer { database.close() }
        try load(Self.records, as: Self.definition, into: database)
        let other = try PostgresConnection(PostgresLocation(temporary.url))
        defer { other.close() }
        try other.execute("BEGIN")
        try other.query(
            "UPDATE catalogs SET change = change + 1 WHERE id = $1 RETURNING change", [.text("cookbook")])
        try other.query(
            "INSERT INTO changes (catalog, number, kind, at) VALUES ($1, 2, 'definition', '2030-01-01T00:00:00.000Z')",
            [.text("cookbook")])
        let done = Gate()
        let outcome = Outcome()
        let thread = Thread {
            let result = Result { try Self.edit([RecordEdit(.upsert(Record(id: "r9", title: "Lecsó")))], in: database) }
            outcome.result.withLock { $0 = result }
            done.open()
        }
        thread.start()
        // The change is waiting for the row lock (an event the server reports), not done.
        #expect(
            try waitUntil(every: .milliseconds(5)) {
                try temporary.psql(
                    """
                    SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
                        AND wait_event_type = 'Lock' AND query LIKE '%FOR UPDATE%'
                    """) == "1"
            })
        #expect(!done.opened)
        try other.execute("COMMIT")
        #expect(done.wait())
        let result = try #require(outcome.result.withLock { $0 })
        #expect(try result.get().change == 3)
        try database.read { reader in
            let catalog = try reader.requireCatalog("cookbook")
            #expect(try reader.changes(of: catalog, since: 0, limit: 10).map(\.number) == [1, 2, 3])
        }
    }

    /// Another server notices a change of one record at its next read: its read epoch moves
    /// (response caches), and its searches read the new segment although it had loaded the
    /// catalog's index before.
    @Test func anotherServerSeesAChangeAtItsNextRead() throws {
        let temporary = try TemporaryPostgresDatabase()
        let writer = try PostgresDatabase(url: temporary.url)
        defer { writer.close() }
        let server = try PostgresDatabase(url: temporary.url)
        defer { server.close() }
        try load(Self.records, as: Self.definition, into: writer)
        #expect(try Self.titles("palacsinta", in: server) == ["Cukros palacsinta"])
        let before = try server.read { try $0.requireCatalog("cookbook") }
        let epoch = try server.readEpoch()
        #expect(try server.readEpoch() == epoch)

        var changed = Self.records[1]
        changed.title = "Túrós palacsinta"
        _ = try Self.edit([RecordEdit(.upsert(changed))], in: writer)
        #expect(try server.readEpoch() != epoch)
        #expect(try Self.titles("palacsinta", in: server) == ["Túrós palacsinta"])
        #expect(try Self.titles("cukros", in: server).isEmpty)
        let after = try server.read { try $0.requireCatalog("cookbook") }
        #expect(after.versionKey != before.versionKey)
        // A reader holding the catalog as it was is told it changed.
        #expect(throws: StorageError.self) { try server.read { try $0.sections(of: before) } }

        let epoch2 = try server.readEpoch()
        _ = try Self.edit([RecordEdit(.delete(id: "r2"))], in: writer)
        #expect(try server.readEpoch() != epoch2)
        #expect(try Self.titles("palacsinta", in: server).isEmpty)
        try server.read { reader in
            let catalog = try reader.requireCatalog("cookbook")
            #expect(try reader.item(of: catalog, id: "r2") == nil)
            #expect(catalog.categories.first { $0.name == "Desszertek" }?.count == 1)
        }
    }

    /// An offline snapshot of a catalog whose records changed in place is the catalog rebuilt as
    /// one segment, answering as the database does.
    @Test func aSnapshotOfAChangedCatalogAnswersAsTheDatabase() throws {
        let temporary = try TemporaryDatabase(engine: .postgres)
        let database = temporary.database
        let generator = CatalogGenerator(items: 600, locale: "hu", seed: 5)
        var definition = generator.definition
        definition.id = "cookbook"
        _ = try CatalogImporter.run(
            into: database, definition: definition, replace: true, collation: try ICUCollation.forImport(locale: "hu"),
            records: { add in
                try generator.forEachRecord { try add($0) }
                return nil
            })
        let ids = try database.read { reader in
            try reader.items(of: reader.requireCatalog("cookbook"), limit: 500).items.map(\.id)
        }
        for (index, id) in ids.prefix(30).enumerated() {
            if index % 3 == 0 {
                _ = try Self.edit([RecordEdit(.delete(id: id))], in: database)
            } else {
                _ = try Self.edit(
                    [RecordEdit(.upsert(Record(id: id, title: "Átnevezett tétel \(index)", categories: ["Új"])))],
                    in: database)
            }
        }
        let path = temporary.directory.appendingPathComponent("snapshot.sqlite").path
        _ = try database.read { reader in
            try CatalogEngines.writeSnapshot(catalog: "cookbook", from: reader, to: path) { _ in [:] }
        }
        let snapshot = try CatalogEngines.open(path)
        defer { snapshot.close() }
        func answers(_ database: any CatalogDatabase) throws -> [String] {
            try database.read { reader in
                let catalog = try reader.requireCatalog("cookbook")
                var answers = [
                    "\(catalog.summary.count) \(catalog.categories.map { "\($0.name)=\($0.count)" })",
                    try reader.sections(of: catalog).map { "\($0.label)=\($0.count)" }.joined(separator: " "),
                ]
                var after: String?
                repeat {
                    let page = try reader.items(of: catalog, after: after, limit: 200)
                    answers += page.items.map(\.id)
                    after = page.next
                } while after != nil
                for query in ["", "átnevezett", "tétel 1", "a", "új"] {
                    let result = try reader.search(SearchRequest(query: query, limit: 30).checked(), in: catalog)
                    answers.append("\(query): \(result.total) \(result.hits.map(\.stored.id))")
                }
                return answers
            }
        }
        #expect(try answers(snapshot) == answers(database))
        let segments = try snapshot.read { reader in
            try reader.searchSegments(of: reader.requireCatalog("cookbook")).count
        }
        #expect(segments == 1)
    }
}

/// What a change made on another thread came to.
private final class Outcome: Sendable {
    let result = Mutex<Result<EditOutcome, any Error>?>(nil)
}
