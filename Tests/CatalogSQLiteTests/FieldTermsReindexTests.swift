import CatalogCollation
import CatalogCore
import CatalogEngines
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import SQLiteSupport
import Testing

/// A catalog whose index was built before it held every field's values (no
/// ``SearchBlobs/fieldTerms`` marker) is built again when its database is opened, so filters and
/// facets on any field work on catalogs made by earlier versions.
@Suite struct FieldTermsReindexTests {
    @Test func anIndexWithoutFieldTermsIsBuiltAgainOnOpen() throws {
        let temporary = try TemporaryDatabase()
        _ = try CatalogImporter.run(
            into: temporary.database, definition: CatalogDefinition(id: "wines", title: "Wines", locale: "en"),
            replace: true, collation: try ICUCollation(locale: "en"),
            records: { add in
                for (n, region) in ["Tokaj", "Eger", "Tokaj", "Villány"].enumerated() {
                    try add(Record(id: "w\(n)", title: "Wine \(n)", fields: ["Region": .text(region)]))
                }
                return nil
            })
        func marked(_ database: any CatalogDatabase) throws -> Bool {
            try database.read { reader in
                try reader.searchSegments(of: reader.requireCatalog("wines")).allSatisfy {
                    try $0.reader.blob(named: SearchBlobs.fieldTerms) != nil
                }
            }
        }
        #expect(try marked(temporary.database))
        let before = try temporary.database.read { try $0.requireCatalog("wines").versionKey }

        // As an earlier version left it: no marker.
        let connection = try Connection(path: temporary.path, mode: .readWrite)
        try connection.execute("DELETE FROM search_blobs WHERE name = '\(SearchBlobs.fieldTerms)'")
        connection.close()
        let unmarked = try TemporaryDatabase.reopen(temporary)
        defer { unmarked.close() }
        #expect(try marked(unmarked))
        let catalog = try unmarked.read { try $0.requireCatalog("wines") }
        #expect(catalog.versionKey != before, "built again")
        let filter = FilterExpression.condition(
            FilterCondition(field: "Region", test: .compare(.equal, FilterValue("tokaj"))))
        let found = try unmarked.read { reader in
            try reader.search(SearchRequest(query: "", filter: filter).checked(), in: catalog).response()
        }
        #expect(found.items.map(\.record.id).sorted() == ["w0", "w2"])
        // Opened again, a marked index stays as it is.
        let again = try TemporaryDatabase.reopen(temporary)
        defer { again.close() }
        #expect(try again.read { try $0.requireCatalog("wines").versionKey } == catalog.versionKey)
    }
}
