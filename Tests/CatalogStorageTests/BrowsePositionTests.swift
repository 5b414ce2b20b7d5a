import CatalogCore
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Testing

/// Lists by position, the same on every engine: the outline lays the whole list out, rows come
/// from any position, and every row's cursor leads back to its position (what the web app's
/// windowed list, its scroll bar, its rail and its links rely on).
@Suite struct BrowsePositionTests {
    @Test(arguments: CatalogBehaviourTests.engines)
    func positionsAgreeWithKeysetPagesAndCursors(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        try fixture.read { reader in
            let catalog = try fixture.catalog("cookbook")
            let all = try fixture.items("cookbook").records.map(\.id)
            let outline = try reader.outline(of: catalog)
            #expect(outline.count == all.count)
            #expect(outline.sections.map(\.label) == ["A", "C", "CS", "G", "GY", "NY", "Ö", "SZ", "ZS", "#"])
            #expect(outline.sections.map(\.start) == [0, 1, 2, 4, 5, 6, 7, 8, 9, 10])
            // The rail: an empty letter leads to the next section with records; past the end, the end.
            #expect(outline.start(ofLabel: "B", labels: catalog.sectionLabels) == 1)
            #expect(outline.start(ofLabel: "ZS", labels: catalog.sectionLabels) == 9)
            #expect(outline.start(ofLabel: "nope", labels: catalog.sectionLabels) == nil)
            for start in 0..<all.count {
                let page = try reader.items(of: catalog, position: start, limit: 3)
                #expect(page.position == start)
                #expect(page.count == all.count)
                #expect(page.items.map(\.id) == Array(all[start..<min(all.count, start + 3)]))
                #expect(page.previous == (start > 0 ? page.cursors.first : nil))
                #expect(page.next == (start + 3 < all.count ? page.cursors.last : nil))
                for (offset, cursor) in page.cursors.enumerated() {
                    let place = try reader.place(of: catalog, cursor: cursor)
                    #expect(place.position == start + offset)
                    #expect(place.exact)
                }
            }
            #expect(try reader.items(of: catalog, position: 500, limit: 10).items.isEmpty)
            #expect(throws: StorageError.self) { try reader.items(of: catalog, position: -1, limit: 10) }
            #expect(throws: StorageError.self) { try reader.items(of: catalog, position: 0, limit: 0) }
            #expect(throws: StorageError.self) { try reader.place(of: catalog, cursor: "!!") }
        }
    }

    /// A section's pages forward and back by cursor, and cursors of other sections: a cursor
    /// before the section continues from its start, one after it ends the list.
    @Test(arguments: CatalogBehaviourTests.engines)
    func sectionsPageByCursorEitherWay(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        var records = StoreFixture.recipes
        for number in 0..<30 { records.append(Record(id: "g\(number)", title: "Galuska \(number)")) }
        try fixture.load(StoreFixture.cookbook, records)
        let all = try fixture.items("cookbook", limit: 500)
        let catalog = try fixture.catalog("cookbook")
        for label in catalog.sectionLabels {
            let whole = try fixture.items("cookbook", section: label, limit: 500).records.map(\.id)
            var forward: [String] = []
            var cursor: String?
            var pages: [(first: String?, ids: [String])] = []
            repeat {
                let page = try fixture.items("cookbook", section: label, after: cursor, limit: 4)
                forward += page.records.map(\.id)
                pages.append((page.previous, page.records.map(\.id)))
                cursor = page.next
            } while cursor != nil
            #expect(forward == whole, "\(label)")
            // Back from the last page's start, page by page.
            var backward: [String] = pages.last?.ids ?? []
            var before = pages.last?.first
            while let key = before {
                let page = try fixture.items("cookbook", section: label, before: key, limit: 4)
                backward = page.records.map(\.id) + backward
                before = page.previous
            }
            #expect(backward == whole, "\(label)")
        }
        // Cursors of the first and the last record, used in the "G" section.
        let first = try #require(try fixture.items("cookbook", limit: 1).next)
        let last = try #require(try fixture.items("cookbook", before: nil, limit: 500).records.last)
        let lastPage = try fixture.items("cookbook", after: nil, limit: all.records.count - 1)
        let beforeLast = try #require(lastPage.next)
        let g = try fixture.items("cookbook", section: "G", limit: 500).records.map(\.id)
        #expect(g.count == 31)
        #expect(try fixture.items("cookbook", section: "G", after: first, limit: 500).records.map(\.id) == g)
        #expect(try fixture.items("cookbook", section: "G", after: beforeLast, limit: 500).records.isEmpty)
        #expect(try fixture.items("cookbook", section: "G", before: first, limit: 500).records.isEmpty)
        #expect(try fixture.items("cookbook", section: "G", before: beforeLast, limit: 500).records.map(\.id) == g)
        #expect(last.id == all.records.last?.id)
    }

    @Test(arguments: CatalogBehaviourTests.engines)
    func categoriesAreListsOfTheirOwn(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        try fixture.read { reader in
            let catalog = try fixture.catalog("cookbook")
            for category in catalog.categories {
                let keyset = try reader.items(of: catalog, category: category.name, limit: 100).records().map(\.id)
                let outline = try reader.outline(of: catalog, category: category.id)
                #expect(outline.count == category.count)
                #expect(outline.sections.reduce(0) { $0 + $1.count } == category.count)
                let page = try reader.items(of: catalog, category: category.id, position: 0, limit: 100)
                #expect(page.items.map(\.id) == keyset, "\(category.name)")
                // Each section's start is the position of its first record.
                for section in outline.sections {
                    let first = try reader.items(of: catalog, category: category.id, position: section.start, limit: 1)
                    #expect(try first.records().first?.section == section.label)
                }
                for (offset, cursor) in page.cursors.enumerated() {
                    #expect(try reader.place(of: catalog, category: category.id, cursor: cursor).position == offset)
                }
            }
            #expect(throws: StorageError.self) { try reader.outline(of: catalog, category: 99) }
        }
    }

    @Test(arguments: CatalogBehaviourTests.engines)
    func aCursorOfARemovedRecordStillNamesItsPlace(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let catalog = try fixture.catalog("cookbook")
        let page = try fixture.read { try $0.items(of: catalog, position: 0, limit: 100) }
        let gulyas = try #require(page.items.firstIndex { $0.id == "r3" })
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes.filter { $0.id != "r3" })
        let place = try fixture.read { try $0.place(of: try fixture.catalog("cookbook"), cursor: page.cursors[gulyas]) }
        #expect(place.position == gulyas)
        #expect(!place.exact)
    }
}
