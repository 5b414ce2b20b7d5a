import CatalogCollation
import CatalogCore
import CatalogModel
import CatalogStorage

/// Keeping stored catalogs consistent with this program.
public enum CatalogMaintenance {
    /// Rebuilds the catalogs whose sort keys were made by another ICU collator version (sort
    /// keys are only comparable within one version), and those whose index was built before it
    /// held the values of every record field (``SearchBlobs/fieldTerms``), which filters and
    /// facets on any field read.
    public static func reindexStaleCatalogs(in database: any CatalogDatabase) throws {
        let stale = try database.read { reader in
            try reader.catalogs().compactMap { summary -> (StoredCatalog, ICUCollation?)? in
                guard let catalog = try reader.catalog(summary.id),
                    let collation = try? ICUCollation(locale: catalog.definition.locale)
                else { return nil }
                if collation.version != catalog.collationVersion { return (catalog, collation) }
                let withoutFields =
                    try catalog.summary.count > 0
                    && reader.searchSegments(of: catalog).contains {
                        try $0.reader.blob(named: SearchBlobs.fieldTerms) == nil
                    }
                return withoutFields ? (catalog, nil) : nil
            }
        }
        for (catalog, collation) in stale {
            if let collation {
                try reindex(catalog, in: database, collation: collation)
            } else {
                // The same records the same way: an import would change nothing, so the index
                // is built again as a settings change builds it.
                try CatalogManagement.withICU.rebuildIndex(catalog.id, in: database)
            }
        }
    }

    /// Rebuilds one catalog from its own records, read in one snapshot (the importer's own
    /// reads nest in it).
    public static func reindex(
        _ catalog: StoredCatalog, in database: any CatalogDatabase, collation: any CatalogCollating
    ) throws {
        _ = try database.read { reader in
            try CatalogImporter.run(
                into: database, definition: catalog.definition, replace: true, collation: collation,
                records: { add in
                    try reader.forEachItem(of: catalog) { try add(try $0.record()) }
                    return nil
                })
        }
    }
}
