import CatalogModel
import CatalogSQLite
import CatalogStorage
import Foundation
import Testing

@Suite struct SQLiteCatalogStoreTests {
    @Test func sectionsFollowTheLocale() throws {
        let fixture = try StoreFixture()
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let sections = try fixture.store.sections(of: "cookbook")
        #expect(sections.map(\.label) == ["A", "C", "CS", "G", "GY", "NY", "Ö", "SZ", "ZS", "#"])
        #expect(sections.map(\.count) == [1, 1, 2, 1, 1, 1, 1, 1, 1, 1])
        let page = try fixture.store.items(of: "cookbook", section: nil, after: nil, limit: 100)
        #expect(
            page.items.map(\.title) == [
                "Almás pite", "Cukros palacsinta", "Csirkepaprikás", "Csusza", "Gulyásleves", "Gyümölcsleves",
                "Nyúlpörkölt", "Öntött tészta", "Szilvás gombóc", "Zsemlegombóc", "3 tojásos rántotta",
            ])
        #expect(page.items.map { $0.section ?? "" } == ["A", "C", "CS", "CS", "G", "GY", "NY", "Ö", "SZ", "ZS", "#"])
        #expect(page.next == nil)
    }

    @Test func keysetPagesCoverEveryRecordOnce() throws {
        let fixture = try StoreFixture()
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        var seen: [String] = []
        var cursor: String?
        repeat {
            let page = try fixture.store.items(of: "cookbook", section: nil, after: cursor, limit: 3)
            seen += page.items.map(\.id)
            cursor = page.next
        } while cursor != nil
        #expect(seen.count == StoreFixture.recipes.count)
        #expect(Set(seen).count == seen.count)
        let cs = try fixture.store.items(of: "cookbook", section: "CS", after: nil, limit: 1)
        #expect(cs.items.map(\.title) == ["Csirkepaprikás"])
        let next = try fixture.store.items(of: "cookbook", section: "CS", after: cs.next, limit: 1)
        #expect(next.items.map(\.title) == ["Csusza"])
        #expect(next.next == nil)
    }

    @Test func badCursorsAndSectionsAreInvalidArguments() throws {
        let fixture = try StoreFixture()
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        for cursor in ["zzzzzzzzzzzzzzzzzzzz", "-1", "'; DROP TABLE items; --", "", "1Z", "+1"] {
            #expect {
                try fixture.store.items(of: "cookbook", section: nil, after: cursor, limit: 5)
            } throws: { error in
                (error as? StorageError)?.code == .invalidArgument
            }
        }
        // Well-formed positions outside the catalog: before it starts from the top, past it is empty.
        let first = try fixture.store.items(of: "cookbook", section: nil, after: nil, limit: 5)
        #expect(try fixture.store.items(of: "cookbook", section: nil, after: "1", limit: 5) == first)
        #expect(try fixture.store.items(of: "cookbook", section: nil, after: "zzzzzzzzzzzz", limit: 5).items.isEmpty)
        #expect {
            try fixture.store.items(of: "cookbook", section: "Q!", after: nil, limit: 5)
        } throws: { error in
            (error as? StorageError)?.code == .nameNotFound
        }
        #expect(throws: StorageError.self) { try fixture.store.items(of: "nope", section: nil, after: nil, limit: 5) }
        #expect(try fixture.store.items(of: "cookbook", section: "B", after: nil, limit: 5).items.isEmpty)
    }

    @Test func searchIgnoresCaseAndAccentsAndRanksTitleWordsFirst() throws {
        let fixture = try StoreFixture()
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let result = try fixture.store.search("LEVES", in: "cookbook", scope: nil, limit: 10)
        // Title words first (Gulyásleves, Gyümölcsleves), then the category "Levesek" of Zsemlegombóc.
        #expect(result.items.map(\.record.id) == ["r3", "r4", "r6"])
        let gomboc = try fixture.store.search("gomboc", in: "cookbook", scope: nil, limit: 10)
        #expect(gomboc.items.map(\.record.title) == ["Szilvás gombóc", "Zsemlegombóc"])
        let hit = try #require(gomboc.items.first)
        #expect(hit.matches == [MatchRange(field: "title", start: 8, length: 6)])
        let prefix = try fixture.store.search("csi", in: "cookbook", scope: nil, limit: 10)
        // A word start (Csirkepaprikás) before a substring (palacsinta).
        #expect(prefix.items.map(\.record.id) == ["r1", "r2"])
        let twoWords = try fixture.store.search("pite alm", in: "cookbook", scope: nil, limit: 10)
        #expect(twoWords.items.map(\.record.id) == ["r8"])
        let otherField = try fixture.store.search("mari", in: "cookbook", scope: nil, limit: 10)
        #expect(otherField.items.map(\.record.id) == ["r1"])
        #expect(otherField.items[0].matches == [MatchRange(field: "subtitle", start: 0, length: 4)])
        let extra = try fixture.store.search("óra", in: "cookbook", scope: nil, limit: 10)
        #expect(extra.items.map(\.record.id) == ["r8"])
    }

    @Test func wholeWordBeforePrefixBeforeSubstringBeforeOtherFields() throws {
        let fixture = try StoreFixture()
        try fixture.load(
            CatalogDefinition(id: "t", title: "T", locale: "en"),
            [
                Record(id: "1", title: "Aardvark seasoning"),
                Record(id: "2", title: "Season pass"),
                Record(id: "3", title: "Reason"),
                Record(id: "4", title: "Seasonal offer"),
                Record(id: "5", title: "Unrelated", description: "for every season"),
            ])
        let result = try fixture.store.search("season", in: "t", scope: nil, limit: 10)
        #expect(result.items.map(\.record.id) == ["2", "1", "4", "5"])
        let inner = try fixture.store.search("eason", in: "t", scope: nil, limit: 10)
        #expect(inner.items.map(\.record.id) == ["1", "3", "2", "4"])
        #expect(inner.total == 4)
    }

    @Test func scopesCountAndFilter() throws {
        let fixture = try StoreFixture()
        var definition = CatalogDefinition(id: "seq", title: "Sequenzer", locale: "de")
        definition.scopes = [
            ScopeDefinition(label: "Alle", categories: []), ScopeDefinition(label: "Windows", categories: ["Windows"]),
            ScopeDefinition(label: "Apple", categories: ["Apple"]),
            ScopeDefinition(label: "Apple&Win", categories: ["Apple", "Windows"]),
        ]
        try fixture.load(
            definition,
            [
                Record(id: "a", title: "Klangwerk", categories: ["Apple", "Windows"]),
                Record(id: "b", title: "Klangfabrik", categories: ["Windows"]),
                Record(id: "c", title: "Taktgeber", categories: ["Apple"]),
            ])
        let all = try fixture.store.search("", in: "seq", scope: nil, limit: 10)
        #expect(all.scopes.map(\.label) == ["Alle", "Windows", "Apple", "Apple&Win"])
        #expect(all.scopes.map(\.count) == [3, 2, 2, 1])
        let klang = try fixture.store.search("klang", in: "seq", scope: "Apple", limit: 10)
        #expect(klang.items.map(\.record.id) == ["a"])
        #expect(klang.total == 1)
        #expect(klang.scopes.map(\.count) == [2, 2, 1, 1])
        let both = try fixture.store.search("", in: "seq", scope: "Apple&Win", limit: 10)
        #expect(both.items.map(\.record.id) == ["a"])
        #expect(throws: StorageError.self) { try fixture.store.search("x", in: "seq", scope: "Linux", limit: 10) }
    }

    @Test(arguments: [
        "\"", "\"foo OR", "NEAR(", "-x", "*", "a\u{0}b", "'; DROP TABLE items; --", "title:csirke", "{title}: x",
        "^csirke", "csirke AND NOT", "<script>alert(1)</script>", String(repeating: "é", count: 10_000), "   ",
    ])
    func hostileQueriesAreJustText(query: String) throws {
        let fixture = try StoreFixture()
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let result = try fixture.store.search(query, in: "cookbook", scope: nil, limit: 10)
        #expect(result.total >= 0)
        #expect(try fixture.store.catalogs().first?.count == StoreFixture.recipes.count)
    }

    @Test func reimportUpdatesWithoutDuplicatesAndMergeKeepsOthers() throws {
        let fixture = try StoreFixture()
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let again = try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        #expect(again.total == StoreFixture.recipes.count)
        #expect(again.updated == StoreFixture.recipes.count)
        #expect(again.added == 0)
        let merged = try fixture.load(
            StoreFixture.cookbook, [Record(id: "r99", title: "Babgulyás"), Record(id: "r1", title: "Csirkepörkölt")],
            replace: false)
        #expect(merged.total == StoreFixture.recipes.count + 1)
        #expect(merged.added == 1)
        #expect(merged.updated == 1)
        #expect(try fixture.store.item(of: "cookbook", itemID: "r1")?.title == "Csirkepörkölt")
        #expect(
            try fixture.store.search("babgulyas", in: "cookbook", scope: nil, limit: 5).items.map(\.record.id) == [
                "r99"
            ])
        let replaced = try fixture.load(
            StoreFixture.cookbook, [Record(id: "r1", title: "Csirkepaprikás")], replace: true)
        #expect(replaced.total == 1)
        #expect(replaced.removed == StoreFixture.recipes.count)
        #expect(try fixture.store.sections(of: "cookbook").map(\.label) == ["CS"])
    }

    @Test func failedImportLeavesTheCatalogExactlyAsItWas() throws {
        let fixture = try StoreFixture()
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let before = try fixture.store.items(of: "cookbook", section: nil, after: nil, limit: 100)
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try fixture.store.importRecords(
                definition: StoreFixture.cookbook, replace: true,
                records: { add in
                    try add(Record(id: "x1", title: "Új recept"))
                    if Bool(true) { throw Boom() }
                    return nil
                }, progress: nil)
        }
        #expect(try fixture.store.items(of: "cookbook", section: nil, after: nil, limit: 100) == before)
        #expect(try fixture.store.search("uj", in: "cookbook", scope: nil, limit: 5).items.isEmpty)
        #expect(try fixture.store.search("gulyas", in: "cookbook", scope: nil, limit: 5).items.count == 1)
    }

    @Test func categoriesFeaturedAndCategoryListing() throws {
        let fixture = try StoreFixture()
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let categories = try fixture.store.categories(of: "cookbook")
        #expect(categories.prefix(3).map(\.name) == ["Levesek", "Húsételek", "Desszertek"])
        #expect(categories.prefix(3).map(\.id) == [1, 2, 3])
        #expect(categories.first { $0.name == "Tésztaételek" }?.id == 4)
        #expect(categories.map(\.count) == [3, 3, 5, 1])
        #expect(try fixture.store.featured(of: "cookbook", limit: 10).map(\.id) == ["r1", "r3"])
        let soups = try fixture.store.items(of: "cookbook", category: "Levesek", after: nil, limit: 2)
        #expect(soups.items.map(\.id) == ["r3", "r4"])
        let rest = try fixture.store.items(of: "cookbook", category: "Levesek", after: soups.next, limit: 2)
        #expect(rest.items.map(\.id) == ["r6"])
        #expect(rest.next == nil)
    }

    @Test func invalidCatalogIDsAndLocalesAreRejected() throws {
        let fixture = try StoreFixture()
        for id in ["", "a b", "../x", "x;y", String(repeating: "a", count: 65)] {
            #expect(throws: StorageError.self) {
                try fixture.load(CatalogDefinition(id: id, title: "x", locale: "en"), [Record(id: "1", title: "A")])
            }
        }
        #expect(throws: StorageError.self) {
            try fixture.load(
                CatalogDefinition(id: "x", title: "x", locale: "not a locale"), [Record(id: "1", title: "A")])
        }
        #expect(try fixture.store.catalogs().isEmpty)
    }

    @Test func deleteCatalogRemovesEverything() throws {
        let fixture = try StoreFixture()
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        #expect(try fixture.store.deleteCatalog("cookbook"))
        #expect(try fixture.store.catalogs().isEmpty)
        #expect(try !fixture.store.deleteCatalog("cookbook"))
    }

    @Test func aForeignSQLiteFileIsNotOpenedAsACatalog() throws {
        let fixture = try StoreFixture()
        let path = fixture.directory.appendingPathComponent("foreign.sqlite").path
        let other = try SQLiteCatalogStore(path: path)
        other.close()
        // Fake a foreign file by writing a table with another application id.
        let foreign = fixture.directory.appendingPathComponent("other.sqlite").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [foreign, "CREATE TABLE t(x); PRAGMA application_id = 42;"]
        try process.run()
        process.waitUntilExit()
        #expect(throws: StorageError.self) { try SQLiteCatalogStore(path: foreign) }
        let notSQLite = fixture.directory.appendingPathComponent("text.sqlite")
        try Data("hello, this is not a database at all, just text".utf8).write(to: notSQLite)
        #expect(throws: StorageError.self) { try SQLiteCatalogStore(path: notSQLite.path) }
    }

    @Test func readOnlyStoreSeesOtherConnectionsImports() throws {
        let fixture = try StoreFixture()
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let reader = try SQLiteCatalogStore(path: fixture.path, readOnly: true)
        defer { reader.close() }
        #expect(try reader.catalogs().map(\.count) == [StoreFixture.recipes.count])
        #expect(try reader.search("gulyas", in: "cookbook", scope: nil, limit: 5).items.count == 1)
        try fixture.load(StoreFixture.cookbook, [Record(id: "n", title: "Nokedli")])
        #expect(try reader.search("gulyas", in: "cookbook", scope: nil, limit: 5).items.isEmpty)
        #expect(try reader.search("nokedli", in: "cookbook", scope: nil, limit: 5).items.map(\.id) == ["n"])
    }
}

extension SearchHit {
    var id: String { record.id }
}

@Suite struct ReindexTests {
    @Test func reindexKeepsEveryRecordAndOrder() throws {
        let fixture = try StoreFixture()
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let before = try fixture.store.items(of: "cookbook", section: nil, after: nil, limit: 100)
        let summary = try fixture.store.reindex("cookbook")
        #expect(summary.total == StoreFixture.recipes.count)
        #expect(try fixture.store.items(of: "cookbook", section: nil, after: nil, limit: 100) == before)
        #expect(try fixture.store.catalogsNeedingReindex().isEmpty)
    }
}

@Suite struct LargeImportTests {
    /// Above the threshold the id index is rebuilt after the bulk insert: lookups must still work,
    /// and a duplicate id must still be found and roll everything back.
    @Test func largeImportsRebuildTheIDIndexAndStillCatchDuplicates() throws {
        let fixture = try StoreFixture()
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let count = 60_000
        var records = (0..<count).map { Record(id: "g\($0)", title: "Termék \($0 % 977) \($0)") }
        let definition = CatalogDefinition(id: "big", title: "Big", locale: "hu")
        let summary = try fixture.load(definition, records)
        #expect(summary.total == count)
        #expect(try fixture.store.item(of: "big", itemID: "g59999")?.title == "Termék \(59999 % 977) 59999")
        #expect(try fixture.store.item(of: "cookbook", itemID: "r1")?.title == "Csirkepaprikás")
        records[count - 1].id = "g7"
        #expect {
            try fixture.load(definition, records)
        } throws: { error in
            (error as? StorageError)?.message == "two records have the id \"g7\""
        }
        #expect(try fixture.store.catalogs().first { $0.id == "big" }?.count == count)
        #expect(try fixture.store.item(of: "big", itemID: "g59999") != nil)
    }
}
