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
