import CatalogCore
import CatalogHTTP
import CatalogModel
import CatalogStorage

/// `/c/{id}/rows` and `/c/{id}/categories/{n}/rows`: rows for the page's script, as HTML drawn
/// by ``RowView`` like every other row, so the server is the one place that turns a record into
/// a row and the script only places, fetches and reacts. One of three kinds, by the query:
///
/// - `position=N&limit=L`: the rows at positions N… of the list in index order (the windowed
///   list scrolling); or `at=CURSOR&back=B&limit=L`: from B rows before the place of a row's
///   cursor (the list after a change keeps that row where it was on screen); `outline=1` adds
///   the list's outline (`data-outline`, as the API's `/outline` writes it);
/// - a search (``ListState``'s parameters, `after=` for a later page): the results, with the
///   total, the scope and facet counts and the filter button's words for a first page;
/// - `item=ID` (repeatable): those records' rows in that order, missing ones left out (the
///   favorites a browser keeps without an account).
///
/// `thumbs=1` or `thumbs=0` keeps the list's choice of picture column across fetches; `via=`
/// (items only) is where the detail links return.
///
/// ```html
/// <div class="rows-fragment" data-kind="search" data-total="12" data-next="…">
///   <p data-part="total">12 results</p>
///   <ol data-part="rows"><li class="row" data-id="…">…</li>…</ol>
///   …
/// </div>
/// ```
struct RowsFragment {
    /// What the route's path ends with, after the list's own path.
    static let suffix = "/rows"
    /// At most this many `item=` values in one request.
    static let maxItems = 100

    let store: any CatalogReader
    let catalog: StoredCatalog
    /// The category whose list asks, or nil for the whole catalog.
    var category: CategoryCount?

    var definition: CatalogDefinition { catalog.definition }
    var strings: WebStrings { WebStrings.forLocale(definition.locale) }

    /// The record fields rows carry for the offline search (``OfflineFacts``), as the list page's do.
    private func offlineFields(sheet: [FilterPanel.SheetField]? = nil) throws -> [String] {
        OfflineFacts.fields(
            sheet: try sheet ?? FilterPanel.sheetFields(try store.fields(of: catalog)),
            sortable: try store.sortableFields(of: catalog))
    }

    func render(_ request: Request) throws -> Response {
        let items = try request.texts("item", maxLength: 512, maxCount: Self.maxItems)
        let state = try ListState(request)
        let thumbs: Bool?
        switch request.query("thumbs") {
        case nil: thumbs = nil
        case "1": thumbs = true
        case "0": thumbs = false
        default: throw HTTPError.badParameter("'thumbs' must be 0 or 1")
        }
        var html = HTMLWriter()
        if !items.isEmpty {
            let via = request.query("via").flatMap(DetailPage.Origin.validVia)
            try itemRows(items, thumbs: thumbs, via: via, into: &html)
        } else if state.searching {
            try searchRows(state, thumbs: thumbs, into: &html)
        } else {
            var position = try request.integer("position", in: 0...Int(Int32.max), default: 0)
            let limit = try request.integer("limit", in: 1...ListPage.pageSize, default: ListPage.pageSize)
            var anchor: Int?
            if let at = state.at {
                // The list after a change: the rows around the one that was first on screen,
                // wherever the change moved it.
                let back = try request.integer("back", in: 0...ListPage.pageSize, default: 0)
                let place = try store.place(of: catalog, category: category?.id, cursor: at).position
                anchor = place
                position = max(0, place - back)
            }
            let outline: Bool
            switch request.query("outline") {
            case nil, "0": outline = false
            case "1": outline = true
            default: throw HTTPError.badParameter("'outline' must be 0 or 1")
            }
            try positionRows(
                position: position, limit: limit, anchor: anchor, outline: outline, thumbs: thumbs, into: &html)
        }
        var response = Response.text(html.output, contentType: "text/html; charset=utf-8")
        // The same rows for everyone: nothing personal is drawn into them.
        WebHeaders.apply(to: &response, signedIn: false)
        return response
    }

    /// Rows by position, each with its cursor (the place the URL keeps); with `outline`, the
    /// list's outline read in the same snapshot (the list laid out again after a change), and
    /// the position of the `at=` cursor's row as `data-anchor`.
    private func positionRows(
        position: Int, limit: Int, anchor: Int?, outline: Bool, thumbs: Bool?, into html: inout HTMLWriter
    ) throws {
        let page = try store.items(of: catalog, category: category?.id, position: position, limit: limit)
        let records = try page.records()
        let context = RowView.Context(
            definition: definition, strings: strings, thumbnails: thumbs ?? records.contains { $0.image != nil },
            backQuery: WebPaths.query([("at", page.cursors.first), ("via", ListPage.via(category))]),
            offlineFields: try offlineFields())
        let outlineJSON =
            try outline
            ? String(
                decoding: OutlineAnswer(
                    outline: store.outline(of: catalog, category: category?.id), labels: catalog.sectionLabels
                ).jsonBytes, as: UTF8.self) : nil
        html.open(
            "div",
            [
                "class": "rows-fragment", "data-kind": "positions", "data-position": String(page.position),
                "data-count": String(page.count), "data-anchor": anchor.map(String.init), "data-outline": outlineJSON,
                "data-change": String(catalog.change),
            ])
        html.open("ol", ["data-part": "rows"])
        for (offset, record) in records.enumerated() {
            RowView.write(
                record, context: context, cursor: page.cursors[offset], position: page.position + offset,
                into: &html)
        }
        html.close("ol")
        html.close("div")
    }

    /// A page of results; a first page also brings what the search changes around the rows.
    private func searchRows(_ state: ListState, thumbs: Bool?, into html: inout HTMLWriter) throws {
        let strings = strings
        let sheetFields = FilterPanel.sheetFields(try store.fields(of: catalog))
        let request = try state.searchRequest(within: category?.name, limit: ListPage.searchLimit, sheet: sheetFields)
        let response = try store.search(request, in: catalog).response()
        let thumbnails = thumbs ?? response.items.contains { $0.record.image != nil }
        let context = RowView.Context(
            definition: definition, strings: strings, thumbnails: thumbnails,
            backQuery: WebPaths.query(state.searchPairs + [("via", ListPage.via(category))]),
            offlineFields: try offlineFields(sheet: sheetFields))
        html.open(
            "div",
            [
                "class": "rows-fragment", "data-kind": "search", "data-total": String(response.total),
                "data-capped": response.totalCapped ? "" : nil, "data-next": response.next,
                "data-thumbs": thumbnails ? "1" : "0",
                "data-change": String(catalog.change),
            ])
        html.element("p", ["data-part": "total"], text: ListPage.total(response, strings: strings))
        html.open("ol", ["data-part": "rows"])
        for (index, hit) in response.items.enumerated() {
            RowView.write(
                hit.record, context: context, matches: hit.matches, snippet: hit.snippet, typo: hit.typo,
                position: index, into: &html)
        }
        html.close("ol")
        if state.after == nil {
            ListPage.scopeButtons(
                store.scopes(of: catalog), counts: response.scopes, state: state, category: category,
                strings: strings, into: &html)
            html.element(
                "span", ["data-part": "filter-toggle", "data-count": String(state.filterCount)],
                text: ListPage.filterLabel(state, strings: strings))
            html.element("span", ["data-part": "show-results"], text: strings.plural(.showResults, response.total))
            let base = ListPage.base(definition, category: category)
            ListPage.emptyState(
                state, hidden: !response.items.isEmpty, base: base, firstScope: store.scopes(of: catalog).first?.label,
                suggestion: response.suggestion, strings: strings, into: &html)
            html.open("div", ["data-part": "facets"])
            FilterPanel(
                definition: definition, strings: strings, state: state, category: category?.name, base: base,
                scopes: store.scopes(of: catalog), fields: sheetFields
            )
            .writeFacets(response.facets ?? [:], into: &html)
            html.close("div")
        }
        html.close("div")
    }

    /// The rows of the records named, in that order.
    private func itemRows(_ ids: [String], thumbs: Bool?, via: String?, into html: inout HTMLWriter) throws {
        let records = try ids.compactMap { try store.item(of: catalog, id: $0)?.record() }
        let context = RowView.Context(
            definition: definition, strings: strings, thumbnails: thumbs ?? records.contains { $0.image != nil },
            backQuery: DetailPage.Origin(via: via).query, offlineFields: try offlineFields())
        html.open("div", ["class": "rows-fragment", "data-kind": "items"])
        html.open("ol", ["data-part": "rows"])
        for (index, record) in records.enumerated() {
            RowView.write(record, context: context, position: index, into: &html)
        }
        html.close("ol")
        html.close("div")
    }
}
