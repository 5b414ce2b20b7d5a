import CatalogCore
import CatalogHTTP
import CatalogModel
import CatalogStorage

/// A catalog's list pages, where searching happens too (`?q=`, filters): the whole catalog and one
/// category, and the rows their script fetches (drawn by the same RowView as the pages' rows).
struct CatalogPageHandler: WebHandler {
    let web: WebRoutes

    /// `GET /c/{id}`.
    func catalog(_ request: Request, _ context: RequestContext) throws -> Response {
        return try stores.read { store in
            let catalog = try store.catalogOr404(context.require("id", as: String.self))
            let strings = WebStrings.forLocale(catalog.definition.locale)
            let session = try session(request, context)
            let policy = try session.policy(stores: stores)
            var page = ListPage(
                store: store, catalog: catalog, session: session,
                tabs: CollectionPages.tabs(for: catalog.definition, strings: strings, selected: "all"),
                canEdit: policy.allows(.editRecords, catalog: catalog.id))
            page.canManage = policy.allows(.manageCatalog, catalog: catalog.id)
            return try page.render(try ListState(request))
        }
    }

    /// `GET /c/{id}/rows`.
    func catalogRows(_ request: Request, _ context: RequestContext) throws -> Response {
        return try stores.read { store in
            return try RowsFragment(
                store: store, catalog: try store.catalogOr404(context.require("id", as: String.self))
            )
            .render(request)
        }
    }

    /// `GET /c/{id}/categories/{category}`.
    func category(_ request: Request, _ context: RequestContext) throws -> Response {
        return try stores.read { store in
            let catalog = try store.catalogOr404(context.require("id", as: String.self))
            let strings = WebStrings.forLocale(catalog.definition.locale)
            guard let number = context.parameter("category", as: Int.self),
                let category = catalog.categories.first(where: { $0.id == number })
            else { throw HTTPError.notFound("no such category") }
            let session = try session(request, context)
            let page = ListPage(
                store: store, catalog: catalog, session: session,
                tabs: CollectionPages.tabs(for: catalog.definition, strings: strings, selected: "categories"),
                category: category,
                canEdit: try session.policy(stores: stores).allows(.editRecords, catalog: catalog.id))
            return try page.render(try ListState(request))
        }
    }

    /// `GET /c/{id}/categories/{category}/rows`.
    func categoryRows(_ request: Request, _ context: RequestContext) throws -> Response {
        return try stores.read { store in
            let catalog = try store.catalogOr404(context.require("id", as: String.self))
            guard let number = context.parameter("category", as: Int.self),
                let category = catalog.categories.first(where: { $0.id == number })
            else { throw HTTPError.notFound("no such category") }
            return try RowsFragment(store: store, catalog: catalog, category: category).render(request)
        }
    }
}
