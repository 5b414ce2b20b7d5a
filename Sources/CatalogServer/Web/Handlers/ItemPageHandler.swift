import CatalogCore
import CatalogHTTP
import CatalogModel
import CatalogStorage

/// A record's page, and its favorite button.
struct ItemPageHandler: WebHandler {
    let web: WebRoutes

    /// `GET /c/{id}/i/{item}`.
    func item(_ request: Request, _ context: RequestContext) throws -> Response {
        return try stores.read { store in
            let catalog = try store.catalogOr404(context.require("id", as: String.self))
            let definition = catalog.definition
            guard let record = try store.item(of: catalog, id: context.require("item", as: String.self))?.record()
            else {
                throw HTTPError.notFound("no such record")
            }
            let session = try session(request, context)
            let isFavorite =
                try session.user.map { user in
                    try stores.users().favorites(ofUser: user.id).contains {
                        $0.catalog == definition.id && $0.item == record.id
                    }
                } ?? false
            let origin = try DetailPage.Origin(request)
            let strings = WebStrings.forLocale(definition.locale)
            var back = (href: WebPaths.catalog(definition.id) + origin.list.backQuery, label: definition.title)
            switch origin.via {
            case "hot": back = (WebPaths.catalog(definition.id) + "/hot", strings[.hot])
            case "favorites": back = (WebPaths.catalog(definition.id) + "/favorites", strings[.favorites])
            case "categories": back = (WebPaths.catalog(definition.id) + "/categories", strings[.categories])
            default:
                if let number = origin.category, let category = catalog.categories.first(where: { $0.id == number }) {
                    back = (WebPaths.category(definition.id, number) + origin.list.backQuery, category.name)
                }
            }
            return DetailPage(
                definition: definition, record: record, session: session, isFavorite: isFavorite,
                tabs: CollectionPages.tabs(for: definition, strings: strings, selected: origin.tab), origin: origin,
                back: back, url: web.baseURL.resolve(for: request) + WebPaths.item(definition.id, record.id),
                change: catalog.change,
                canEdit: try session.policy(stores: stores).allows(.editRecords, catalog: definition.id)
            ).render()
        }
    }

    /// `POST /c/{id}/i/{item}/favorite`: the favorite button, a form (303 back to the page, for
    /// browsers without the script) or, from the script, a fetch that is answered 204, so no
    /// history entry is added.
    func favorite(_ request: Request, _ context: RequestContext) throws -> Response {
        let fields = try WebSession.formFields(request)
        let session = try session(request, context)
        try session.checkForm(request, fields: fields)
        let id = try context.require("id", as: String.self)
        let item = try context.require("item", as: String.self)
        let here = WebPaths.item(id, item) + (try DetailPage.Origin(request)).query
        let fromScript = request.headers["Accept"]?.contains("application/json") == true
        guard let user = session.user else {
            if fromScript { throw HTTPError(.unauthorized, code: "unauthorized", "sign in first") }
            return WebRoutes.redirect("/signin?next=" + WebPaths.encode(here))
        }
        // The catalog read ends before the account is written: no snapshot is held over a write.
        let exists = try stores.read { reader in try reader.item(of: reader.catalogOr404(id), id: item) != nil }
        guard exists else { throw HTTPError.notFound("no such record") }
        let users = try stores.users()
        _ =
            fields["favorite"] == "0"
            ? try users.removeFavorite(userID: user.id, catalog: id, item: item)
            : try users.addFavorite(userID: user.id, catalog: id, item: item)
        return fromScript ? Response(status: .noContent) : WebRoutes.redirect(here)
    }
}
