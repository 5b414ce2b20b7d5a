import CatalogCore
import CatalogHTTP
import CatalogModel
import CatalogStorage

/// The catalog list (`/`): every catalog the visitor may see (a signed-in member sees their
/// members catalogs too), in the browser's language, and one search across them (`/search`).
struct HomeHandler: WebHandler {
    let web: WebRoutes

    /// `GET /`.
    func home(_ request: Request, _ context: RequestContext) throws -> Response {
        let session = try session(request, context)
        let policy = try session.policy(stores: stores)
        let canCreate = policy.allows(.createCatalog, catalog: nil)
        // After a deletion the settings page comes here with the id, which the page names.
        let deleted = request.query("deleted").flatMap { CatalogDefinition.isValidID($0) ? $0 : nil }
        return try stores.read { store in
            let catalogs = try store.catalogs().filter(policy.sees)
            var page = HomePage(
                catalogs: catalogs, session: session,
                strings: WebStrings.negotiate(request.headers["Accept-Language"]), canCreate: canCreate,
                deleted: deleted)
            page.covers = covers(of: catalogs, in: store)
            return page.render()
        }
    }

    /// The pictures of `catalogs` by id (``CatalogCovers``, kept per catalog version). A catalog
    /// whose records cannot be read (deleted meanwhile, damaged) has none rather than no page.
    private func covers(of catalogs: [CatalogSummary], in store: any CatalogReader) -> [String: String] {
        var covers: [String: String] = [:]
        for summary in catalogs {
            guard let catalog = try? store.catalog(summary.id),
                let image = try? web.covers.image(of: catalog, in: store)
            else { continue }
            covers[summary.id] = image
        }
        return covers
    }

    /// `GET /search?q=`: a search across every catalog (``HomeSearch``); with `fragment=1` the
    /// results alone, for the home page's script.
    func search(_ request: Request, _ context: RequestContext) throws -> Response {
        let session = try session(request, context)
        let policy = try session.policy(stores: stores)
        let query = try request.text("q", maxLength: CatalogLimits.maxTextLength) ?? ""
        let strings = WebStrings.negotiate(request.headers["Accept-Language"])
        let fragment: Bool
        switch request.query("fragment") {
        case nil, "0": fragment = false
        case "1": fragment = true
        default: throw HTTPError.badParameter("'fragment' must be 0 or 1")
        }
        return try stores.read { store in
            // Only the catalogs the visitor may see are searched (or named).
            let catalogs = try store.catalogs().filter(policy.sees)
            let search = try HomeSearch.run(query, in: catalogs, store: store)
            guard !fragment else {
                var html = HTMLWriter()
                search.writeGroups(strings: strings, into: &html)
                var response = Response.text(html.output, contentType: "text/html; charset=utf-8")
                // Which catalogs a visitor may see depends on who they are.
                WebHeaders.apply(to: &response, signedIn: session.user != nil)
                return response
            }
            var page = HomePage(catalogs: catalogs, session: session, strings: strings)
            page.covers = covers(of: catalogs, in: store)
            page.search = search
            return page.render()
        }
    }
}
