import CatalogHTTP
import CatalogModel
import CatalogSQLite
import CatalogStorage

/// The read side of JSON API v1: catalogs, sections, items, search, categories, featured.
///
/// Every route reads through the worker thread's read-only store; parameters are checked here
/// and storage errors a client caused become 400 or 404.
struct CatalogAPI {
    let stores: StoreProvider

    func register(in routes: inout RouterBuilder) {
        let stores = stores
        routes.get("/api/v1/catalogs") { _, _ in
            JSONResponse.list("catalogs", try stores.reader().catalogs())
        }
        routes.get("/api/v1/catalogs/{id}") { _, context in
            let id = context.parameter("id")
            let (definition, summary) = try stores.reader().requireCatalog(id)
            return try JSONResponse.make(
                CatalogDetail(
                    id: summary.id, title: summary.title, locale: summary.locale, count: summary.count,
                    scopes: definition.scopes.map(\.label), fields: definition.fieldOrder))
        }
        routes.get("/api/v1/catalogs/{id}/sections") { _, context in
            let sections = try StorageErrors.map { try stores.reader().sections(of: context.parameter("id")) }
            return JSONResponse.list("sections", sections)
        }
        routes.get("/api/v1/catalogs/{id}/items") { request, context in
            let limit = try request.integer("limit", in: 1...SQLiteCatalogStore.maxPageSize, default: 50)
            let after = try request.cursor()
            let section = try request.text("section", maxLength: 64)
            let page = try StorageErrors.map {
                try stores.reader().items(of: context.parameter("id"), section: section, after: after, limit: limit)
            }
            return JSONResponse.write(page)
        }
        routes.get("/api/v1/catalogs/{id}/categories/{category}/items") { request, context in
            let limit = try request.integer("limit", in: 1...SQLiteCatalogStore.maxPageSize, default: 50)
            let after = try request.cursor()
            let page = try StorageErrors.map {
                try stores.reader().items(
                    of: context.parameter("id"), category: context.parameter("category"), after: after, limit: limit)
            }
            return JSONResponse.write(page)
        }
        routes.get("/api/v1/catalogs/{id}/items/{item}") { _, context in
            let id = context.parameter("id")
            let itemID = context.parameter("item")
            let record = try StorageErrors.map { try stores.reader().item(of: id, itemID: itemID) }
            guard let record else { throw HTTPError.notFound("catalog \"\(id)\" has no item \"\(itemID)\"") }
            return JSONResponse.write(record)
        }
        routes.get("/api/v1/catalogs/{id}/search") { request, context in
            let query = try request.text("q", maxLength: 200) ?? ""
            let scope = try request.text("scope", maxLength: 200)
            let limit = try request.integer("limit", in: 1...SQLiteCatalogStore.maxSearchLimit, default: 50)
            let response = try StorageErrors.map {
                try stores.reader().search(query, in: context.parameter("id"), scope: scope, limit: limit)
            }
            return JSONResponse.write(response)
        }
        routes.get("/api/v1/catalogs/{id}/categories") { _, context in
            let categories = try StorageErrors.map { try stores.reader().categories(of: context.parameter("id")) }
            return JSONResponse.list("categories", categories)
        }
        routes.get("/api/v1/catalogs/{id}/featured") { request, context in
            let limit = try request.integer("limit", in: 1...SQLiteCatalogStore.maxPageSize, default: 50)
            let items = try StorageErrors.map {
                try stores.reader().featured(of: context.parameter("id"), limit: limit)
            }
            return JSONResponse.list("items", items)
        }
    }
}

/// One catalog with what a client needs to draw its screens.
struct CatalogDetail: Codable {
    var id: String
    var title: String
    var locale: String
    var count: Int
    /// The scope buttons, in order.
    var scopes: [String]
    /// The source's field names in their original order.
    var fields: [String]
}
