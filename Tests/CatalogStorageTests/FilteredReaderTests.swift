import CatalogCollation
import CatalogCore
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Testing

/// A reader narrowed by a record filter (an API key's), the same on every engine: every answer
/// holds and counts only the records the filter passes, in the whole catalog's order, before and
/// after changes; the change log shows a record that leaves the filter as a deletion.
@Suite struct FilteredReaderTests {
    static let engines = TemporaryDatabase.Engine.available
    /// The recipes from Germany; the others are from Hungary.
    static let german: Set<String> = ["r1", "r3", "r4", "r8", "r9", "r11"]
    static let records = StoreFixture.recipes.map { recipe in
        var record = recipe
        record.country = german.contains(recipe.id) ? "DE" : "HU"
        return record
    }
    let filter: RecordFilter

    init() throws {
        filter = try RecordFilter(parsing: "country = DE")
    }

    /// Checks every answer of a reader narrowed by ``filter`` against the whole catalog's answers
    /// kept to the records `passing` names.
    func expectNarrowed(_ fixture: StoreFixture, passing: Set<String>) throws {
        try fixture.read { whole in
            let reader = FilteredCatalogReader(whole, filter: filter)
            let all = try whole.requireCatalog("cookbook")
            let catalog = try reader.requireCatalog("cookbook")
            let everything = try whole.items(of: all, limit: 500).items
            let expected = everything.filter { passing.contains($0.id) }
            let ids = expected.map(\.id)
            #expect(catalog.summary.count == expected.count)

            // Keyset pages of two, forwards, then back from the last one.
            var pages: [BrowsePage] = []
            var cursor: String?
            repeat {
                let page = try reader.items(of: catalog, after: cursor, limit: 2)
                pages.append(page)
                cursor = page.next
            } while cursor != nil && pages.count <= expected.count
            #expect(pages.flatMap(\.items).map(\.id) == ids)
            #expect(pages.first?.previous == nil)
            if pages.count > 1, let previous = pages.last?.previous {
                let back = try reader.items(of: catalog, before: previous, limit: 2)
                #expect(back.items.map(\.id) == pages[pages.count - 2].items.map(\.id))
            }

            // Positions and the cursors that lead back to them.
            for start in 0..<expected.count {
                let page = try reader.items(of: catalog, position: start, limit: 2)
                #expect(page.count == expected.count)
                #expect(page.items.map(\.id) == Array(ids[start..<min(ids.count, start + 2)]))
                for (offset, cursor) in page.cursors.enumerated() {
                    let place = try reader.place(of: catalog, cursor: cursor)
                    #expect(place.position == start + offset)
                    #expect(place.exact)
                }
            }

            // The outline and the sections count what passes, section by section.
            let outline = try reader.outline(of: catalog)
            #expect(outline.count == expected.count)
            var perSection: [(label: String, count: Int)] = []
            for hit in expected {
                let label = catalog.sectionLabels[hit.key?.section ?? 0]
                if perSection.last?.label == label {
                    perSection[perSection.count - 1].count += 1
                } else {
                    perSection.append((label, 1))
                }
            }
            #expect(outline.sections.map(\.label) == perSection.map(\.label))
            #expect(outline.sections.map(\.count) == perSection.map(\.count))
            #expect(try reader.sections(of: catalog).map(\.label) == perSection.map(\.label))
            #expect(try reader.sections(of: catalog).map(\.count) == perSection.map(\.count))
            for section in outline.sections {
                let page = try reader.items(of: catalog, section: section.label, limit: 100)
                #expect(page.items.count == section.count, "\(section.label)")
            }

            // Categories: only those the passing records carry, counted over them.
            #expect(Set(catalog.categories.map(\.name)) == Set(expected.flatMap(\.categories)))
            for category in catalog.categories {
                let members = expected.filter { $0.categories.contains(category.name) }.map(\.id)
                #expect(category.count == members.count, "\(category.name)")
                #expect(try reader.items(of: catalog, category: category.name, limit: 100).items.map(\.id) == members)
                #expect(try reader.outline(of: catalog, category: category.id).count == members.count)
                let page = try reader.items(of: catalog, category: category.id, position: 0, limit: 100)
                #expect(page.items.map(\.id) == members)
            }

            // Featured records, a record by id.
            #expect(
                try reader.featured(of: catalog, limit: 20).map(\.id)
                    == whole.featured(of: all, limit: 20).map(\.id).filter(passing.contains))
            for hit in everything {
                #expect((try reader.item(of: catalog, id: hit.id) != nil) == passing.contains(hit.id), "\(hit.id)")
            }
        }
    }

    @Test(arguments: engines)
    func everyAnswerHoldsOnlyWhatPasses(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, Self.records)
        try expectNarrowed(fixture, passing: Self.german)

        // Changed in place (the index in several segments): one leaves, one comes, one is new,
        // one goes, and one outside changes.
        var left = Self.records[0]
        left.country = "HU"
        var came = Self.records[1]
        came.country = "DE"
        var outside = Self.records[4]
        outside.title = "Szilvás gombóc nagyival"
        let new = Record(id: "r12", title: "Babgulyás", categories: ["Levesek"], country: "DE", featured: 3)
        _ = try CatalogEditor.apply(
            [
                RecordEdit(.upsert(left)), RecordEdit(.upsert(came)), RecordEdit(.upsert(new)),
                RecordEdit(.delete(id: "r3")), RecordEdit(.upsert(outside)),
            ], to: "cookbook", in: fixture.database, collation: try ICUCollation(locale: "hu"))
        let now = Self.german.subtracting(["r1", "r3"]).union(["r2", "r12"])
        try expectNarrowed(fixture, passing: now)

        try fixture.read { whole in
            let reader = FilteredCatalogReader(whole, filter: filter)
            let catalog = try reader.requireCatalog("cookbook")
            // The log as the filter lets it be seen: the record that left is a deletion.
            // The import's reload stays: it is the catalog's, not a record's.
            let log = try reader.changes(of: catalog, since: 0, limit: 100)
            #expect(log.first?.kind == .reload)
            let seen = Array(log.dropFirst())
            #expect(seen.map(\.item) == ["r1", "r2", "r12", "r3"])
            #expect(seen.map(\.kind) == [.delete, .upsert, .upsert, .delete])
            #expect(seen[0].record == nil)
            // A record's history: of a record that passes, or that passed when it was deleted.
            #expect(try reader.history(of: catalog, item: "r2", limit: 10).count == 1)
            #expect(try reader.history(of: catalog, item: "r3", limit: 10).count == 1)
            #expect(try reader.history(of: catalog, item: "r1", limit: 10).isEmpty)
            #expect(try reader.history(of: catalog, item: "r5", limit: 10).isEmpty)
            #expect(try whole.history(of: whole.requireCatalog("cookbook"), item: "r5", limit: 10).count == 1)
        }

        // Merged again into one segment: the same answers.
        _ = try SegmentMerger.mergeAll(catalog: "cookbook", in: fixture.database)
        try expectNarrowed(fixture, passing: now)
    }
}
