import CatalogCore
import CatalogHTTP
import CatalogModel
import CatalogStorage

/// Reads several routes share.
extension CatalogReader {
    /// The catalog named `id`, or a 404 (the one a hidden catalog gets too).
    func catalogOr404(_ id: String) throws -> StoredCatalog {
        guard let catalog = try catalog(id) else { throw CatalogVisibilityGate.notFound(id) }
        return catalog
    }

    /// Up to `limit` records of a category in index order, read page by page.
    func records(of catalog: StoredCatalog, category: String, limit: Int) throws -> [Record] {
        var records: [Record] = []
        var cursor: String?
        repeat {
            let page = try items(of: catalog, category: category, after: cursor, limit: CatalogLimits.maxPageSize)
            records += try page.records()
            cursor = page.next
        } while cursor != nil && records.count < limit
        return Array(records.prefix(limit))
    }
}
