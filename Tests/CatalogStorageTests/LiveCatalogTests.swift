import CatalogCollation
import CatalogCore
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

/// Records changed in place (``CatalogEditor``), the same on every engine: after any sequence of
/// creations, replacements and deletions the catalog answers every browse, outline, position,
/// category, featured and search question exactly as a fresh import of the records it now holds,
/// and its change log numbers every change once, in order.
@Suite struct LiveCatalogTests {
    /// A catalog imported from ``StoreFixture/recipes``, changed through ``CatalogEditor``, with
    /// the records it should hold kept beside it.
    final class Live {
        let fixture: StoreFixture
        let collation: ICUCollation
        /// The records the catalog should hold, by id.
        var records: [String: Record]

        init(_ engine: TemporaryDatabase.Engine) throws {
            fixture = try StoreFixture(engine)
            collation = try ICUCollation.forImport(locale: "hu")
            try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
            records = Dictionary(uniqueKeysWithValues: StoreFixture.recipes.map { ($0.id, $0) })
        }

        /// Whether each batch is followed by the merges the server's maintenance runs after it.
        var merges = true

        /// Applies one batch to the catalog and to ``records``, then the merges it asks for.
        @discardableResult
        func apply(_ edits: [RecordEdit], actor: String? = nil) throws -> EditOutcome {
            let outcome = try CatalogEditor.apply(
                edits, to: "cookbook", in: fixture.database, collation: collation, actor: actor)
            if merges { _ = try SegmentMerger.mergeAll(catalog: "cookbook", in: fixture.database) }
            for edit in edits {
                switch edit.change {
                case .upsert(let record): records[record.id] = record
                case .delete(let id): records[id] = nil
                }
            }
            return outcome
        }

        func upsert(_ record: Record) throws { try apply([RecordEdit(.upsert(record))]) }
        func delete(_ id: String) throws { try apply([RecordEdit(.delete(id: id))]) }

        /// Imports ``records`` as catalog `oracle`, with the edited catalog's category numbers.
        func importOracle() throws {
            let catalog = try fixture.catalog("cookbook")
            var definition = catalog.definition
            definition.id = "oracle"
            _ = try CatalogImporter.run(
                into: fixture.database, definition: definition, replace: true, collation: collation,
                records: { add in
                    for record in records.values.sorted(by: { $0.id < $1.id }) { try add(record) }
                    return nil
                },
                categoryNumbers: Dictionary(catalog.categories.map { ($0.name, $0.id) }) { first, _ in first })
        }

        /// The queries every comparison asks: each title word, its first letters, a typo, the
        /// categories, everything.
        var queries: [String] {
            var queries: Set<String> = ["", "leves", "gomboc", "palacsinta", "gulyasleve", "pite alm", "zzz"]
            for record in records.values {
                for word in record.title.split(separator: " ") {
                    queries.insert(String(word))
                    queries.insert(String(word.prefix(3)))
                }
                for category in record.categories { queries.insert(category) }
            }
            return queries.sorted()
        }
    }

    /// Every page of a search, followed by its cursors: the ids in order, and the first page's
    /// total and scope counts.
    static func search(
        _ reader: any CatalogReader, _ catalog: StoredCatalog, _ query: String, scope: String? = nil,
        sort: SearchSort = .relevance
    ) throws -> (ids: [String], total: Int, scopes: [ScopeCount]) {
        var ids: [String] = []
        var after: String?
        var first: SearchResponse?
        repeat {
            let response = try reader.search(
                SearchRequest(query: query, scope: scope, sort: sort, after: after, limit: 2).checked(), in: catalog
            ).response()
            first = first ?? response
            ids += response.items.map(\.id)
            after = response.next
        } while after != nil && ids.count < 100
        return (ids, first?.total ?? 0, first?.scopes ?? [])
    }

    /// The edited catalog answers as `oracle`, a fresh import of what it should hold.
    static func expectSameAnswers(_ live: Live, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        try live.importOracle()
        try live.fixture.read { reader in
            let edited = try reader.requireCatalog("cookbook")
            let oracle = try reader.requireCatalog("oracle")
            #expect(edited.summary.count == live.records.count, sourceLocation: sourceLocation)
            #expect(edited.summary.count == oracle.summary.count, sourceLocation: sourceLocation)
            #expect(edited.categories == oracle.categories, sourceLocation: sourceLocation)
            #expect(try reader.sections(of: edited) == reader.sections(of: oracle), sourceLocation: sourceLocation)
            let all = try reader.items(of: oracle, limit: 500).items.map(\.id)
            #expect(try reader.items(of: edited, limit: 500).items.map(\.id) == all, sourceLocation: sourceLocation)
            // Keyset pages both ways.
            var forward: [String] = []
            var cursor: String?
            var last: String?
            repeat {
                let page = try reader.items(of: edited, after: cursor, limit: 3)
                forward += page.items.map(\.id)
                if page.next == nil { last = cursor }
                cursor = page.next
            } while cursor != nil
            #expect(forward == all, sourceLocation: sourceLocation)
            let end = try reader.items(of: edited, after: last, limit: 3)
            var backward = end.items.map(\.id)
            var previous = end.previous
            while let before = previous {
                let page = try reader.items(of: edited, before: before, limit: 3)
                backward = page.items.map(\.id) + backward
                previous = page.previous
            }
            #expect(backward == all, sourceLocation: sourceLocation)
            // Outlines, positions and places, of the whole catalog and of each category.
            for category in [nil] + oracle.categories.map(\.id) {
                let outline = try reader.outline(of: oracle, category: category)
                #expect(try reader.outline(of: edited, category: category) == outline, sourceLocation: sourceLocation)
                let list = try reader.items(of: oracle, category: category, position: 0, limit: 500).items.map(\.id)
                for start in stride(from: 0, to: outline.count + 1, by: 2) {
                    let page = try reader.items(of: edited, category: category, position: start, limit: 3)
                    #expect(page.count == outline.count, sourceLocation: sourceLocation)
                    #expect(
                        page.items.map(\.id) == Array(list[min(start, list.count)..<min(list.count, start + 3)]),
                        "category \(category ?? -1) from \(start)", sourceLocation: sourceLocation)
                    for (offset, cursor) in page.cursors.enumerated() {
                        let place = try reader.place(of: edited, category: category, cursor: cursor)
                        #expect(place.position == start + offset && place.exact, sourceLocation: sourceLocation)
                    }
                }
            }
            for category in oracle.categories {
                let expected = try reader.items(of: oracle, category: category.name, limit: 500).items.map(\.id)
                #expect(
                    try reader.items(of: edited, category: category.name, limit: 500).items.map(\.id) == expected,
                    "category \(category.name)", sourceLocation: sourceLocation)
            }
            #expect(
                try reader.featured(of: edited, limit: 20).map(\.id)
                    == reader.featured(of: oracle, limit: 20).map(\.id),
                sourceLocation: sourceLocation)
            for id in Set(StoreFixture.recipes.map(\.id)).union(live.records.keys) {
                #expect(
                    try reader.item(of: edited, id: id)?.json == reader.item(of: oracle, id: id)?.json,
                    "record \(id)", sourceLocation: sourceLocation)
            }
            // Searches: every page, in every scope for some, in every order for others.
            let scopes = reader.scopes(of: oracle).map(\.label).dropFirst()
            for (index, query) in live.queries.enumerated() {
                let expected = try search(reader, oracle, query)
                let found = try search(reader, edited, query)
                #expect(found.ids == expected.ids, "\"\(query)\"", sourceLocation: sourceLocation)
                #expect(found.total == expected.total, "\"\(query)\"", sourceLocation: sourceLocation)
                #expect(found.scopes == expected.scopes, "\"\(query)\"", sourceLocation: sourceLocation)
                if index % 5 == 0 {
                    for scope in scopes {
                        #expect(
                            try search(reader, edited, query, scope: scope).ids
                                == search(reader, oracle, query, scope: scope).ids,
                            "\"\(query)\" in \(scope)", sourceLocation: sourceLocation)
                    }
                }
                if index % 7 == 0 {
                    for sort in SearchSort.allCases where sort != .relevance {
                        #expect(
                            try search(reader, edited, query, sort: sort).ids
                                == search(reader, oracle, query, sort: sort).ids,
                            "\"\(query)\" by \(sort)", sourceLocation: sourceLocation)
                    }
                }
            }
        }
    }

    @Test(arguments: CatalogBehaviourTests.engines)
    func aBatchCreatesReplacesAndDeletesAndTheCatalogAnswersAsAnImport(engine: TemporaryDatabase.Engine) throws {
        let live = try Live(engine)
        let before = try live.fixture.catalog("cookbook")
        #expect(before.change == 1, "an import is the catalog's first change")
        var renamed = try #require(live.records["r2"])
        renamed.title = "Túrós palacsinta"
        let created = Record(
            id: "n1", title: "Bableves", subtitle: "füstölt csülökkel", categories: ["Levesek"], featured: 3)
        let outcome = try live.apply(
            [RecordEdit(.upsert(renamed)), RecordEdit(.upsert(created)), RecordEdit(.delete(id: "r9"))],
            actor: "ada")
        #expect(outcome.results.map(\.result) == [.replaced, .created, .deleted])
        #expect(outcome.change == 4)

        let after = try live.fixture.catalog("cookbook")
        #expect(after.change == 4)
        #expect(after.versionKey != before.versionKey, "caches keyed on it see the change")
        #expect(after.summary.count == StoreFixture.recipes.count)
        #expect(try live.fixture.item("cookbook", "r2")?.title == "Túrós palacsinta")
        #expect(try live.fixture.item("cookbook", "n1")?.subtitle == "füstölt csülökkel")
        #expect(try live.fixture.item("cookbook", "r9") == nil)
        // Found by the new title, not the old one; the deleted record is gone.
        #expect(try live.fixture.search("turos", in: "cookbook").items.map(\.id) == ["r2"])
        #expect(try live.fixture.search("cukros", in: "cookbook").items.isEmpty)
        #expect(try live.fixture.search("rantotta", in: "cookbook").items.isEmpty)
        #expect(try live.fixture.search("bab", in: "cookbook").items.map(\.id) == ["n1"])
        let soups = try live.fixture.search("leves", in: "cookbook")
        #expect(soups.items.map(\.id) == ["n1", "r3", "r4", "r6"])
        #expect(soups.total == 4)
        #expect(try live.fixture.search("", in: "cookbook", limit: 50).total == StoreFixture.recipes.count)
        try live.fixture.read { reader in
            let catalog = try reader.requireCatalog("cookbook")
            #expect(catalog.categories.first { $0.name == "Levesek" }?.count == 4)
            #expect(catalog.categories.first { $0.name == "Desszertek" }?.count == 5)
            #expect(try reader.featured(of: catalog, limit: 10).map(\.id) == ["r1", "r3", "n1"])
            let sections = try reader.sections(of: catalog)
            #expect(sections.first { $0.label == "B" }?.count == 1)
            #expect(sections.first { $0.label == "T" }?.count == 1)
            #expect(sections.first { $0.label == "#" } == nil, "its only record was deleted")
            #expect(sections.first { $0.label == "C" } == nil)
            #expect(try reader.searchSegments(of: catalog).count == 2, "the base and the batch's segment")

            // The change log: the import, then one entry per record, with the record before and after.
            let log = try reader.changes(of: catalog, since: 0, limit: 100)
            #expect(log.map(\.number) == [1, 2, 3, 4])
            #expect(log.map(\.kind) == [.reload, .upsert, .upsert, .delete])
            #expect(log.map(\.item) == [nil, "r2", "n1", "r9"])
            #expect(log.dropFirst().allSatisfy { $0.actor == "ada" })
            #expect(try log[1].record.map { try StoredRecord.decode($0).title } == "Túrós palacsinta")
            #expect(try log[1].previous.map { try StoredRecord.decode($0).title } == "Cukros palacsinta")
            #expect(log[2].previous == nil)
            #expect(log[3].record == nil && log[3].previous != nil)
            #expect(try reader.changes(of: catalog, since: 2, limit: 1).map(\.number) == [3])
            #expect(try reader.history(of: catalog, item: "r2", limit: 10).map(\.number) == [2])
            #expect(try reader.oldestChange(of: catalog) == 1)
        }
        try Self.expectSameAnswers(live)
    }

    @Test(arguments: CatalogBehaviourTests.engines)
    func manySingleEditsMergeSegmentsAndTheCatalogStaysExact(engine: TemporaryDatabase.Engine) throws {
        let live = try Live(engine)
        let titles = [
            "Almaleves", "Babgulyás", "Cseresznyés pite", "Diós bejgli", "Eperkrém", "Fokhagymakrémleves",
            "Gesztenyepüré", "Hortobágyi palacsinta", "Lecsó", "Mákos guba", "Paprikás krumpli", "Rakott krumpli",
            "Somlói galuska", "Töltött káposzta", "Vadas", "Zöldborsóleves",
        ]
        let categories = ["Levesek", "Húsételek", "Desszertek", "Főzelékek", "Tésztaételek", "Saláták"]
        var edits = 0
        for round in 0..<3 {
            for (index, title) in titles.enumerated() {
                let id = "e\(index)"
                if round == 2 && index % 3 == 0 {
                    try live.delete(id)
                } else {
                    var record = Record(
                        id: id, title: round == 0 ? title : "\(title) \(round)",
                        categories: [categories[(index + round) % categories.count]])
                    record.price = Decimal(index * 100 + round)
                    record.featured = index % 5 == 0 ? 10 + index : nil
                    try live.upsert(record)
                }
                edits += 1
                if edits % 16 == 0 { try Self.expectSameAnswers(live) }
            }
            // A record of the import changes too, and one goes.
            var original = try #require(live.records["r\(round + 3)"])
            original.title += " újra"
            try live.upsert(original)
            try live.delete("r\(round + 6)")
            edits += 2
        }
        try Self.expectSameAnswers(live)
        try live.fixture.read { reader in
            let catalog = try reader.requireCatalog("cookbook")
            #expect(catalog.change == 1 + edits)
            let log = try reader.changes(of: catalog, since: 0, limit: 1_000)
            #expect(log.map(\.number) == Array(1...(1 + edits)), "gap-free, in order")
            // Merges keep the segments few: at most three per size class besides the base.
            let segments = try reader.searchSegments(of: catalog)
            #expect(segments.count <= 1 + 3 * 3, "\(segments.count) segments")
            #expect(segments.count < edits / 4)
        }
    }

    /// A batch whose segment is merged in the same batch (the fourth small segment of a size
    /// class), holding a category the catalog did not have: its records leave their category
    /// rows again in the merge.
    @Test(arguments: CatalogBehaviourTests.engines)
    func aNewCategoryMergedInTheBatchThatMadeIt(engine: TemporaryDatabase.Engine) throws {
        let live = try Live(engine)
        for index in 0..<3 { try live.upsert(Record(id: "m\(index)", title: "Meggyes lepény \(index)")) }
        try live.upsert(Record(id: "m3", title: "Főzelék", categories: ["Főzelékek"]))
        try live.upsert(Record(id: "m4", title: "Tökfőzelék", categories: ["Főzelékek", "Levesek"]))
        try live.fixture.read { reader in
            let catalog = try reader.requireCatalog("cookbook")
            #expect(catalog.categories.first { $0.name == "Főzelékek" }?.count == 2)
            #expect(try reader.items(of: catalog, category: "Főzelékek", limit: 10).items.map(\.id) == ["m3", "m4"])
        }
        try Self.expectSameAnswers(live)
    }

    /// A segment emptied by deletions is dropped; the next change's segment must not take its
    /// number, which names the dropped one's loaded index in the database's caches.
    @Test(arguments: CatalogBehaviourTests.engines)
    func aSearchAfterASegmentWasDroppedReadsTheNewOne(engine: TemporaryDatabase.Engine) throws {
        let live = try Live(engine)
        try live.upsert(Record(id: "n1", title: "Bableves"))
        #expect(try live.fixture.search("bableves", in: "cookbook").items.map(\.id) == ["n1"])
        try live.delete("n1")
        #expect(try live.fixture.search("bableves", in: "cookbook").items.isEmpty)
        try live.upsert(Record(id: "n2", title: "Lencsefőzelék"))
        #expect(try live.fixture.search("lencse", in: "cookbook").items.map(\.id) == ["n2"])
        #expect(try live.fixture.search("bableves", in: "cookbook").items.isEmpty)
        try Self.expectSameAnswers(live)
    }

    /// A page made while only the base segment matched (the query's words are in no other
    /// segment, which the search leaves out) continues once a change adds a match in a segment of
    /// its own: the rest of the list after the page's last record, nothing repeated, nothing
    /// skipped. And back, once only the base matches again. The cursor names a place even while
    /// only the base matches: an answer does not depend on where its records lie (the offline
    /// copy, whose segments differ, must answer the same).
    @Test(arguments: CatalogBehaviourTests.engines)
    func aPageOfTheBaseAloneContinuesOverSegmentsThatMatchLater(engine: TemporaryDatabase.Engine) throws {
        let live = try Live(engine)
        live.merges = false
        try live.upsert(Record(id: "n1", title: "Mákos guba"))
        for sort in [SearchSort.relevance, .title, .price] {
            // One page after `cursor` (nil: the first), and every page after it.
            func page(after cursor: String?) throws -> SearchResponse {
                try live.fixture.read { reader in
                    try reader.search(
                        SearchRequest(query: "leves", sort: sort, after: cursor, limit: 1).checked(),
                        in: reader.requireCatalog("cookbook")
                    ).response()
                }
            }
            func rest(after cursor: String) throws -> [String] {
                var ids: [String] = []
                var after: String? = cursor
                while let next = after {
                    let page = try page(after: next)
                    ids += page.items.map(\.id)
                    after = page.next
                }
                return ids
            }
            let first = try page(after: nil)
            let cursor = try #require(first.next)
            #expect(!cursor.hasPrefix("r") && !cursor.hasPrefix("o"), "a cursor of a place: \(cursor)")
            // A new record that matches, in a segment of its own.
            try live.upsert(Record(id: "n2-\(sort)", title: "Bableves \(sort)"))
            let all = try live.fixture.read { reader in
                try Self.search(reader, reader.requireCatalog("cookbook"), "leves", sort: sort).ids
            }
            let place = try #require(all.firstIndex(of: first.items[0].id))
            #expect(try rest(after: cursor) == Array(all[(place + 1)...]), "by \(sort)")

            // Back: a page over both segments, then the new record goes (its segment with it).
            let keyed = try page(after: nil)
            let keyedCursor = try #require(keyed.next)
            #expect(!keyedCursor.hasPrefix("r") && !keyedCursor.hasPrefix("o"), "a cursor of a place: \(keyedCursor)")
            try live.delete("n2-\(sort)")
            let remaining = all.filter { $0 != "n2-\(sort)" }
            guard let keyedPlace = remaining.firstIndex(of: keyed.items[0].id) else { continue }
            #expect(
                try rest(after: keyedCursor) == Array(remaining[(keyedPlace + 1)...]), "by \(sort), back to one segment"
            )
        }
        try Self.expectSameAnswers(live)
    }

    /// A copy that follows another catalog's numbers (``ChangeNumbering``): its edits take the
    /// numbers given, it ends at the batch's last number even without an edit, and numbers that
    /// do not go up change nothing.
    @Test(arguments: CatalogBehaviourTests.engines)
    func editsTakeTheNumbersTheyAreGiven(engine: TemporaryDatabase.Engine) throws {
        let live = try Live(engine)
        let start = try live.fixture.catalog("cookbook").change
        let edits = [RecordEdit(.upsert(Record(id: "k1", title: "Krumplileves"))), RecordEdit(.delete(id: "r2"))]
        let outcome = try CatalogEditor.apply(
            edits, to: "cookbook", in: live.fixture.database, collation: live.collation,
            numbering: ChangeNumbering(numbers: [start + 3, start + 7], through: start + 9))
        #expect(outcome.change == start + 9)
        try live.fixture.read { reader in
            let catalog = try reader.requireCatalog("cookbook")
            #expect(catalog.change == start + 9)
            #expect(try reader.changes(of: catalog, since: start, limit: 10).map(\.number) == [start + 3, start + 7])
        }
        let moved = try CatalogEditor.apply(
            [], to: "cookbook", in: live.fixture.database, collation: live.collation,
            numbering: ChangeNumbering(numbers: [], through: start + 12))
        #expect(moved.change == start + 12)
        for numbering in [
            ChangeNumbering(numbers: [start + 20, start + 20], through: start + 20),
            ChangeNumbering(numbers: [start + 5, start + 20], through: start + 20),
            ChangeNumbering(numbers: [start + 20], through: start + 20),
        ] {
            #expect(throws: StorageError.self) {
                try CatalogEditor.apply(
                    [RecordEdit(.upsert(Record(id: "k2", title: "Káposzta"))), RecordEdit(.delete(id: "r3"))],
                    to: "cookbook", in: live.fixture.database, collation: live.collation, numbering: numbering)
            }
        }
        #expect(try live.fixture.catalog("cookbook").change == start + 12)
        #expect(try live.fixture.item("cookbook", "k2") == nil)
        #expect(try live.fixture.item("cookbook", "r3") != nil)
    }

    @Test(arguments: CatalogBehaviourTests.engines)
    func aFailedPreconditionChangesNothing(engine: TemporaryDatabase.Engine) throws {
        let live = try Live(engine)
        let tag = try live.fixture.read { reader in
            CatalogEditor.etag(of: try #require(try reader.item(of: reader.requireCatalog("cookbook"), id: "r1")).json)
        }
        let before = try live.fixture.catalog("cookbook")
        #expect {
            try CatalogEditor.apply(
                [
                    RecordEdit(.upsert(Record(id: "x1", title: "Új"))),
                    RecordEdit(.upsert(Record(id: "r1", title: "Más")), precondition: .absent),
                ], to: "cookbook", in: live.fixture.database, collation: live.collation)
        } throws: { error in
            (error as? EditFailure)?.position == 1 && (error as? EditFailure)?.reason == .exists(current: tag)
        }
        #expect {
            try CatalogEditor.apply(
                [RecordEdit(.delete(id: "nope"))], to: "cookbook", in: live.fixture.database,
                collation: live.collation)
        } throws: { error in
            (error as? EditFailure)?.reason == .notFound
        }
        let after = try live.fixture.catalog("cookbook")
        #expect(after.versionKey == before.versionKey)
        #expect(try live.fixture.item("cookbook", "x1") == nil)
        // The same record again changes nothing either, and takes no number.
        let same = try live.apply([RecordEdit(.upsert(StoreFixture.recipes[0]), precondition: .matches(tag))])
        #expect(same.results.map(\.result) == [.unchanged])
        #expect(same.change == before.change)
        try Self.expectSameAnswers(live)
    }

    @Test(arguments: CatalogBehaviourTests.engines)
    func definitionsAndImportsAreLoggedAndADeletedCatalogForgetsItsLog(engine: TemporaryDatabase.Engine) throws {
        let live = try Live(engine)
        try live.upsert(Record(id: "n1", title: "Bableves"))
        var definition = try live.fixture.catalog("cookbook").definition
        definition.title = "Receptek"
        try live.fixture.database.write { try $0.updateDefinition(definition) }
        try live.fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        try live.fixture.read { reader in
            let catalog = try reader.requireCatalog("cookbook")
            #expect(catalog.change == 4)
            #expect(
                try reader.changes(of: catalog, since: 0, limit: 10).map(\.kind) == [
                    .reload, .upsert, .definition, .reload,
                ])
            #expect(try reader.item(of: catalog, id: "n1") == nil, "the import replaced the records")
            #expect(try reader.searchSegments(of: catalog).count == 1)
        }
        let pruned = try live.fixture.database.write { try $0.pruneChanges(before: "9999-01-01T00:00:00.000Z") }
        #expect(pruned == 4)
        try live.fixture.read { reader in
            let catalog = try reader.requireCatalog("cookbook")
            #expect(try reader.oldestChange(of: catalog) == nil)
        }
        try live.upsert(Record(id: "n2", title: "Lencseleves"))
        let kept = try live.fixture.catalog("cookbook")
        #expect(try live.fixture.read { try $0.changes(of: kept, since: 0, limit: 10).map(\.number) } == [5])
        #expect(try live.fixture.database.write { try $0.deleteCatalog("cookbook") })
        try live.fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        try live.fixture.read { reader in
            let catalog = try reader.requireCatalog("cookbook")
            #expect(catalog.change == 1)
            #expect(try reader.changes(of: catalog, since: 0, limit: 10).map(\.number) == [1])
        }
    }
}
