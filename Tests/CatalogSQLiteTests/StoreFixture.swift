import CatalogModel
import CatalogSQLite
import CatalogTestSupport
import Foundation

/// A store in a fresh temporary directory, removed when the fixture goes away.
final class StoreFixture {
    let database: TemporaryDatabase
    var directory: URL { database.directory }
    var path: String { database.path }
    var store: SQLiteCatalogStore { database.store }

    init() throws {
        database = try TemporaryDatabase()
    }

    @discardableResult
    func load(_ definition: CatalogDefinition, _ records: [Record], replace: Bool = true) throws -> ImportSummary {
        try store.importRecords(
            definition: definition, replace: replace,
            records: { add in
                for record in records { try add(record) }
                return nil
            }, progress: nil)
    }

    static let cookbook = CatalogDefinition(
        id: "cookbook", title: "Szakácskönyv", locale: "hu",
        categories: [
            CategoryInfo(id: 1, name: "Levesek"), CategoryInfo(id: 2, name: "Húsételek"),
            CategoryInfo(id: 3, name: "Desszertek"),
        ])

    static let recipes: [Record] = [
        Record(
            id: "r1", title: "Csirkepaprikás", subtitle: "Mari néni receptje", categories: ["Húsételek"], featured: 1),
        Record(id: "r2", title: "Cukros palacsinta", categories: ["Desszertek"]),
        Record(
            id: "r3", title: "Gulyásleves", description: "Bográcsban főzve", categories: ["Levesek", "Húsételek"],
            featured: 2),
        Record(id: "r4", title: "Gyümölcsleves", categories: ["Levesek", "Desszertek"]),
        Record(id: "r5", title: "Szilvás gombóc", categories: ["Desszertek"]),
        Record(id: "r6", title: "Zsemlegombóc", categories: ["Levesek"]),
        Record(id: "r7", title: "Öntött tészta", categories: ["Desszertek"]),
        Record(id: "r8", title: "Almás pite", categories: ["Desszertek"], fields: ["complexity": .text("1 óra")]),
        Record(id: "r9", title: "3 tojásos rántotta"),
        Record(id: "r10", title: "Nyúlpörkölt", categories: ["Húsételek"]),
        Record(id: "r11", title: "Csusza", categories: ["Tésztaételek"]),
    ]
}
