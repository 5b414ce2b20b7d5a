import CatalogModel

/// The storage protocol: what every engine (SQLite, PostgreSQL) offers the CLI, the server and
/// the benchmarks.
///
/// Methods are synchronous and blocking: an engine value belongs to one thread at a time (the
/// server gives each worker thread its own), so a caller on Swift concurrency runs them on a
/// dedicated thread, never on the cooperative pool.
public protocol CatalogStore: AnyObject {
    /// Every catalog, ordered by id.
    func catalogs() throws -> [CatalogSummary]
    /// The definition of catalog `id`, or `nil` when it does not exist.
    func definition(of id: String) throws -> CatalogDefinition?
    /// The non-empty sections of catalog `id`, in index order.
    func sections(of id: String) throws -> [SectionCount]
    /// A page of records in index order, after `cursor` (from a previous page), optionally only
    /// one section.
    func items(of id: String, section: String?, after cursor: String?, limit: Int) throws -> ItemsPage
    /// One record by its id.
    func item(of id: String, itemID: String) throws -> Record?
    /// Ranked search; an empty query lists the scope's records in index order.
    func search(_ query: String, in id: String, scope: String?, limit: Int) throws -> SearchResponse
    /// The catalog's categories with their ids and record counts, in display order.
    func categories(of id: String) throws -> [CategoryCount]
    /// Featured records by rank.
    func featured(of id: String, limit: Int) throws -> [Record]
    /// Records carrying the category, in index order.
    func items(of id: String, category: String, after cursor: String?, limit: Int) throws -> ItemsPage

    /// Replaces or merges the records of a catalog from a source in one transaction: on any error
    /// nothing changes. Creates the catalog when it does not exist.
    ///
    /// - Parameters:
    ///   - definition: the catalog's definition (stored, replacing the previous one).
    ///   - records: the records, streamed; the closure calls its argument once per record and
    ///     returns the definition to store if reading taught it something (field order, the
    ///     detected record element), or nil to store `definition` as given.
    ///   - replace: when true, records missing from the source are removed; otherwise kept.
    ///   - progress: called now and then with the number of records read so far.
    /// - Returns: what the import did.
    func importRecords(
        definition: CatalogDefinition,
        replace: Bool,
        records: (_ add: (Record) throws -> Void) throws -> CatalogDefinition?,
        progress: ((Int) -> Void)?
    ) throws -> ImportSummary

    /// Deletes a catalog and everything in it. Returns false when it did not exist.
    func deleteCatalog(_ id: String) throws -> Bool
}
