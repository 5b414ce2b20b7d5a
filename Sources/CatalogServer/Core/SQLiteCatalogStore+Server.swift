import CatalogHTTP
import CatalogModel
import CatalogSQLite

/// Reads several routes share.
extension SQLiteCatalogStore {
    /// A catalog's definition and its summary (title, locale, count), or 404.
    func requireCatalog(_ id: String) throws -> (definition: CatalogDefinition, summary: CatalogSummary) {
        guard let definition = try definition(of: id), let summary = try catalogs().first(where: { $0.id == id }) else {
            throw HTTPError.notFound("no catalog named \"\(id)\"")
        }
        return (definition, summary)
    }

    /// Up to `limit` records of a category in index order, read page by page.
    func records(of id: String, category: String, limit: Int) throws -> [Record] {
        var records: [Record] = []
        var cursor: String?
        repeat {
            let page = try items(of: id, category: category, after: cursor, limit: Self.maxPageSize)
            records += page.items
            cursor = page.next
        } while cursor != nil && records.count < limit
        return Array(records.prefix(limit))
    }
}
