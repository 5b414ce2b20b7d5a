import CatalogHTTP
import CatalogCore
import CatalogModel
import CatalogStorage

/// `/c/{id}`: a catalog's records in index order with sticky section headers and an index rail,
/// or, while searching (`q`, `scope` or `search=1` in the URL), ranked results with scope
/// buttons and highlighted matches. Everything works without JavaScript; the script adds
/// search as you type and loading more rows while scrolling.
struct ListPage {
    /// Rows per page of the plain list.
    static let pageSize = 100
    /// Results per search.
    static let searchLimit = 50

    let store: any CatalogReader
    let catalog: StoredCatalog
    var definition: CatalogDefinition { catalog.definition }
    var summary: CatalogSummary { catalog.summary }
    let session: WebSession
    let tabs: [PageLayout.Tab]

    struct State {
        var query: String
        var scope: String?
        var searching: Bool
        var from: String?
        var after: String?

        /// The plain list: no search, from the start.
        init() {
            query = ""
            scope = nil
            searching = false
        }

        init(_ request: Request) throws {
            query = try request.text("q", maxLength: 200) ?? ""
            scope = try request.text("scope", maxLength: 200)
            searching = !query.isEmpty || scope != nil || request.query("search") == "1"
            from = try request.text("from", maxLength: 64)
            after = try request.cursorParameter()
        }

        /// The query string that brings a detail page's back link here.
        var backQuery: String {
            guard searching else { return "" }
            return WebPaths.query(["q": query.isEmpty ? nil : query, "scope": scope, "search": "1"])
        }
    }

    func render(_ state: State) throws -> Response {
        let strings = WebStrings.forLocale(definition.locale)
        let id = definition.id
        var layout = PageLayout(
            title: definition.title, strings: strings, back: ("/", strings.catalogs), catalogID: id, session: session,
            tabs: tabs)
        layout.here = WebPaths.catalog(id) + state.backQuery
        layout.mainClass = "split"
        let results =
            try state.searching
            ? StorageErrors.map {
                try store.search(
                    SearchRequest(query: state.query, scope: state.scope, limit: Self.searchLimit), in: catalog
                ).response()
            } : nil
        let page = try state.searching ? nil : StorageErrors.map { try listPage(state) }
        let labels = try store.sections(of: catalog).map(\.label)
        let allLabels = catalog.sectionLabels
        return layout.render { html in
            html.open(
                "div",
                [
                    "class": state.searching ? "list searching" : "list", "id": "list", "data-catalog": id,
                    "data-locale": definition.locale, "data-count": String(summary.count),
                    "data-no-results": strings.noResults, "data-results": strings.results,
                    "data-category": strings.category, "data-more": strings.more,
                    "data-pick": strings.pickRecord, "data-pane-label": strings.details,
                ])
            searchForm(state, strings: strings, scopes: results?.scopes, into: &html)
            if let results {
                resultList(results, state: state, strings: strings, into: &html)
            } else if let page {
                // The rail comes first in the focus order: one Tab stop before the rows.
                rail(allLabels, nonEmpty: Set(labels), strings: strings, into: &html)
                sectionList(page, state: state, strings: strings, into: &html)
            }
            html.close("div")
        }
    }

    private func listPage(_ state: State) throws -> ItemsPage {
        let page =
            if let from = state.from, state.after == nil {
                try store.items(of: catalog, startingAt: from, limit: Self.pageSize)
            } else {
                try store.items(of: catalog, after: state.after, limit: Self.pageSize)
            }
        return ItemsPage(items: try page.records(), next: page.next)
    }

    private func searchForm(_ state: State, strings: WebStrings, scopes: [ScopeCount]?, into html: inout HTMLWriter) {
        html.open(
            "form", ["class": "search", "role": "search", "method": "get", "action": WebPaths.catalog(definition.id)])
        html.open("div", ["class": "search-row"])
        html.open("div", ["class": "search-field"])
        html.element("label", ["class": "visually-hidden", "for": "q"], text: strings.search)
        html.element(
            "input",
            [
                "type": "search", "id": "q", "name": "q", "value": state.query, "placeholder": strings.search,
                "autocomplete": "off", "autocapitalize": "off", "spellcheck": "false", "enterkeyhint": "search",
                "maxlength": "200", "aria-controls": "results",
            ])
        html.close("div")
        // The first submit button is the one Enter presses: it keeps the scope (below).
        html.element("button", ["type": "submit", "class": "search-go"], text: strings.search)
        html.element("a", ["class": "search-cancel", "href": WebPaths.catalog(definition.id)], text: strings.cancel)
        html.close("div")
        html.element("input", ["type": "hidden", "name": "search", "value": "1"])
        let scopeDefinitions = store.scopes(of: catalog)
        if scopeDefinitions.count > 1 {
            html.open("div", ["class": "scopes", "role": "group", "aria-label": strings.categories, "id": "scopes"])
            let counts = Dictionary((scopes ?? []).map { ($0.label, $0) }, uniquingKeysWith: { first, _ in first })
            let selected = state.scope ?? scopeDefinitions.first?.label
            for scope in scopeDefinitions {
                html.open(
                    "button",
                    [
                        "type": "submit", "name": "scope", "value": scope.label, "class": "scope",
                        "aria-pressed": scope.label == selected ? "true" : "false",
                    ])
                html.element("span", ["class": "scope-label"], text: scope.label)
                if let count = counts[scope.label] {
                    html.element("span", ["class": "count"], text: String(count.count) + (count.capped ? "+" : ""))
                }
                html.close("button")
            }
            html.close("div")
            // After the buttons: a pressed button's value comes first, Enter keeps this one.
            if let scope = state.scope {
                html.element("input", ["type": "hidden", "name": "scope", "value": scope])
            }
        }
        html.close("form")
    }

    private func resultList(_ results: SearchResponse, state: State, strings: WebStrings, into html: inout HTMLWriter) {
        let total = String(results.total) + (results.totalCapped ? "+" : "")
        html.element(
            "p", ["class": "total", "id": "total", "aria-live": "polite"], text: "\(total) \(strings.results)")
        html.open("ol", ["class": "rows results", "id": "results"])
        for hit in results.items {
            RowView.write(
                hit.record, catalog: definition.id, strings: strings, locale: definition.locale, matches: hit.matches,
                backQuery: state.backQuery, into: &html)
        }
        html.close("ol")
        html.element(
            "p", ["class": "empty", "id": "empty", "hidden": results.items.isEmpty ? nil : ""], text: strings.noResults)
    }

    private func sectionList(_ page: ItemsPage, state: State, strings: WebStrings, into html: inout HTMLWriter) {
        html.open("div", ["class": "sections", "id": "sections"])
        var current: String?
        for record in page.items {
            let label = record.section ?? "#"
            if label != current {
                if current != nil { html.raw("</ol></section>") }
                html.open("section", ["class": "section", "data-label": label, "aria-labelledby": "s-" + label])
                html.element("h2", ["class": "section-header", "id": "s-" + label], text: label)
                html.open("ol", ["class": "rows"])
                current = label
            }
            RowView.write(record, catalog: definition.id, strings: strings, locale: definition.locale, into: &html)
        }
        if current != nil { html.raw("</ol></section>") }
        html.close("div")
        if let next = page.next {
            html.element(
                "a",
                [
                    "class": "more", "id": "more", "rel": "next",
                    "href": WebPaths.catalog(definition.id) + "?after=" + next,
                ],
                text: strings.more)
        }
    }

    private func rail(_ labels: [String], nonEmpty: Set<String>, strings: WebStrings, into html: inout HTMLWriter) {
        html.open("nav", ["class": "rail", "id": "rail", "aria-label": strings.index])
        html.open("ol")
        for label in labels {
            html.open("li")
            html.element(
                "a",
                [
                    "href": WebPaths.catalog(definition.id) + "?from=" + WebPaths.encode(label) + "#s-"
                        + WebPaths.encode(label),
                    "data-label": label, "class": nonEmpty.contains(label) ? nil : "empty-label",
                ], text: label)
            html.close("li")
        }
        html.close("ol")
        html.close("nav")
    }
}

extension Request {
    /// The `after` cursor of a page link.
    func cursorParameter() throws -> String? {
        guard let value = query("after"), !value.isEmpty else { return nil }
        guard value.utf8.count <= 4096 else { throw HTTPError.badParameter("'after' is not a cursor") }
        return value
    }
}
