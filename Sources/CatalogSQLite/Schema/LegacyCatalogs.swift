import CatalogCore
import CatalogModel
import CatalogStorage
import Foundation
import SQLiteSupport

/// Catalogs written by schema versions 1 and 2, kept as `legacy_catalogs` and `legacy_items`
/// by migration 3 until they are rebuilt in the current layout, which needs the collator
/// (CatalogCollation) the engine does not depend on.
extension SQLiteDatabase {
    /// Whether the file still holds catalogs in the old layout.
    public func hasLegacyCatalogs() throws -> Bool {
        try withWriter { connection in
            try connection.cached(
                "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'legacy_catalogs'"
            ).scalarInt() == 1
        }
    }

    /// Rebuilds every old-layout catalog in the current layout, then drops the old tables.
    ///
    /// - Parameter collation: the collation of a locale.
    public func convertLegacyCatalogs(collation: (String) throws -> any CatalogCollating) throws {
        guard try hasLegacyCatalogs() else { return }
        let catalogs: [(number: Int64, definition: CatalogDefinition)] = try withWriter { connection in
            let statement = try connection.prepare("SELECT number, definition FROM legacy_catalogs ORDER BY id")
            var result: [(Int64, CatalogDefinition)] = []
            while try statement.step() {
                let definition = try JSONDecoder().decode(CatalogDefinition.self, from: Data(statement.text(1).utf8))
                result.append((statement.int64(0), definition))
            }
            return result
        }
        for (number, definition) in catalogs {
            var records: [Record] = []
            try withWriter { connection in
                let statement = try connection.prepare(
                    """
                    SELECT id, title, subtitle, description, categories, price, currency, quantity, country, image,
                        featured, fields FROM legacy_items WHERE catalog_number = ? ORDER BY ord
                    """)
                try statement.bind(number)
                while try statement.step() { records.append(Self.legacyRecord(statement)) }
            }
            _ = try CatalogImporter.run(
                into: self, definition: definition, replace: true, collation: try collation(definition.locale),
                records: { add in
                    for record in records { try add(record) }
                    return nil
                })
        }
        try withWriter { connection in
            try connection.transaction {
                try connection.execute("DROP TABLE legacy_items; DROP TABLE legacy_catalogs")
            }
        }
    }

    private static func legacyRecord(_ row: Statement) -> Record {
        var record = Record(id: row.text(0), title: row.text(1))
        record.subtitle = row.optionalText(2)
        record.description = row.optionalText(3)
        record.categories = (try? JSONDecoder().decode([String].self, from: Data(row.text(4).utf8))) ?? []
        record.price = row.optionalText(5).flatMap(DecimalText.parse)
        record.currency = row.optionalText(6)
        record.quantity = row.optionalInt(7)
        record.country = row.optionalText(8)
        record.image = row.optionalText(9)
        record.featured = row.optionalInt(10)
        record.fields = (try? JSONDecoder().decode([String: FieldValue].self, from: Data(row.text(11).utf8))) ?? [:]
        return record
    }
}
