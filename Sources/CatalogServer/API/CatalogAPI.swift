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
    /// Whose request it is: the catalog list holds only the catalogs they may see; an API key
    /// limits the catalogs listed and, with a record filter, the records of every answer
    /// (``FilteredCatalogReader``; search narrows its request instead).
    let authentication: RequestAuthentication
    /// Where searches are counted; nil: nowhere.
    var metrics: CatalogMetrics?

    func register(in routes: inout RouterBuilder) {
        let stores = stores
        let metrics = metrics
        let authentication = authentication
        routes.get("/api/v1/catalogs") { request, _ in
            // Every request reads its credentials, so that the list's work does not depend on
            // which catalogs exist; a list made for a signed-in reader is theirs alone.
            let reader = try authentication.reader(request)
            let policy = try authentication.policy(for: reader)
            let key = reader == nil ? nil : try authentication.key(for: request)
            let filter = try authentication.recordFilter(for: request)
            // With a record filter, each catalog listed counts the records the filter passes.
            let catalogs = try stores.read { reader in
                let narrowed = filter.map { FilteredCatalogReader(reader, filter: $0) }
                return try reader.catalogs().filter { policy.sees($0) && (key?.covers(catalog: $0.id) ?? true) }.map {
                    summary in
                    guard let narrowed else { return summary }
                    var counted = summary
                    counted.count = try narrowed.catalog(summary.id)?.summary.count ?? 0
                    return counted
                }
            }
            var response = JSONResponse.list("catalogs", catalogs)
            if reader != nil { CatalogVisibilityGate.keepPrivate(&response) }
            return response
        }
        routes.get("/api/v1/catalogs/{id}") { request, context in
            return try stores.read(narrowedBy: authentication.recordFilter(for: request)) { reader in
                let catalog = try reader.catalogOr404(context.require("id", as: String.self))
                // A strong ETag of the revision, which `If-Match` of a change names.
                var response = try JSONResponse.make(reader.detail(of: catalog))
                response.headers["ETag"] = CatalogManagementAPI.etag(catalog.revision)
                return response
            }
        }
        routes.get("/api/v1/catalogs/{id}/sections") { request, context in
            return try stores.read(narrowedBy: authentication.recordFilter(for: request)) { reader in
                let sections = try reader.sections(of: reader.catalogOr404(context.require("id", as: String.self)))
                return JSONResponse.list("sections", sections)
            }
        }
        routes.get("/api/v1/catalogs/{id}/outline") { request, context in
            return try stores.read(narrowedBy: authentication.recordFilter(for: request)) { reader in
                let catalog = try reader.catalogOr404(context.require("id", as: String.self))
                let outline = try reader.outline(of: catalog)
                return JSONResponse.write(OutlineAnswer(outline: outline, labels: catalog.sectionLabels))
            }
        }
        routes.get("/api/v1/catalogs/{id}/categories/{category}/outline") { request, context in
            return try stores.read(narrowedBy: authentication.recordFilter(for: request)) { reader in
                let catalog = try reader.catalogOr404(context.require("id", as: String.self))
                let number = try catalog.categoryNumber(context.require("category", as: String.self))
                let outline = try reader.outline(of: catalog, category: number)
                return JSONResponse.write(OutlineAnswer(outline: outline, labels: catalog.sectionLabels))
            }
        }
        routes.get("/api/v1/catalogs/{id}/items") { request, context in
            let limit = try request.pageLimit()
            let after = try request.cursor()
            let before = try request.cursor("before")
            let section = try request.text("section", maxLength: 64)
            return try stores.read(narrowedBy: authentication.recordFilter(for: request)) { reader in
                let catalog = try reader.catalogOr404(context.require("id", as: String.self))
                if let page = try Self.positionedPage(
                    request, reader: reader, catalog: catalog, category: nil, limit: limit)
                {
                    return JSONResponse.write(page)
                }
                if let start = try request.text("start", maxLength: 64) {
                    return JSONResponse.write(try reader.items(of: catalog, startingAt: start, limit: limit))
                }
                return JSONResponse.write(
                    try reader.items(of: catalog, section: section, after: after, before: before, limit: limit))
            }
        }
        routes.get("/api/v1/catalogs/{id}/categories/{category}/items") { request, context in
            let limit = try request.pageLimit()
            let after = try request.cursor()
            let before = try request.cursor("before")
            return try stores.read(narrowedBy: authentication.recordFilter(for: request)) { reader in
                let catalog = try reader.catalogOr404(context.require("id", as: String.self))
                let number = try catalog.categoryNumber(context.require("category", as: String.self))
                if let page = try Self.positionedPage(
                    request, reader: reader, catalog: catalog, category: number, limit: limit)
                {
                    return JSONResponse.write(page)
                }
                let page = try reader.items(
                    of: catalog, category: try context.require("category", as: String.self), after: after,
                    before: before, limit: limit)
                return JSONResponse.write(page)
            }
        }
        routes.get("/api/v1/catalogs/{id}/items/{item}") { request, context in
            let id = try context.require("id", as: String.self)
            let itemID = try context.require("item", as: String.self)
            // Outside a key's record filter an item does not exist for the key.
            return try stores.read(narrowedBy: authentication.recordFilter(for: request)) { reader in
                let catalog = try reader.catalogOr404(id)
                guard let record = try reader.item(of: catalog, id: itemID) else {
                    throw HTTPError.notFound("catalog \"\(id)\" has no item \"\(itemID)\"")
                }
                var response = JSONResponse.write(record)
                // The record's own strong validator, the one `If-Match` of a change compares.
                response.headers["ETag"] = CatalogEditor.etag(of: record.json)
                response.headers[RecordsAPI.changeHeader] = String(catalog.change)
                return response
            }
        }
        routes.get("/api/v1/catalogs/{id}/search") { request, context in
            let search = try SearchParameters.request(
                from: request, narrowedBy: authentication.recordFilter(for: request))
            let start = ContinuousClock.now
            return try stores.read { reader in
                let catalog = try reader.catalogOr404(context.require("id", as: String.self))
                let result = try reader.search(search, in: catalog)
                metrics?.searched(catalog.id, hits: result.total, elapsed: ContinuousClock.now - start)
                return JSONResponse.write(result)
            }
        }
        // A search inside one facet's values (a long list of them): the values that start with
        // `q`, counted among the matches of `search` (the search the list belongs to) under the
        // scope and filters, as `facets=` counts them.
        routes.get("/api/v1/catalogs/{id}/facets/{field}") { request, context in
            let search = try SearchParameters.request(
                from: request, narrowedBy: authentication.recordFilter(for: request))
            let text = try request.text("search", maxLength: CatalogLimits.maxTextLength) ?? ""
            let field = try context.require("field", as: String.self)
            guard let facet = SearchFacet(rawValue: field) else {
                throw HTTPError.badParameter("the field \"\(field.prefix(40))\" cannot be a facet")
            }
            return try stores.read { reader in
                let catalog = try reader.catalogOr404(context.require("id", as: String.self))
                let values = try reader.facetValues(
                    of: facet, search, matching: text, limit: search.limit, in: catalog)
                return try JSONResponse.make(FacetValues(field: field, values: values))
            }
        }
        routes.get("/api/v1/catalogs/{id}/categories") { request, context in
            let catalog = try stores.read(narrowedBy: authentication.recordFilter(for: request)) {
                try $0.catalogOr404(context.require("id", as: String.self))
            }
            return JSONResponse.list("categories", catalog.categories)
        }
        routes.get("/api/v1/catalogs/{id}/featured") { request, context in
            let limit = try request.featuredLimit()
            return try stores.read(narrowedBy: authentication.recordFilter(for: request)) { reader in
                let catalog = try reader.catalogOr404(context.require("id", as: String.self))
                let items = try reader.featured(of: catalog, limit: limit)
                return JSONResponse.list("items", items)
            }
        }
    }
}

extension CatalogAPI {
    /// The page a request asks for by `position=N` (rows from the N-th on) or `at=CURSOR` (rows
    /// from the cursor's place on), or nil when it asks for neither.
    static func positionedPage(
        _ request: Request, reader: any CatalogReader, catalog: StoredCatalog, category: Int?, limit: Int
    ) throws -> PositionedPage? {
        let at = try request.cursor("at")
        let given: Int? =
            request.query("position") == nil
            ? nil : try request.integer("position", in: 0...Int(Int32.max), default: 0)
        guard at != nil || given != nil else { return nil }
        // `at` wins over `position`, both over keyset paging, whose values are still checked.
        for name in ["after", "before"] {
            if let cursor = try request.cursor(name) { _ = try BrowseCursor.decode(cursor) }
        }
        _ = try request.text("start", maxLength: 64)
        var position = given ?? 0
        if let at { position = try reader.place(of: catalog, category: category, cursor: at).position }
        return try reader.items(of: catalog, category: category, position: position, limit: limit)
    }
}

extension StoredCatalog {
    /// The number of the category named `name`, or a 404.
    func categoryNumber(_ name: String) throws -> Int {
        guard let number = categories.first(where: { $0.name == name })?.id else {
            throw HTTPError.notFound("catalog \"\(id)\" has no category \"\(name.prefix(80))\"")
        }
        return number
    }
}

/// `{"count","labels":[…],"sections":[{"label","start","count"}]}`: what a client needs to lay a
/// whole list out and jump anywhere in it.
struct OutlineAnswer: JSONWritable {
    let outline: ListOutline
    let labels: [String]

    func write(to output: inout JSONOutput) {
        output.object { object in
            object.integer("count", outline.count)
            object.strings("labels", labels)
            object.member("sections") { output in
                output.array(outline.sections) { output, section in
                    output.object { object in
                        object.integer("count", section.count)
                        object.string("label", section.label)
                        object.integer("start", section.start)
                    }
                }
            }
        }
    }
}

extension PositionedPage: JSONWritable {
    /// `{"count","cursors":[…],"items":[…],"next","position","previous"}`.
    public func write(to output: inout JSONOutput) {
        output.object { object in
            object.integer("count", count)
            object.strings("cursors", cursors)
            object.array("items", items)
            object.string("next", next)
            object.integer("position", position)
            object.string("previous", previous)
        }
    }
}

/// The answer of `GET /api/v1/catalogs/{id}/facets/{field}`: `{"field","values":[{"value","count","capped"}]}`.
struct FacetValues: Encodable {
    var field: String
    var values: [FacetCount]
}
