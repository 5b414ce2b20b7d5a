import CatalogCollation
import CatalogCore
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

/// What every engine must do: these run unchanged against each one (``TemporaryDatabase/Engine``).
@Suite struct CatalogBehaviourTests {
    static let engines = TemporaryDatabase.Engine.available

    @Test(arguments: engines)
    func sectionsFollowTheLocale(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let sections = try fixture.read { try $0.sections(of: fixture.catalog("cookbook")) }
        #expect(sections.map(\.label) == ["A", "C", "CS", "G", "GY", "NY", "Ö", "SZ", "ZS", "#"])
        #expect(sections.map(\.count) == [1, 1, 2, 1, 1, 1, 1, 1, 1, 1])
        let page = try fixture.items("cookbook")
        #expect(
            page.records.map(\.title) == [
                "Almás pite", "Cukros palacsinta", "Csirkepaprikás", "Csusza", "Gulyásleves", "Gyümölcsleves",
                "Nyúlpörkölt", "Öntött tészta", "Szilvás gombóc", "Zsemlegombóc", "3 tojásos rántotta",
            ])
        #expect(page.records.map { $0.section ?? "" } == ["A", "C", "CS", "CS", "G", "GY", "NY", "Ö", "SZ", "ZS", "#"])
        #expect(page.next == nil)
        #expect(page.previous == nil)
    }

    @Test(arguments: engines)
    func keysetPagesCoverEveryRecordOnceBothWays(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        var seen: [String] = []
        var cursor: String?
        var last: String?
        repeat {
            let page = try fixture.items("cookbook", after: cursor, limit: 3)
            seen += page.records.map(\.id)
            last = page.records.isEmpty ? last : cursor
            cursor = page.next
        } while cursor != nil
        #expect(seen == StoreFixture.recipes.sortedAsInTheIndex)
        // Going back from the end gives the same records in the same order.
        let end = try fixture.items("cookbook", after: last, limit: 3)
        var back: [String] = end.records.map(\.id)
        var previous = end.previous
        while let before = previous {
            let page = try fixture.items("cookbook", before: before, limit: 3)
            back = page.records.map(\.id) + back
            previous = page.previous
        }
        #expect(back == seen)
        let cs = try fixture.items("cookbook", section: "CS", limit: 1)
        #expect(cs.records.map(\.title) == ["Csirkepaprikás"])
        let next = try fixture.items("cookbook", section: "CS", after: cs.next, limit: 1)
        #expect(next.records.map(\.title) == ["Csusza"])
        #expect(next.next == nil)
    }

    @Test(arguments: engines)
    func railJumpsStartAtALetterAndReachEverythingBefore(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        try fixture.read { reader in
            let catalog = try fixture.catalog("cookbook")
            let jump = try reader.items(of: catalog, startingAt: "G", limit: 2)
            #expect(try jump.records().map(\.title) == ["Gulyásleves", "Gyümölcsleves"])
            let before = try reader.items(of: catalog, before: jump.previous, limit: 10)
            #expect(
                try before.records().map(\.title) == ["Almás pite", "Cukros palacsinta", "Csirkepaprikás", "Csusza"])
            // An empty letter starts at the next one that has records.
            #expect(
                try reader.items(of: catalog, startingAt: "B", limit: 1).records().map(\.title) == ["Cukros palacsinta"]
            )
            #expect(throws: StorageError.self) { try reader.items(of: catalog, startingAt: "Q!", limit: 1) }
        }
    }

    @Test(arguments: engines)
    func cursorsStayValidAcrossReimports(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let first = try fixture.items("cookbook", limit: 4)
        // A re-import renumbers everything: a record before the cursor goes, one is added before and
        // one after it.
        var changed = StoreFixture.recipes.filter { $0.id != "r8" }
        changed.append(Record(id: "n1", title: "Bableves"))
        changed.append(Record(id: "n2", title: "Tökfőzelék"))
        try fixture.load(StoreFixture.cookbook, changed)
        var rest: [String] = []
        var cursor = first.next
        while let after = cursor {
            let page = try fixture.items("cookbook", after: after, limit: 3)
            rest += page.records.map(\.id)
            cursor = page.next
        }
        let seen = first.records.map(\.id) + rest
        #expect(Set(seen).count == seen.count, "no record twice")
        for record in changed where StoreFixture.recipes.contains(where: { $0.id == record.id }) {
            #expect(seen.contains(record.id), "\(record.id) is in both versions")
        }
        #expect(rest.contains("n2"))
    }

    @Test(arguments: engines)
    func badCursorsAndSectionsAreInvalidArguments(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        for cursor in [
            "zzzzzzzzzzzzzzzzzzzz!", "'; DROP TABLE items; --", "", "1", "+1", String(repeating: "A", count: 5000),
        ] {
            #expect {
                try fixture.items("cookbook", after: cursor, limit: 5)
            } throws: { error in
                (error as? StorageError)?.code == .invalidArgument
            }
        }
        // A well-formed cursor that names no record still names a place: paging from it works.
        for cursor in ["AAAA", "1Z", "zzzzzzzzzz", "-_-_"] {
            let page = try fixture.items("cookbook", after: cursor, limit: 20)
            #expect(Set(page.records.map(\.id)).isSubset(of: Set(StoreFixture.recipes.map(\.id))))
        }
        #expect {
            try fixture.items("cookbook", section: "Q!", limit: 5)
        } throws: { error in
            (error as? StorageError)?.code == .nameNotFound
        }
        #expect(throws: StorageError.self) { try fixture.items("nope") }
        #expect(try fixture.items("cookbook", section: "B").records.isEmpty)
        #expect(throws: StorageError.self) { try fixture.items("cookbook", limit: 0) }
        #expect(throws: StorageError.self) { try fixture.items("cookbook", limit: 501) }
    }

    @Test(arguments: engines)
    func searchIgnoresCaseAndAccentsAndRanksTitlesFirst(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let result = try fixture.search("LEVES", in: "cookbook")
        // Title words first (Gulyásleves, Gyümölcsleves), then the category "Levesek" of Zsemlegombóc.
        #expect(result.items.map(\.id) == ["r3", "r4", "r6"])
        let gomboc = try fixture.search("gomboc", in: "cookbook")
        // A whole title word before a run inside one.
        #expect(gomboc.items.map(\.record.title) == ["Szilvás gombóc", "Zsemlegombóc"])
        #expect(gomboc.items[0].matches == [MatchRange(field: "title", start: 8, length: 6)])
        // A title start (Csirkepaprikás) before a run inside a word (palacsinta).
        #expect(try fixture.search("csi", in: "cookbook").items.map(\.id) == ["r1", "r2"])
        #expect(try fixture.search("pite alm", in: "cookbook").items.map(\.id) == ["r8"])
        let otherField = try fixture.search("mari", in: "cookbook")
        #expect(otherField.items.map(\.id) == ["r1"])
        #expect(otherField.items[0].matches == [MatchRange(field: "subtitle", start: 0, length: 4)])
        let extra = try fixture.search("óra", in: "cookbook")
        #expect(extra.items.map(\.id) == ["r8"])
        #expect(extra.items[0].snippet?.field == "fields.complexity")
    }

    @Test(arguments: engines)
    func scopesCountAndFilterAndTheMetadataAgrees(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
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
        let all = try fixture.search("", in: "seq")
        #expect(all.scopes.map(\.label) == ["Alle", "Windows", "Apple", "Apple&Win"])
        #expect(all.scopes.map(\.count) == [3, 2, 2, 1])
        let klang = try fixture.search("klang", in: "seq", scope: "Apple")
        #expect(klang.items.map(\.id) == ["a"])
        #expect(klang.total == 1)
        #expect(klang.scopes.map(\.count) == [2, 2, 1, 1])
        #expect(try fixture.search("", in: "seq", scope: "Apple&Win").items.map(\.id) == ["a"])
        #expect(throws: StorageError.self) { try fixture.search("x", in: "seq", scope: "Linux") }
        // A catalog without scopes of its own: "All" in its language plus its largest categories,
        // the same in the metadata as in search.
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let scopes = try fixture.read { try $0.scopes(of: fixture.catalog("cookbook")).map(\.label) }
        #expect(scopes.first == "Összes")
        #expect(try fixture.search("", in: "cookbook").scopes.map(\.label) == scopes)
    }

    @Test(arguments: engines)
    func hostileQueriesAreJustText(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        for query in [
            "\"", "\"foo OR", "NEAR(", "-x", "*", "a\u{0}b", "'; DROP TABLE items; --", "title:csirke", "{title}: x",
            "^csirke", "csirke AND NOT", "<script>alert(1)</script>",
            String(repeating: "é", count: CatalogLimits.maxTextLength), "   ",
            "%", "_", "\\", "' OR 1=1 --",
        ] {
            let result = try fixture.search(query, in: "cookbook")
            #expect(result.total <= StoreFixture.recipes.count)
            for hit in result.items {
                #expect(StoreFixture.recipes.contains { $0.id == hit.id })
            }
        }
        // Longer ones never reach an engine: the checked request refuses them.
        #expect(throws: SearchRequestError.self) {
            try fixture.search(String(repeating: "é", count: 10_000), in: "cookbook")
        }
        #expect(try fixture.search("'; DROP TABLE items; --", in: "cookbook").total == 0)
        #expect(try fixture.read { try $0.catalogs().first?.count } == StoreFixture.recipes.count)
    }

    @Test(arguments: engines)
    func reimportsCountWhatChangedAndMergeKeepsOthers(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let before = try fixture.catalog("cookbook").versionKey
        let again = try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        #expect(again.total == StoreFixture.recipes.count)
        #expect(again.updated == 0)
        #expect(again.added == 0)
        #expect(try fixture.catalog("cookbook").versionKey == before, "an unchanged import writes nothing")
        let merged = try fixture.load(
            StoreFixture.cookbook, [Record(id: "r99", title: "Babgulyás"), Record(id: "r1", title: "Csirkepörkölt")],
            replace: false)
        #expect(merged.total == StoreFixture.recipes.count + 1)
        #expect(merged.added == 1)
        #expect(merged.updated == 1)
        #expect(try fixture.item("cookbook", "r1")?.title == "Csirkepörkölt")
        #expect(try fixture.search("babgulyas", in: "cookbook").items.map(\.id) == ["r99"])
        let replaced = try fixture.load(StoreFixture.cookbook, [Record(id: "r1", title: "Csirkepaprikás")])
        #expect(replaced.total == 1)
        #expect(replaced.removed == StoreFixture.recipes.count)
        #expect(try fixture.read { try $0.sections(of: fixture.catalog("cookbook")).map(\.label) } == ["CS"])
    }

    @Test(arguments: engines)
    func failedImportLeavesTheCatalogExactlyAsItWas(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let before = try fixture.items("cookbook").records
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try CatalogImporter.run(
                into: fixture.database, definition: StoreFixture.cookbook, replace: true,
                collation: try ICUCollation(locale: "hu"),
                records: { add in
                    try add(Record(id: "x1", title: "Új recept"))
                    if Bool(true) { throw Boom() }
                    return nil
                })
        }
        #expect(throws: StorageError.self) {
            try fixture.load(StoreFixture.cookbook, [Record(id: "d", title: "A"), Record(id: "d", title: "B")])
        }
        #expect(throws: StorageError.self) {
            try CatalogImporter.run(
                into: fixture.database, definition: StoreFixture.cookbook, replace: true,
                collation: try ICUCollation(locale: "hu"),
                records: { add in
                    try add(Record(id: "x2", title: "Mégsem"))
                    return nil
                }, isCancelled: { true })
        }
        #expect(try fixture.items("cookbook").records == before)
        #expect(try fixture.search("uj", in: "cookbook").items.isEmpty)
        #expect(try fixture.search("gulyas", in: "cookbook").items.count == 1)
    }

    @Test(arguments: engines)
    func categoriesFeaturedAndCategoryPages(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let catalog = try fixture.catalog("cookbook")
        let categories = catalog.categories
        #expect(categories.prefix(3).map(\.name) == ["Levesek", "Húsételek", "Desszertek"])
        #expect(categories.prefix(3).map(\.id) == [1, 2, 3])
        #expect(categories.first { $0.name == "Tésztaételek" }?.id == 4)
        #expect(categories.map(\.count) == [3, 3, 5, 1])
        try fixture.read { reader in
            #expect(try reader.featured(of: catalog, limit: 10).map(\.id) == ["r1", "r3"])
            let soups = try reader.items(of: catalog, category: "Levesek", limit: 2)
            #expect(soups.items.map(\.id) == ["r3", "r4"])
            let rest = try reader.items(of: catalog, category: "Levesek", after: soups.next, limit: 2)
            #expect(rest.items.map(\.id) == ["r6"])
            #expect(rest.next == nil)
            #expect(throws: StorageError.self) { try reader.items(of: catalog, category: "Nope", limit: 2) }
        }
    }

    @Test(arguments: engines)
    func invalidCatalogIDsAndLocalesAreRejected(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        for id in ["", "a b", "../x", "x;y", String(repeating: "a", count: 65)] {
            #expect(throws: StorageError.self) {
                try fixture.load(CatalogDefinition(id: id, title: "x", locale: "en"), [Record(id: "1", title: "A")])
            }
        }
        #expect(throws: StorageError.self) {
            try fixture.load(
                CatalogDefinition(id: "x", title: "x", locale: "not a locale"), [Record(id: "1", title: "A")])
        }
        #expect(try fixture.read { try $0.catalogs().isEmpty })
    }

    @Test(arguments: engines)
    func deleteCatalogRemovesEverything(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        #expect(try fixture.database.write { try $0.deleteCatalog("cookbook") })
        #expect(try fixture.read { try $0.catalogs().isEmpty })
        #expect(try !fixture.database.write { try $0.deleteCatalog("cookbook") })
    }

    @Test(arguments: engines)
    func largeImportsCatchDuplicatesAndKeepOtherCatalogs(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let count = 70_000
        var records = (0..<count).map { Record(id: "g\($0)", title: "Termék \($0 % 977) \($0)") }
        let definition = CatalogDefinition(id: "big", title: "Big", locale: "hu")
        let summary = try fixture.load(definition, records)
        #expect(summary.total == count)
        #expect(try fixture.item("big", "g69999")?.title == "Termék \(69999 % 977) 69999")
        #expect(try fixture.item("cookbook", "r1")?.title == "Csirkepaprikás")
        #expect(try fixture.search("termek 976 69", in: "big").total > 0)
        records[count - 1].id = "g7"
        #expect {
            try fixture.load(definition, records)
        } throws: { error in
            (error as? StorageError)?.message == "two records have the id \"g7\""
        }
        #expect(try fixture.read { try $0.catalogs() }.first { $0.id == "big" }?.count == count)
    }

    @Test(arguments: engines)
    func readersSeeOtherWritersChanges(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let other = try TemporaryDatabase.reopen(fixture.temporary)
        defer { other.close() }
        #expect(try other.read { try $0.catalogs().map(\.count) } == [StoreFixture.recipes.count])
        try fixture.load(StoreFixture.cookbook, [Record(id: "n", title: "Nokedli")])
        try other.read { reader in
            let catalog = try reader.requireCatalog("cookbook")
            #expect(
                try reader.search(SearchRequest(query: "nokedli").checked(), in: catalog).hits.map(\.stored.id) == ["n"]
            )
            #expect(try reader.search(SearchRequest(query: "gulyas").checked(), in: catalog).hits.isEmpty)
        }
    }
}

/// Accounts and favorites, on every engine.
@Suite struct UserBehaviourTests {
    @Test(arguments: CatalogBehaviourTests.engines)
    func favoritesSurviveReimportingTheirCatalog(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        let definition = CatalogDefinition(id: "shop", title: "Shop", locale: "en")
        try fixture.load(definition, [Record(id: "a1", title: "Anvil"), Record(id: "b2", title: "Bellows")])
        let users = try fixture.database.users()
        let ada = try users.addUser(
            name: "ada", isAdmin: false, passwordHash: nil, tokenSelector: "s1", tokenHash: [1, 2, 3])
        #expect(try users.addFavorite(userID: ada.id, catalog: "shop", item: "b2"))
        #expect(try !users.addFavorite(userID: ada.id, catalog: "shop", item: "b2"))
        try fixture.load(definition, [Record(id: "b2", title: "Bellows, large"), Record(id: "c3", title: "Crucible")])
        let favorites = try users.favorites(ofUser: ada.id)
        #expect(favorites.map(\.item) == ["b2"])
        #expect(try fixture.item("shop", favorites[0].item)?.title == "Bellows, large")
        #expect(try users.removeFavorite(userID: ada.id, catalog: "shop", item: "b2"))
        #expect(try users.favorites(ofUser: ada.id).isEmpty)
        // Another handle sees the account at once.
        let other = try TemporaryDatabase.reopen(fixture.temporary)
        defer { other.close() }
        #expect(try other.users().user(named: "ADA") == ada)
        #expect(try other.users().tokenCredential(selector: "s1")?.hash == [1, 2, 3])
    }
}

extension [Record] {
    /// The ids as `catalog list` orders these recipes (Hungarian).
    var sortedAsInTheIndex: [String] {
        ["r8", "r2", "r1", "r11", "r3", "r4", "r10", "r7", "r5", "r6", "r9"]
    }
}
