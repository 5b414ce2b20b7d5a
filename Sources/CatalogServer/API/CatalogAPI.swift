import CatalogHTTP
import CatalogModel
import CatalogCore
import CatalogStorage

/// The read side of JSON API v1: catalogs, sections, items, search, categories, featured.
///
/// Every route reads through the worker thread's read-only store; parameters are checked here
/// and storage errors a client caused become 400 or 404.
struct CatalogAPI {
    let stores: any CatalogDatabase

    func register(in routes: inout RouterBuilder) {
        let stores = stores
        let maxPage = 500
        routes.get("/api/v1/catalogs") { _, _ in
            JSONResponse.list("catalogs", try stores.reader().catalogs())
        }
        routes.get("/api/v1/catalogs/{id}") { _, context in
            let reader = try stores.reader()
            let catalog = try reader.catalogOr404(context.parameter("id"))
            return try JSONResponse.make(reader.detail(of: catalog))
        }
        routes.get("/api/v1/catalogs/{id}/sections") { _, context in
            let reader = try stores.reader()
            let sections = try StorageErrors.map {
                try reader.sections(of: reader.catalogOr404(context.parameter("id")))
            }
            return JSONResponse.list("sections", sections)
        }
        routes.get("/api/v1/catalogs/{id}/items") { request, context in
            let limit = try request.integer("limit", in: 1...maxPage, default: 50)
            let after = try request.cursor()
            let before = try request.cursor("before")
            let section = try request.text("section", maxLength: 64)
            let reader = try stores.reader()
            let catalog = try reader.catalogOr404(context.parameter("id"))
            let page = try StorageErrors.map {
                if let start = try request.text("start", maxLength: 64) {
                    return try reader.items(of: catalog, startingAt: start, limit: limit)
                }
                return try reader.items(of: catalog, section: section, after: after, before: before, limit: limit)
            }
            return JSONResponse.write(page)
        }
        routes.get("/api/v1/catalogs/{id}/categories/{category}/items") { request, context in
            let limit = try request.integer("limit", in: 1...maxPage, default: 50)
            let after = try request.cursor()
            let before = try request.cursor("before")
            let reader = try stores.reader()
            let catalog = try reader.catalogOr404(context.parameter("id"))
            let page = try StorageErrors.map {
                try reader.items(
                    of: catalog, category: context.parameter("category"), after: after, before: before, limit: limit)
            }
            return JSONResponse.write(page)
        }
        routes.get("/api/v1/catalogs/{id}/items/{item}") { _, context in
            let id = context.parameter("id")
            let itemID = context.parameter("item")
            let reader = try stores.reader()
            let catalog = try reader.catalogOr404(id)
            let record = try StorageErrors.map { try reader.item(of: catalog, id: itemID) }
            guard let record else { throw HTTPError.notFound("catalog \"\(id)\" has no item \"\(itemID)\"") }
            return JSONResponse.write(record)
        }
        routes.get("/api/v1/catalogs/{id}/search") { request, context in
            let search = try SearchParameters.request(from: request)
            let reader = try stores.reader()
            let catalog = try reader.catalogOr404(context.parameter("id"))
            let result = try StorageErrors.map { try reader.search(search, in: catalog) }
            return JSONResponse.write(result)
        }
        routes.get("/api/v1/catalogs/{id}/categories") { _, context in
            let catalog = try stores.reader().catalogOr404(context.parameter("id"))
            return JSONResponse.list("categories", catalog.categories)
        }
        routes.get("/api/v1/catalogs/{id}/featured") { request, context in
            let limit = try request.integer("limit", in: 1...maxPage, default: 50)
            let reader = try stores.reader()
            let catalog = try reader.catalogOr404(context.parameter("id"))
            let items = try StorageErrors.map { try reader.featured(of: catalog, limit: limit) }
            return JSONResponse.list("items", items)
        }
    }
}
