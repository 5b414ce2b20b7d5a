import CatalogCollation
import CatalogCore
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation

/// A database of one engine in a fresh temporary place, removed when the fixture goes away,
/// with the helpers the behaviour suite reads through.
final class StoreFixture {
    let temporary: TemporaryDatabase
    var database: any CatalogDatabase { temporary.database }
    var directory: URL { temporary.directory }

    init(_ engine: TemporaryDatabase.Engine = .sqlite) throws {
        temporary = try TemporaryDatabase(engine: engine)
    }

    @discardableResult
    func load(_ definition: CatalogDefinition, _ records: [Record], replace: Bool = true) throws -> ImportSummary {
        try CatalogImporter.run(
            into: database, definition: definition, replace: replace,
            collation: try ICUCollation.forImport(locale: definition.locale),
            records: { add in
                for record in records { try add(record) }
                return nil
            })
    }

    /// Runs `body` in one read of the database.
    func read<T>(_ body: (any CatalogReader) throws -> T) throws -> T { try database.read(body) }

    func catalog(_ id: String) throws -> StoredCatalog { try read { try $0.requireCatalog(id) } }

    func items(
        _ id: String, section: String? = nil, after: String? = nil, before: String? = nil, limit: Int = 100
    ) throws -> (records: [Record], next: String?, previous: String?) {
        try read { reader in
            let page = try reader.items(of: catalog(id), section: section, after: after, before: before, limit: limit)
            return (try page.records(), page.next, page.previous)
        }
    }

    func search(_ query: String, in id: String, scope: String? = nil, limit: Int = 10) throws -> SearchResponse {
        try read { reader in
            try reader.search(SearchRequest(query: query, scope: scope, limit: limit).checked(), in: catalog(id))
                .response()
        }
    }

    /// A ranked search of catalog `id` as the engine answers it (hits with their tiers), from `after`.
    func ranked(_ query: String, in id: String, after: String? = nil, limit: Int = 50) throws -> SearchResult {
        try read { reader in
            try reader.search(SearchRequest(query: query, after: after, limit: limit).checked(), in: catalog(id))
        }
    }

    /// The ids of every page of a ranked search, `limit` at a time, by its cursors.
    func pages(_ query: String, in id: String, limit: Int) throws -> [String] {
        var ids: [String] = []
        var after: String?
        repeat {
            let result = try ranked(query, in: id, after: after, limit: limit)
            ids += result.hits.map(\.stored.id)
            after = result.next
        } while after != nil && ids.count < 100
        return ids
    }

    func item(_ id: String, _ itemID: String) throws -> Record? {
        try read { reader in try reader.item(of: catalog(id), id: itemID)?.record() }
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

extension SearchHit {
    var id: String { record.id }
}
