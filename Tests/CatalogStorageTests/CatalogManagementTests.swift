import CatalogCollation
import CatalogCore
import CatalogEngines
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Synchronization
import Testing

/// Creating, changing and deleting catalogs (``CatalogManagement``), the same on every engine.
@Suite struct CatalogManagementTests {
    static let engines = TemporaryDatabase.Engine.available
    let management = CatalogManagement.withICU

    /// A German catalog whose titles Hungarian files under its own letters.
    static let kitchen = CatalogDefinition(id: "kitchen", title: "Küche", locale: "de")
    static let dishes: [Record] = [
        Record(id: "k1", title: "Csirkepaprikás", subtitle: "Mari néni", fields: ["weight": .text("130")]),
        Record(id: "k2", title: "Cukor", subtitle: "Kristály", fields: ["weight": .text("1000")]),
        Record(id: "k3", title: "Gyümölcs", subtitle: "Alma", fields: ["weight": .text("250")]),
    ]

    func sections(_ fixture: StoreFixture, _ id: String) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try fixture.items(id).records.map { ($0.title, $0.section ?? "") })
    }

    @Test(arguments: engines)
    func aCatalogIsCreatedEmptyAndOnce(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        var settings = CatalogSettings(title: "Kamra", locale: "hu")
        settings.roles = [.title: "name"]
        settings.labels = ["kg": ["hu": "Súly"]]
        let created = try management.create("pantry", settings: settings, in: fixture.database)
        #expect(created.detail.count == 0)
        #expect(created.detail.roles == ["title": "name"])
        #expect(created.detail.sections.contains("CS"))
        #expect(created.revision == (try fixture.catalog("pantry").revision))
        #expect(try fixture.items("pantry").records.isEmpty)
        let again = try #require(throws: StorageError.self) {
            try management.create(
                "pantry", settings: CatalogSettings(title: "Other", locale: "en"), in: fixture.database)
        }
        #expect(again.code == .constraint)
        #expect(try fixture.catalog("pantry").definition.title == "Kamra")
        // A later import reads the source with the roles it was created with.
        try fixture.load(try fixture.catalog("pantry").definition, [Record(id: "1", title: "Liszt")], replace: false)
        #expect(try fixture.catalog("pantry").summary.count == 1)
    }

    @Test(arguments: engines)
    func badSettingsCreateNothing(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        let error = try #require(throws: CatalogChangeError.self) {
            try management.create("bad id", settings: CatalogSettings(title: "X", locale: "xx"), in: fixture.database)
        }
        #expect(error.problems.map(\.pointer) == ["/id", "/locale"])
        #expect(try fixture.read { try $0.catalogs() }.isEmpty)
    }

    /// Title and labels are the definition only: the records stay as they were, in the same version.
    @Test(arguments: engines)
    func aNewTitleOrLabelChangesOnlyTheDefinition(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(Self.kitchen, Self.dishes)
        let before = try fixture.catalog("kitchen")
        let changed = try management.update("kitchen", in: fixture.database, ifRevision: [before.revision]) {
            var settings = $0.settings
            settings.title = "Konyha"
            settings.labels["weight"] = ["de": "Gewicht"]
            settings.scopes = [ScopeDefinition(label: "Alles", categories: [])]
            return settings
        }
        #expect(changed.change == .definition)
        #expect(changed.detail.title == "Konyha")
        #expect(changed.detail.scopes == ["Alles"])
        let after = try fixture.catalog("kitchen")
        // The records stay as they were (the same data version); the definition's change is a
        // change clients follow.
        func version(_ key: String) -> Substring { key[..<(key.lastIndex(of: ".") ?? key.endIndex)] }
        #expect(version(after.versionKey) == version(before.versionKey))
        #expect(after.change == before.change + 1)
        #expect(after.revision != before.revision && after.revision == changed.revision)
        #expect(after.summary.title == "Konyha")
        #expect(after.definition.fieldLabel("weight", language: "de") == "Gewicht")
        #expect(try fixture.read { try $0.catalogs() }.map(\.title) == ["Konyha"])
    }

    /// A new locale builds the catalog again from its records: Hungarian files Csirkepaprikás
    /// under CS, German under C.
    @Test(arguments: engines)
    func aNewLocaleRebuildsSectionsAndOrder(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(Self.kitchen, Self.dishes)
        #expect(try sections(fixture, "kitchen") == ["Csirkepaprikás": "C", "Cukor": "C", "Gyümölcs": "G"])
        let changed = try management.update("kitchen", in: fixture.database) {
            var settings = $0.settings
            settings.locale = "hu"
            return settings
        }
        #expect(changed.change == .rebuild)
        #expect(changed.detail.locale == "hu" && changed.detail.count == 3)
        #expect(changed.detail.sections.contains("GY"))
        #expect(try sections(fixture, "kitchen") == ["Csirkepaprikás": "CS", "Cukor": "C", "Gyümölcs": "GY"])
        #expect(try fixture.items("kitchen").records.map(\.title) == ["Cukor", "Csirkepaprikás", "Gyümölcs"])
        #expect(try fixture.search("csirke", in: "kitchen").items.map(\.record.id) == ["k1"])
        #expect(try fixture.item("kitchen", "k1")?.fields["weight"] == .text("130"))
        let stored = try fixture.catalog("kitchen")
        #expect(stored.summary.locale == "hu" && stored.definition.locale == "hu")
        // An import with the new locale is welcome now.
        try fixture.load(stored.definition, [Record(id: "k4", title: "Zsemle")], replace: false)
        #expect(try sections(fixture, "kitchen")["Zsemle"] == "ZS")
    }

    /// New roles map the records again from their source shape: the title field's old value
    /// becomes an extra field, and the new one's value the title.
    @Test(arguments: engines)
    func newRolesMoveValuesBetweenRolesAndFields(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(Self.kitchen, Self.dishes)
        let changed = try management.update("kitchen", in: fixture.database) {
            var settings = $0.settings
            settings.roles[.title] = "subtitle"
            settings.roles[.description] = "weight"
            return settings
        }
        #expect(changed.change == .remap)
        let k1 = try #require(try fixture.item("kitchen", "k1"))
        #expect(k1.title == "Mari néni")
        #expect(k1.subtitle == "Mari néni")
        #expect(k1.description == "130")
        #expect(k1.fields == ["title": .text("Csirkepaprikás")])
        #expect(try sections(fixture, "kitchen") == ["Mari néni": "M", "Kristály": "K", "Alma": "A"])
        // And back: the records are what they were.
        _ = try management.update("kitchen", in: fixture.database) {
            var settings = $0.settings
            settings.roles = [:]
            return settings
        }
        let again = try #require(try fixture.item("kitchen", "k1"))
        #expect(again.title == "Csirkepaprikás" && again.subtitle == "Mari néni" && again.description == nil)
        #expect(again.fields == ["weight": .text("130")])
    }

    @Test(arguments: engines)
    func newTypesConvertTheirFieldsOrAreRefused(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(Self.kitchen, Self.dishes)
        _ = try management.update("kitchen", in: fixture.database) {
            var settings = $0.settings
            settings.types["weight"] = .number
            return settings
        }
        #expect(try fixture.item("kitchen", "k2")?.fields["weight"] == .number("1000"))
        _ = try management.update("kitchen", in: fixture.database) {
            var settings = $0.settings
            settings.types["weight"] = .text
            return settings
        }
        #expect(try fixture.item("kitchen", "k2")?.fields["weight"] == .text("1000"))
        // A value the new type cannot read refuses the whole change, naming the type.
        let before = try fixture.catalog("kitchen").revision
        let error = try #require(throws: CatalogChangeError.self) {
            try management.update("kitchen", in: fixture.database) {
                var settings = $0.settings
                settings.types["subtitle"] = .bool
                settings.roles[.subtitle] = "nothing"
                return settings
            }
        }
        #expect(error.problems.map(\.pointer) == ["/types/subtitle"])
        #expect(error.problems.first?.message.contains("record \"k") == true)
        #expect(try fixture.catalog("kitchen").revision == before)
        #expect(try fixture.item("kitchen", "k1")?.subtitle == "Mari néni")
    }

    @Test(arguments: engines)
    func idsStayWhatFavoritesName(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(Self.kitchen, Self.dishes)
        let error = try #require(throws: CatalogChangeError.self) {
            try management.update("kitchen", in: fixture.database) {
                var settings = $0.settings
                settings.roles[.id] = "subtitle"
                return settings
            }
        }
        #expect(error.problems.map(\.pointer) == ["/roles/id"])
        // Ids derived from titles: the title role cannot move either.
        var derived = CatalogDefinition(id: "derived", title: "Derived", locale: "en")
        derived.idSource = .title("title")
        try fixture.load(derived, [Record(id: "apple", title: "Apple", subtitle: "Fruit")])
        let title = try #require(throws: CatalogChangeError.self) {
            try management.update("derived", in: fixture.database) {
                var settings = $0.settings
                settings.roles[.title] = "subtitle"
                return settings
            }
        }
        #expect(title.problems.map(\.pointer) == ["/roles/title"])
        // An empty catalog has no ids to keep.
        _ = try management.create("empty", settings: CatalogSettings(title: "E", locale: "en"), in: fixture.database)
        let empty = try management.update("empty", in: fixture.database) {
            var settings = $0.settings
            settings.roles[.id] = "sku"
            return settings
        }
        #expect(empty.detail.roles == ["id": "sku"])
    }

    /// An import read while the catalog is changed does not write the definition it was planned
    /// with over the change.
    @Test(arguments: engines)
    func anImportReadWhileTheCatalogChangesIsRefused(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(Self.kitchen, Self.dishes)
        /// Imports Zeller into `id` as planned now, running `meanwhile` while the source is read.
        func importRead(_ id: String, _ definition: CatalogDefinition, meanwhile: () throws -> Void) throws {
            let planned = try fixture.read { try $0.catalog(id) }
            _ = try CatalogImporter.run(
                into: fixture.database, definition: definition, replace: false,
                collation: try ICUCollation.forImport(locale: definition.locale), previous: .planned(planned),
                records: { add in
                    try meanwhile()
                    try add(Record(id: "k4", title: "Zeller"))
                    return nil
                })
        }
        for change in [{ $0.title = "Konyha" }, { $0.locale = "hu" }] as [(inout CatalogSettings) -> Void] {
            let definition = try fixture.catalog("kitchen").definition
            let error = try #require(throws: StorageError.self) {
                try importRead("kitchen", definition) {
                    _ = try management.update("kitchen", in: fixture.database) {
                        var settings = $0.settings
                        change(&settings)
                        return settings
                    }
                }
            }
            #expect(error.code == .constraint)
            #expect(error.message.contains("was changed while the import was read"))
            #expect(try fixture.item("kitchen", "k4") == nil)
        }
        let stored = try fixture.catalog("kitchen")
        #expect(stored.summary.title == "Konyha" && stored.definition.locale == "hu")
        // Planned as a new catalog, and created meanwhile: refused too.
        let created = try #require(throws: StorageError.self) {
            try importRead("fresh", CatalogDefinition(id: "fresh", title: "Other", locale: "en")) {
                _ = try management.create(
                    "fresh", settings: CatalogSettings(title: "F", locale: "de"), in: fixture.database)
            }
        }
        #expect(created.message.contains("was created while the import was read"))
        #expect(try fixture.catalog("fresh").summary.title == "F")
        // Nothing meanwhile: it goes through.
        try importRead("kitchen", stored.definition) {}
        #expect(try fixture.item("kitchen", "k4")?.section == "Z")
    }

    @Test(arguments: engines)
    func aStaleRevisionChangesNothing(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(Self.kitchen, Self.dishes)
        let first = try fixture.catalog("kitchen").revision
        _ = try management.update("kitchen", in: fixture.database, ifRevision: [first]) {
            var settings = $0.settings
            settings.title = "One"
            return settings
        }
        for attempt in [
            { _ = try management.update("kitchen", in: fixture.database, ifRevision: [first]) { $0.settings } },
            { _ = try management.delete("kitchen", in: fixture.database, ifRevision: [first, "other"]) },
        ] as [() throws -> Void] {
            let error = try #require(throws: CatalogChangeError.self) { try attempt() }
            #expect(error.code == .staleRevision)
        }
        #expect(try fixture.catalog("kitchen").summary.title == "One")
        let missing = try #require(throws: StorageError.self) {
            try management.update("nowhere", in: fixture.database) { $0.settings }
        }
        #expect(missing.code == .catalogNotFound)
    }

    @Test(arguments: engines)
    func deletingRemovesTheCatalogAndItsFavorites(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        var definition = Self.kitchen
        definition.categories = [CategoryInfo(id: 1, name: "Soups", image: "/images/soups.png")]
        try fixture.load(
            definition, Self.dishes + [Record(id: "k9", title: "Leves", categories: ["Soups"], image: "/images/k9.png")]
        )
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        let removed = Removed()
        var management = management
        management.removeFavorites = { catalog, _ in removed.names.withLock { $0.append(catalog) } }
        let deleted = try management.delete("kitchen", in: fixture.database, collectingImages: true)
        #expect(deleted == DeletedCatalog(id: "kitchen", count: 4, images: ["/images/k9.png", "/images/soups.png"]))
        #expect(removed.names.withLock { $0 } == ["kitchen"])
        #expect(try fixture.read { try $0.catalog("kitchen") } == nil)
        #expect(try fixture.read { try $0.catalogs() }.map(\.id) == ["cookbook"])
        let again = try #require(throws: StorageError.self) {
            try management.delete("kitchen", in: fixture.database)
        }
        #expect(again.code == .catalogNotFound)
        // The id is free again.
        _ = try management.create(
            "kitchen", settings: CatalogSettings(title: "New", locale: "de"), in: fixture.database)
        #expect(try fixture.catalog("kitchen").summary.count == 0)
    }
}

/// The catalogs whose favorites were removed.
private final class Removed: Sendable {
    let names = Mutex<[String]>([])
}
