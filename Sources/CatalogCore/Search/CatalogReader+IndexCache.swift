import CatalogStorage

extension CatalogReader {
    /// The catalog's loaded search index, from the cache of the database this reader reads
    /// (``CatalogReader/indexCache``); loaded through `indexReader` when it is not there.
    func loadedIndex(of catalog: StoredCatalog, reader indexReader: any SearchIndexReading) throws
        -> CatalogSearchIndex
    {
        try indexCache.index(of: catalog) { try CatalogSearchIndex(reader: indexReader) }
    }
}
