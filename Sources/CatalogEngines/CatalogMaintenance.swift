import CatalogCollation
import CatalogCore
import CatalogModel
import CatalogStorage

/// Keeping stored catalogs consistent with this program.
public enum CatalogMaintenance {
    /// Rebuilds the catalogs whose sort keys were made by another ICU collator version (sort
    /// keys are only comparable within one version).
    public static func reindexStaleCatalogs(in database: any CatalogDatabase) throws {
        let reader = try database.reader()
        for summary in try reader.catalogs() {
            guard let catalog = try reader.catalog(summary.id),
                let collation = try? ICUCollation(locale: catalog.definition.locale),
                collation.version != catalog.collationVersion
            else { continue }
            try reindex(catalog, in: database, collation: collation)
        }
    }

    /// Rebuilds one catalog from its own records.
    public static func reindex(
        _ catalog: StoredCatalog, in database: any CatalogDatabase, collation: any CatalogCollating
    ) throws {
        let reader = try database.reader()
        _ = try CatalogImporter.run(
            into: database, definition: catalog.definition, replace: true, collation: collation,
            records: { add in
                try reader.forEachItem(of: catalog) { try add(try $0.record()) }
                return nil
            })
    }
}
