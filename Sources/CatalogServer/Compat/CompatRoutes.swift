import CatalogHTTP
import CatalogModel
import CatalogCore
import CatalogStorage

/// The original apps' endpoints, answering exactly as their clients expect.
///
/// - The cookbook's four GET endpoints at the server root, for the catalog named by
///   `--compat-catalog`: `/gethots`, `/getcategories`, `/getrecipesbycategory?catid=ID`,
///   `/getrecipe?recid=ID`. Recipes carry `recid`, `title`, `subtitle`, `description`,
///   `complexity` and `imageurl`; categories `catid`, `name` and `imageurl`. Missing texts are
///   empty strings (old clients read every key as a string); image URLs are absolute.
/// - `/catalogs/{id}/feed.xml`: any catalog as XML in its own record shape (the sequencers'
///   feed is the original `<sequenzer>` format).
struct CompatRoutes {
    let stores: any CatalogDatabase
    let catalog: String
    let baseURL: BaseURL

    /// The cookbook's endpoints, which answer for the configured catalog without naming it: the
    /// visibility gate checks that catalog for them (``CatalogVisibilityGate/fixedCatalogs``).
    static let cookbookEndpoints = ["/gethots", "/getcategories", "/getrecipesbycategory", "/getrecipe"]

    /// Recipes listed for one category at most (the original listed all; this bounds a response).
    static let categoryLimit = 10_000

    func register(in routes: inout RouterBuilder) {
        let stores = stores
        let catalog = catalog
        let baseURL = baseURL
        routes.get("/gethots") { request, _ in
            return try stores.read { reader in
                let hot = try reader.featured(of: reader.catalogOr404(catalog), limit: CatalogLimits.maxFeatured)
                let records = try hot.map { try $0.record() }
                let base = baseURL.resolve(for: request)
                return try JSONResponse.make(records.map { CompatRecipe($0, base: base) })
            }
        }
        routes.get("/getcategories") { request, _ in
            let categories = try stores.read { try $0.catalogOr404(catalog).categories }
            let base = baseURL.resolve(for: request)
            return try JSONResponse.make(
                categories.map {
                    CompatCategory(catid: $0.id, name: $0.name, imageurl: BaseURL.absolute($0.image, base: base))
                })
        }
        routes.get("/getrecipesbycategory") { request, _ in
            let text = try request.requiredText("catid", maxLength: 20)
            guard let catid = Int(text) else { throw HTTPError.badParameter("'catid' must be a whole number") }
            return try stores.read { reader in
                let stored = try reader.catalogOr404(catalog)
                guard let category = stored.categories.first(where: { $0.id == catid }) else {
                    throw HTTPError.notFound("no category with catid \(catid)")
                }
                let records = try reader.records(of: stored, category: category.name, limit: Self.categoryLimit)
                let base = baseURL.resolve(for: request)
                return try JSONResponse.make(records.map { CompatRecipe($0, base: base) })
            }
        }
        routes.get("/getrecipe") { request, _ in
            let recid = try request.requiredText("recid", maxLength: 200)
            return try stores.read { reader in
                let record = try reader.item(of: reader.catalogOr404(catalog), id: recid)?.record()
                guard let record else { throw HTTPError.notFound("no recipe with recid \"\(recid)\"") }
                return try JSONResponse.make(CompatRecipe(record, base: baseURL.resolve(for: request)))
            }
        }
        routes.get("/catalogs/{id}/feed.xml") { _, context in
            let id = try context.require("id", as: String.self)
            guard let definition = try stores.read({ try $0.catalog(id)?.definition }) else {
                throw CatalogVisibilityGate.notFound(id)
            }
            return Response(
                status: .ok, headers: HTTPHeaders([("Content-Type", "application/xml; charset=utf-8")])
            ) {
                FeedStream(database: stores, definition: definition)
            }
        }
    }
}

extension CompatRecipe {
    /// The recipe of a record, image URL made absolute against `base`.
    init(_ record: Record, base: String) {
        self.init(
            recid: record.id, title: record.title, subtitle: record.subtitle ?? "",
            description: record.description ?? "", complexity: record.fields["complexity"]?.joined ?? "",
            imageurl: BaseURL.absolute(record.image, base: base))
    }
}
