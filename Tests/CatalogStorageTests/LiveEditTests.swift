import CatalogCollation
import CatalogCore
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

/// Records changed one at a time (``CatalogEditor``), on every engine: every surface sees a change
/// at once, counts follow, the change log numbers every change, and a catalog changed by many
/// edits answers every search as a fresh import of the same records does.
@Suite struct LiveEditTests {
    static let engines = TemporaryDatabase.Engine.available

    /// Applies `edits`, then the merges the server's maintenance runs after them.
    func edit(_ fixture: StoreFixture, _ edits: [RecordEdit], catalog: String = "cookbook") throws -> EditOutcome {
        let outcome = try CatalogEditor.apply(
            edits, to: catalog, in: fixture.database, collation: try ICUCollation(locale: "hu"))
        _ = try SegmentMerger.mergeAll(catalog: catalog, in: fixture.database)
        return outcome
    }

    @Test(arguments: engines)
    func aChangeIsVisibleEverywhereAtOnce(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let outcome = try edit(
            fixture,
            [
                RecordEdit(
                    .upsert(Record(id: "r2", title: "Túrós palacsinta", categories: ["Desszertek", "Levesek"]))),
                RecordEdit(.upsert(Record(id: "r12", title: "Babgulyás", categories: ["Levesek"], featured: 3))),
                RecordEdit(.delete(id: "r10")),
            ])
        #expect(outcome.results.map(\.result) == [.replaced, .created, .deleted])
        #expect(outcome.change == 4)
        #expect(try fixture.item("cookbook", "r2")?.title == "Túrós palacsinta")
        #expect(try fixture.item("cookbook", "r10") == nil)
        #expect(try fixture.search("turos", in: "cookbook").items.map(\.id) == ["r2"])
        #expect(try fixture.search("cukros", in: "cookbook").total == 0)
        #expect(try fixture.search("babgulyas", in: "cookbook").items.map(\.id) == ["r12"])
        #expect(try fixture.search("nyulporkolt", in: "cookbook").total == 0)
        #expect(try fixture.search("", in: "cookbook", limit: 50).total == StoreFixture.recipes.count)
        let browsed = try fixture.items("cookbook").records.map(\.id)
        #expect(browsed.count == StoreFixture.recipes.count)
        #expect(browsed.contains("r12") && !browsed.contains("r10"))
        let catalog = try fixture.catalog("cookbook")
        #expect(catalog.summary.count == StoreFixture.recipes.count)
        #expect(catalog.change == 4)
        let counts = Dictionary(uniqueKeysWithValues: catalog.categories.map { ($0.name, $0.count) })
        #expect(counts["Levesek"] == 5)
        #expect(counts["Húsételek"] == 2)
        #expect(try fixture.read { try $0.featured(of: catalog, limit: 10).map(\.id) } == ["r1", "r3", "r12"])
        let sections = try fixture.read { try $0.sections(of: catalog) }
        #expect(sections.reduce(0) { $0 + $1.count } == StoreFixture.recipes.count)
        #expect(sections.first { $0.label == "B" }?.count == 1)
        #expect(sections.first { $0.label == "N" } == nil)
        let log = try fixture.read { try $0.changes(of: catalog, since: 0, limit: 10) }
        #expect(log.map(\.number) == [1, 2, 3, 4])
        #expect(log.map(\.kind) == [.reload, .upsert, .upsert, .delete])
        #expect(log.map(\.item) == [nil, "r2", "r12", "r10"])
        #expect(try log[1].previous.map { try Record(json: $0).title } == "Cukros palacsinta")
        let scoped = try fixture.search("", in: "cookbook", scope: nil, limit: 50)
        #expect(scoped.scopes.isEmpty || scoped.scopes.allSatisfy { $0.count >= 0 })
        // An unchanged record costs no change number.
        let stored = try #require(try fixture.item("cookbook", "r12"))
        let same = try edit(fixture, [RecordEdit(.upsert(stored))])
        #expect(same.results.map(\.result) == [.unchanged])
        #expect(same.change == 4)
    }

    @Test(arguments: engines)
    func aFailedPreconditionAppliesNothing(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let current = try fixture.read { reader in try reader.item(of: reader.requireCatalog("cookbook"), id: "r1") }
        let tag = CatalogEditor.etag(of: try #require(current).json)
        #expect(throws: EditFailure.self) {
            try edit(
                fixture,
                [
                    RecordEdit(.upsert(Record(id: "r1", title: "Csirke"))),
                    RecordEdit(.upsert(Record(id: "r3", title: "Leves")), precondition: .matches("\"nope\"")),
                ])
        }
        #expect(throws: EditFailure.self) {
            try edit(fixture, [RecordEdit(.upsert(Record(id: "r1", title: "Csirke")), precondition: .absent)])
        }
        #expect(throws: EditFailure.self) { try edit(fixture, [RecordEdit(.delete(id: "nothing"))]) }
        #expect(try fixture.item("cookbook", "r1")?.title == "Csirkepaprikás")
        #expect(try fixture.catalog("cookbook").change == 1)
        let done = try edit(
            fixture, [RecordEdit(.upsert(Record(id: "r1", title: "Csirke")), precondition: .matches(tag))])
        #expect(done.results.first?.result == .replaced)
        #expect(try fixture.search("csirke", in: "cookbook").items.first?.id == "r1")
    }

    /// Many single edits leave several segments; every search answers exactly as a fresh import of
    /// the same records, pages and cursors included.
    @Test(arguments: engines)
    func manyEditsSearchLikeAFreshImport(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        let words = ["alma", "körte", "szilva", "barack", "meggy", "cseresznye", "dió", "mák", "túró", "gomba"]
        var records: [String: Record] = [:]
        for index in 0..<40 {
            let record = Record(
                id: "b\(index)", title: "\(words[index % 10]) \(words[(index * 3) % 10]) \(index)",
                categories: [index % 2 == 0 ? "Levesek" : "Desszertek"], price: Decimal(index % 7))
            records[record.id] = record
        }
        try fixture.load(StoreFixture.cookbook, Array(records.values))
        var next = 40
        for step in 0..<70 {
            let edit: RecordEdit
            switch step % 3 {
            case 0:
                let record = Record(
                    id: "n\(next)", title: "\(words[next % 10]) új \(next)", categories: ["Húsételek"],
                    price: Decimal(next % 5))
                next += 1
                records[record.id] = record
                edit = RecordEdit(.upsert(record))
            case 1:
                let id = records.keys.sorted()[step % records.count]
                var record = records[id]!
                record.title = "\(words[step % 10]) javított \(step)"
                record.price = Decimal(step % 9)
                records[id] = record
                edit = RecordEdit(.upsert(record))
            default:
                let id = records.keys.sorted()[(step * 7) % records.count]
                records[id] = nil
                edit = RecordEdit(.delete(id: id))
            }
            _ = try self.edit(fixture, [edit])
        }
        let segments = try fixture.read { try $0.searchSegments(of: $0.requireCatalog("cookbook")) }
        #expect(segments.count > 1)
        #expect(segments.count <= 1 + 3 * 4, "merges keep the segments few")
        var fresh = StoreFixture.cookbook
        fresh.id = "fresh"
        try fixture.load(fresh, Array(records.values))
        let queries = ["", "a", "al", "alma", "mák új", "javított", "gomba", "cseresznye", "dio", "szilav", "új 4"]
        for query in queries {
            for sort in [SearchSort.relevance, .title, .titleDescending, .price, .priceDescending] {
                let live = try pages(fixture, "cookbook", query, sort)
                let expected = try pages(fixture, "fresh", query, sort)
                #expect(live.ids == expected.ids, "\(query) \(sort)")
                #expect(live.total == expected.total, "\(query) \(sort)")
            }
            for scope in ["Levesek", "Húsételek"] {
                let live = try fixture.read { reader in
                    try reader.search(
                        SearchRequest(query: query, categories: [scope], facets: [.categories]).checked(),
                        in: reader.requireCatalog("cookbook"))
                }
                let expected = try fixture.read { reader in
                    try reader.search(
                        SearchRequest(query: query, categories: [scope], facets: [.categories]).checked(),
                        in: reader.requireCatalog("fresh"))
                }
                #expect(live.total == expected.total)
                #expect(live.hits.map(\.stored.id) == expected.hits.map(\.stored.id))
                #expect(live.facets == expected.facets)
            }
        }
        // Lists by position and the outline agree with the fresh import too.
        try fixture.read { reader in
            let live = try reader.requireCatalog("cookbook")
            let expected = try reader.requireCatalog("fresh")
            #expect(try reader.outline(of: live) == reader.outline(of: expected))
            for position in [0, 3, 17, 40, 60] {
                #expect(
                    try reader.items(of: live, position: position, limit: 7).items.map(\.id)
                        == reader.items(of: expected, position: position, limit: 7).items.map(\.id))
            }
            for category in expected.categories {
                guard let number = live.categories.first(where: { $0.name == category.name })?.id else { continue }
                #expect(
                    try reader.outline(of: live, category: number)
                        == reader.outline(of: expected, category: category.id))
                #expect(
                    try reader.items(of: live, category: number, position: 2, limit: 5).items.map(\.id)
                        == reader.items(of: expected, category: category.id, position: 2, limit: 5).items.map(\.id))
            }
        }
    }

    /// A re-import that changes little is applied as changes: the log lists each record, and the
    /// catalog answers as the file says.
    @Test(arguments: engines)
    func aSmallReimportIsAChange(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        var records = StoreFixture.recipes.filter { $0.id != "r4" }
        records[0].title = "Csirkepörkölt"
        records.append(Record(id: "r20", title: "Meggyleves", categories: ["Levesek"]))
        let summary = try fixture.load(StoreFixture.cookbook, records)
        #expect((summary.added, summary.updated, summary.removed) == (1, 1, 1))
        let catalog = try fixture.catalog("cookbook")
        let log = try fixture.read { try $0.changes(of: catalog, since: 1, limit: 10) }
        #expect(log.map(\.kind) == [.upsert, .upsert, .delete])
        #expect(Set(log.compactMap(\.item)) == ["r1", "r20", "r4"])
        #expect(try fixture.search("porkolt", in: "cookbook").items.map(\.id).contains("r1"))
        #expect(try fixture.item("cookbook", "r4") == nil)
        #expect(catalog.summary.count == records.count)
    }

    /// Every page of a search, by its cursors, four results at a time.
    func pages(_ fixture: StoreFixture, _ id: String, _ query: String, _ sort: SearchSort) throws -> (
        ids: [String], total: Int
    ) {
        var ids: [String] = []
        var after: String?
        var total = 0
        repeat {
            let result = try fixture.read { reader in
                try reader.search(
                    SearchRequest(query: query, sort: sort, after: after, limit: 4).checked(),
                    in: reader.requireCatalog(id))
            }
            ids += result.hits.map(\.stored.id)
            total = result.total
            after = result.next
        } while after != nil && ids.count < 500
        return (ids, total)
    }

    /// A page's cursor keeps its place across a change: the next page neither repeats nor skips a
    /// record that did not itself change.
    @Test(arguments: engines)
    func cursorsKeepTheirPlaceAcrossChanges(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        _ = try edit(fixture, [RecordEdit(.upsert(Record(id: "x1", title: "Zöldségleves")))])
        let first = try fixture.read { reader in
            try reader.search(SearchRequest(query: "", limit: 4).checked(), in: reader.requireCatalog("cookbook"))
        }
        _ = try edit(
            fixture, [RecordEdit(.upsert(Record(id: "x2", title: "Almaleves"))), RecordEdit(.delete(id: "r6"))])
        var ids = first.hits.map(\.stored.id)
        var after = first.next
        while let cursor = after {
            let page = try fixture.read { reader in
                try reader.search(
                    SearchRequest(query: "", after: cursor, limit: 4).checked(), in: reader.requireCatalog("cookbook"))
            }
            ids += page.hits.map(\.stored.id)
            after = page.next
        }
        let all = try fixture.items("cookbook").records.map(\.id)
        #expect(Set(ids).count == ids.count, "nothing repeated")
        #expect(Set(all).subtracting(["x2"]).subtracting(ids).isEmpty, "nothing skipped that did not change")
    }

    /// A category that a change brings, on a record that a merge in the same change files again:
    /// the merge moves the record with its new category (the engine learns the category's number
    /// within the change, not only from the catalog as the change began).
    @Test(arguments: engines)
    func aNewCategoryInTheChangeThatMergesSegments(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        for number in 1...3 {
            _ = try edit(fixture, [RecordEdit(.upsert(Record(id: "m\(number)", title: "Meggyleves \(number)")))])
        }
        // The fourth small segment: the four merge, the new record among them.
        let newcomer = Record(id: "m4", title: "Mákos guba", categories: ["Újdonságok", "Levesek"])
        let outcome = try edit(fixture, [RecordEdit(.upsert(newcomer))])
        #expect(outcome.results.map(\.result) == [.created])
        let segments = try fixture.read { try $0.searchSegments(of: $0.requireCatalog("cookbook")) }
        #expect(segments.count == 2, "the base and one merged segment")
        let catalog = try fixture.catalog("cookbook")
        let fresh = try #require(catalog.categories.first { $0.name == "Újdonságok" })
        #expect(fresh.count == 1)
        let members = try fixture.read { reader in
            try reader.items(of: catalog, category: fresh.id, position: 0, limit: 5).items.map(\.id)
        }
        #expect(members == ["m4"])
        // And the record moves on with it: changed, then removed.
        let moved = Record(id: "m4", title: "Mákos tészta", categories: ["Újdonságok"])
        _ = try edit(fixture, [RecordEdit(.upsert(moved))])
        _ = try edit(fixture, [RecordEdit(.delete(id: "m4"))])
        let after = try fixture.catalog("cookbook")
        #expect(after.categories.first { $0.name == "Újdonságok" } == nil)
        #expect(after.summary.count == StoreFixture.recipes.count + 3)
    }
}
