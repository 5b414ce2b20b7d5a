import CatalogCore
import CatalogHTTP
import CatalogJSON
import CatalogModel
import CatalogStorage

/// `/c/{id}` and `/c/{id}/categories/{n}`: a catalog's (or one category's) records in index order
/// with section headers and an index rail (or one flat list), or, while searching, ranked results
/// with scope buttons, filters, facets, sort and highlighted matches. Everything works without
/// JavaScript (a page of rows with links to the rows before and after it); the script turns the
/// rows into one windowed list over the whole catalog.
struct ListPage {
    /// Rows per page.
    static let pageSize = 100
    /// Results per search page: the API's default.
    static let searchLimit = CatalogLimits.defaultSearchLimit

    let store: any CatalogReader
    let catalog: StoredCatalog
    let session: WebSession
    let tabs: [PageLayout.Tab]
    /// The category whose records the page lists, or nil for the whole catalog.
    var category: CategoryCount?
    /// Whether the visitor may change the catalog's records (``AccessPolicy``): the page links
    /// to a new record's editor, and the pane to the record's.
    var canEdit = false
    /// Whether the visitor may change the catalog's settings (``AccessPolicy``, owners): the
    /// page links to them.
    var canManage = false

    var definition: CatalogDefinition { catalog.definition }
    var strings: WebStrings { WebStrings.forLocale(definition.locale) }
    /// The page's own path.
    var base: String { Self.base(definition, category: category) }
    /// The detail links' `via=` (a category page's back link returns to it).
    var via: String? { Self.via(category) }

    /// The path of a catalog's list, or of one category's.
    static func base(_ definition: CatalogDefinition, category: CategoryCount?) -> String {
        category.map { WebPaths.category(definition.id, $0.id) } ?? WebPaths.catalog(definition.id)
    }

    /// The `via=` of a list's detail links.
    static func via(_ category: CategoryCount?) -> String? { category.map { "categories/\($0.id)" } }

    func render(_ state: ListState) throws -> Response {
        let strings = strings
        let id = definition.id
        let opened = try state.open.flatMap { try store.item(of: catalog, id: $0)?.record() }
        if state.open != nil, opened == nil { throw HTTPError.notFound("no such record") }
        var back: (href: String, label: String) = ("/", strings[.catalogs])
        if category != nil { back = (WebPaths.catalog(id) + "/categories", strings[.categories]) }
        var layout = PageLayout(
            title: opened?.title ?? category?.name ?? definition.title, strings: strings, back: back,
            catalog: definition, session: session, tabs: tabs)
        layout.here = base + state.backQuery
        layout.mainClass = opened == nil ? "split" : "split has-open"
        layout.change = catalog.change
        let content: Content
        let sheetFields = FilterPanel.sheetFields(try store.fields(of: catalog))
        if state.searching {
            let response = try store.search(
                state.searchRequest(within: category?.name, limit: Self.searchLimit, sheet: sheetFields), in: catalog
            ).response()
            content = .results(response)
        } else {
            let rows = try browseRows(state)
            content = .rows(rows)
        }
        let sortableFields = try store.sortableFields(of: catalog)
        let offlineFields = OfflineFacts.fields(sheet: sheetFields, sortable: sortableFields)
        return layout.render { html in
            html.open(
                "div",
                [
                    "class": state.searching ? "list searching" : "list", "id": "list", "data-catalog": id,
                    "data-locale": definition.locale, "data-base": base, "data-via": via,
                    "data-category": category?.name, "data-rows": base + RowsFragment.suffix,
                    "data-title": layout.catalog?.title, "data-bar-title": category?.name ?? definition.title,
                ])
            searchForm(state, scopes: content.scopes, into: &html)
            // The filters are there while browsing too, for a search the script starts.
            let filters = FilterPanel(
                definition: definition, strings: strings, state: state, category: category?.name, base: base,
                scopes: store.scopes(of: catalog), fields: sheetFields, sortableFields: sortableFields)
            filters.write(content.facets, total: content.total ?? catalog.summary.count, into: &html)
            switch content {
            case .results(let response):
                results(response, state: state, offlineFields: offlineFields, into: &html)
            case .rows(let rows):
                if Self.hasRail(rows.outline, definition: definition) {
                    // The rail comes first in the focus order: one Tab stop before the rows.
                    rail(rows.outline, into: &html)
                }
                if !rows.records.isEmpty { browseSort(filters, into: &html) }
                browseList(rows, state: state, offlineFields: offlineFields, into: &html)
            }
            html.close("div")
            pane(opened, state: state, into: &html)
        }
    }

    /// What the page shows: a page of rows in index order, or search results.
    enum Content {
        case rows(BrowseRows)
        case results(SearchResponse)

        var scopes: [ScopeCount]? {
            if case .results(let response) = self { return response.scopes }
            return nil
        }

        /// The records a search finds (nil while browsing).
        var total: Int? {
            if case .results(let response) = self { return response.total }
            return nil
        }

        var facets: [String: [FacetCount]] {
            if case .results(let response) = self { return response.facets ?? [:] }
            return [:]
        }
    }

    /// A page of the list with its outline.
    struct BrowseRows {
        var outline: ListOutline
        var page: PositionedPage
        var records: [Record]
    }

    /// The rows the state asks for: from a cursor (`at`), after or before one (the page links),
    /// from a section (`from`, the rail), or from the start.
    private func browseRows(_ state: ListState) throws -> BrowseRows {
        let number = category?.id
        let outline = try store.outline(of: catalog, category: number)
        var position = 0
        if let from = state.from {
            guard let start = outline.start(ofLabel: from, labels: catalog.sectionLabels) else {
                throw HTTPError.notFound("no section \"\(from.prefix(64))\"")
            }
            position = start
        } else if let at = state.at {
            position = try store.place(of: catalog, category: number, cursor: at).position
        } else if let after = state.after {
            let place = try store.place(of: catalog, category: number, cursor: after)
            position = place.exact ? place.position + 1 : place.position
        } else if let before = state.before {
            position = max(0, try store.place(of: catalog, category: number, cursor: before).position - Self.pageSize)
        }
        let page = try store.items(of: catalog, category: number, position: position, limit: Self.pageSize)
        return BrowseRows(outline: outline, page: page, records: try page.records())
    }

    private func searchForm(_ state: ListState, scopes: [ScopeCount]?, into html: inout HTMLWriter) {
        html.open("form", ["class": "search", "id": "search-form", "role": "search", "method": "get", "action": base])
        html.open("div", ["class": "search-row"])
        html.open("div", ["class": "search-field"])
        html.element("label", ["class": "visually-hidden", "for": "q"], text: strings[.search])
        html.element(
            "input",
            [
                "type": "search", "id": "q", "name": "q", "value": state.query, "placeholder": strings[.search],
                "autocomplete": "off", "autocapitalize": "off", "spellcheck": "false", "enterkeyhint": "search",
                "maxlength": "200", "aria-controls": "list", "aria-label": strings[.search],
            ])
        html.close("div")
        // The first submit button is the one Enter presses: it keeps the scope (below).
        html.element("button", ["type": "submit", "class": "search-go"], text: strings[.search])
        html.element(
            "a",
            [
                "class": "filter-toggle", "id": "filter-toggle", "href": "#filters", "aria-controls": "filters",
                "data-count": String(state.filterCount),
            ],
            text: Self.filterLabel(state, strings: strings))
        html.element("a", ["class": "search-cancel", "href": base, "id": "search-cancel"], text: strings[.cancel])
        if canEdit {
            html.element(
                "a",
                [
                    "class": "new-record", "id": "new-record", "href": WebPaths.catalog(definition.id) + "/new",
                    "title": strings[.newRecord],
                ]
            ) {
                $0.raw("<span class=\"plus\" aria-hidden=\"true\"></span>")
                $0.element("span", ["class": "visually-hidden"], text: strings[.newRecord])
            }
        }
        if canManage {
            html.element(
                "a",
                [
                    "class": "new-record catalog-settings", "id": "catalog-settings",
                    "href": WebPaths.catalog(definition.id) + "/settings", "title": strings[.catalogSettings],
                ]
            ) {
                $0.raw("<span class=\"gear\" aria-hidden=\"true\"></span>")
                $0.element("span", ["class": "visually-hidden"], text: strings[.catalogSettings])
            }
        }
        html.close("div")
        html.element("input", ["type": "hidden", "name": "search", "value": "1"])
        if Self.scopeButtons(
            store.scopes(of: catalog), counts: scopes, state: state, category: category, strings: strings,
            into: &html)
        {
            // After the buttons: a pressed button's value comes first, Enter keeps this one.
            if let scope = state.scope {
                html.element("input", ["type": "hidden", "name": "scope", "value": scope])
            }
        }
        html.close("form")
    }

    /// The scope buttons with their counts under the search (none on a category's page, or
    /// when the catalog has one scope); true when there are buttons. The search's rows fragment
    /// carries them too, for the script to take the counts from.
    @discardableResult
    static func scopeButtons(
        _ scopes: [ScopeDefinition], counts: [ScopeCount]?, state: ListState, category: CategoryCount?,
        strings: WebStrings, into html: inout HTMLWriter
    ) -> Bool {
        let labels = scopes.map(\.label)
        guard labels.count > 1, category == nil else { return false }
        html.open(
            "div",
            [
                "class": fitsSegments(labels) ? "scopes" : "scopes scope-chips", "role": "group",
                "aria-label": strings[.categories], "id": "scopes",
            ])
        // Counts capped in every scope say nothing ("1,000+" everywhere): they are left out.
        let allCapped = !(counts ?? []).isEmpty && (counts ?? []).allSatisfy(\.capped)
        let counts =
            allCapped
            ? [:] : Dictionary((counts ?? []).map { ($0.label, $0) }, uniquingKeysWith: { first, _ in first })
        let selected = state.scope ?? labels.first
        for scope in scopes {
            let label = scope.label
            // The categories a record needs to be in the scope, for the offline search.
            var categories = JSONOutput(capacity: 64)
            categories.strings(scope.categories)
            html.open(
                "button",
                [
                    "type": "submit", "name": "scope", "value": label, "class": "scope",
                    "aria-pressed": label == selected ? "true" : "false",
                    "data-categories": String(decoding: categories.bytes, as: UTF8.self),
                ])
            html.element("span", ["class": "scope-label"], text: label)
            if let count = counts[label] {
                html.element("span", ["class": "count"], text: strings.number(count.count) + (count.capped ? "+" : ""))
            }
            html.close("button")
        }
        html.close("div")
        return true
    }

    /// "No results", with what to do about it: the search without its filters, or in every
    /// scope, where either is set (the rows fragment carries it too, for the script to show).
    static func emptyState(
        _ state: ListState, hidden: Bool, base: String, firstScope: String?, suggestion: String? = nil,
        strings: WebStrings, into html: inout HTMLWriter
    ) {
        html.open("div", ["class": "empty", "id": "empty", "data-part": "empty", "hidden": hidden ? "" : nil])
        html.element("p", ["class": "empty-title"], text: strings[.noResults])
        if let suggestion {
            // "Did you mean kávé?": the suggested query with the same scope and filters.
            var instead = state
            instead.query = suggestion
            let (before, after) = strings.split(.didYouMean, at: "query")
            html.open("p", ["class": "empty-suggestion"])
            html.text(before)
            html.element(
                "a", ["href": base + WebPaths.query(instead.searchPairs), "id": "suggestion"], text: suggestion)
            html.text(after)
            html.close("p")
        }
        html.element("p", ["class": "empty-help"], text: strings[.noResultsHelp])
        var unfiltered = state
        unfiltered.categories = []
        unfiltered.countries = []
        unfiltered.price = nil
        var everywhere = state
        everywhere.scope = nil
        let scoped = state.scope != nil && state.scope != firstScope
        let filtered = !state.categories.isEmpty || !state.countries.isEmpty || state.price != nil
        if scoped || filtered {
            html.open("p", ["class": "empty-actions"])
            if filtered {
                html.element(
                    "a", ["href": base + WebPaths.query(unfiltered.searchPairs)], text: strings[.resetFilters])
            }
            if scoped {
                html.element(
                    "a", ["href": base + WebPaths.query(everywhere.searchPairs)], text: strings[.searchEverywhere])
            }
            html.close("p")
        }
        html.close("div")
    }

    /// Whether scopes fit a segmented control on a phone with their whole labels: at most
    /// ``segmentLimit`` of them, with labels short enough between them. Others are a row of
    /// chips that scrolls sideways, each label whole.
    static func fitsSegments(_ labels: [String]) -> Bool {
        labels.count <= segmentLimit && labels.reduce(0) { $0 + $1.count } <= segmentCharacters
    }

    /// The most scopes a segmented control holds.
    static let segmentLimit = 4
    /// The most characters of labels a segmented control holds on a phone (with their counts).
    static let segmentCharacters = 28

    /// The search's total ("12 results", "1,000+ results"); none when nothing matched, which
    /// the "no results" below says with what to do (``emptyState(_:hidden:base:firstScope:strings:into:)``).
    static func total(_ response: SearchResponse, strings: WebStrings) -> String {
        guard response.total > 0 || response.totalCapped else { return "" }
        return response.totalCapped
            ? strings.plural(.resultsCapped, response.total) : strings.plural(.results, response.total)
    }

    /// The filter button's words: "Filters", or how many are set.
    static func filterLabel(_ state: ListState, strings: WebStrings) -> String {
        state.filterCount > 0 ? strings.plural(.activeFilters, state.filterCount) : strings[.filters]
    }

    private func results(
        _ response: SearchResponse, state: ListState, offlineFields: [String], into html: inout HTMLWriter
    ) {
        let total = Self.total(response, strings: strings)
        html.element("p", ["class": "total", "id": "total", "aria-live": "polite"], text: total)
        let context = RowView.Context(
            definition: definition, strings: strings, thumbnails: response.items.contains { $0.record.image != nil },
            backQuery: WebPaths.query(state.searchPairs + [("via", via)]), offlineFields: offlineFields)
        html.open(
            "ol",
            [
                "class": "rows results", "id": "results", "data-source": "search",
                "data-rows": base + RowsFragment.suffix + WebPaths.query(state.searchPairs),
                "data-next": response.next, "data-total": String(response.total),
                "data-capped": response.totalCapped ? "" : nil, "data-thumbs": context.thumbnails ? "" : nil,
                "aria-label": total,
            ])
        for (index, hit) in response.items.enumerated() {
            RowView.write(
                hit.record, context: context, matches: hit.matches, snippet: hit.snippet, typo: hit.typo,
                position: index, into: &html)
        }
        html.close("ol")
        Self.emptyState(
            state, hidden: !response.items.isEmpty, base: Self.base(definition, category: category),
            firstScope: store.scopes(of: catalog).first?.label, suggestion: response.suggestion, strings: strings,
            into: &html)
        if let next = response.next {
            html.element(
                "a",
                [
                    "class": "more", "id": "more", "rel": "next",
                    "href": base + WebPaths.query(state.searchPairs + [("after", next)]),
                ],
                text: strings[.later])
        }
    }

    private func browseList(
        _ rows: BrowseRows, state: ListState, offlineFields: [String], into html: inout HTMLWriter
    ) {
        let page = rows.page
        let first = page.cursors.first
        let context = RowView.Context(
            definition: definition, strings: strings, thumbnails: rows.records.contains { $0.image != nil },
            backQuery: WebPaths.query([("at", first), ("via", via)]), offlineFields: offlineFields)
        if let previous = page.previous {
            html.element(
                "a", ["class": "earlier", "id": "earlier", "rel": "prev", "href": base + "?before=" + previous],
                text: strings[.earlier])
        }
        html.open(
            "div",
            [
                "class": definition.flatList
                    ? "sections flat"
                    : Self.hasRail(rows.outline, definition: definition) ? "sections" : "sections no-rail",
                "id": "sections",
                "data-source": "positions", "data-rows": base + RowsFragment.suffix,
                "data-page-size": String(Self.pageSize), "data-position": String(page.position),
                "data-count": String(rows.outline.count),
                "data-outline": String(
                    decoding: OutlineAnswer(outline: rows.outline, labels: catalog.sectionLabels).jsonBytes,
                    as: UTF8.self),
                "data-flat": definition.flatList ? "" : nil, "data-thumbs": context.thumbnails ? "" : nil,
                "data-tint": definition.rowTint == nil ? nil : "",
            ])
        var current: String?
        for (offset, record) in rows.records.enumerated() {
            let label = record.section ?? "#"
            if definition.flatList {
                if current == nil {
                    html.open("ol", ["class": "rows"])
                    current = label
                }
            } else if label != current {
                if current != nil { html.raw("</ol></section>") }
                html.open("section", ["class": "section", "data-label": label, "aria-labelledby": "s-" + label])
                html.element("h2", ["class": "section-header", "id": "s-" + label], text: label)
                html.open("ol", ["class": "rows"])
                current = label
            }
            RowView.write(
                record, context: context, cursor: page.cursors[offset], position: page.position + offset,
                into: &html)
        }
        if current != nil { html.raw(definition.flatList ? "</ol>" : "</ol></section>") }
        html.close("div")
        if rows.records.isEmpty {
            html.element("p", ["class": "empty", "id": "empty"], text: strings[.noResults])
        }
        if let next = page.next {
            html.element(
                "a", ["class": "more", "id": "more", "rel": "next", "href": base + "?after=" + next],
                text: strings[.later])
        }
    }

    /// The sort while browsing, above the rows: after the index rail in the focus order (the rail
    /// stays one Tab stop after the search field). Choosing an order shows the list's records in
    /// it as results: at once with the script (search.js), else with the form's button.
    private func browseSort(_ filters: FilterPanel, into html: inout HTMLWriter) {
        html.open("form", ["class": "list-head", "id": "list-head", "method": "get", "action": base])
        html.element("input", ["type": "hidden", "name": "search", "value": "1"])
        html.open("label", ["class": "browse-sort"])
        html.element("span", text: strings[.sort])
        html.open("select", ["name": "sort", "id": "browse-sort"])
        // Browsing is in the index's order, by name: the first choice, chosen.
        for (sort, label) in filters.sorts where sort != .relevance {
            html.element("option", ["value": sort.rawValue, "selected": sort == .title ? "" : nil], text: label)
        }
        html.close("select")
        html.close("label")
        html.element("button", ["type": "submit", "class": "browse-sort-go"], text: strings[.apply])
        html.close("form")
    }

    /// Whether a list has an index rail: a list of sections (not a flat one) long enough to need
    /// one (``railMinimum``); a shorter list is a screen or two, which scrolling covers.
    static func hasRail(_ outline: ListOutline, definition: CatalogDefinition) -> Bool {
        !definition.flatList && !outline.sections.isEmpty && outline.count >= railMinimum
    }

    /// The fewest rows of a list with an index rail.
    static let railMinimum = 30

    /// The index rail: every label of the locale; an empty section is dimmed and leads to the
    /// next one that has records.
    private func rail(_ outline: ListOutline, into html: inout HTMLWriter) {
        html.open("nav", ["class": "rail", "id": "rail", "aria-label": strings[.index]])
        html.open("ol")
        let nonEmpty = Set(outline.sections.map(\.label))
        let labels = catalog.sectionLabels
        for (index, label) in labels.enumerated() {
            let target =
                outline.sections.first { $0.labelIndex >= index }?.label ?? outline.sections.last?.label ?? label
            html.open("li")
            html.element(
                "a",
                [
                    "href": base + "?from=" + WebPaths.encode(label) + "#s-" + WebPaths.encode(target),
                    "data-label": label, "data-target": target,
                    "class": nonEmpty.contains(label) ? nil : "empty-label",
                ], text: label)
            html.close("li")
        }
        html.close("ol")
        html.close("nav")
    }

    /// The pane beside the list on wide screens: the record named by `open`, or a hint.
    private func pane(_ record: Record?, state: ListState, into html: inout HTMLWriter) {
        html.open("aside", ["class": "pane", "id": "pane", "aria-label": strings[.details], "aria-live": "polite"])
        if let record {
            var closing = state
            closing.open = nil
            html.element(
                "a", ["class": "pane-close", "id": "pane-close", "href": base + closing.backQuery],
                text: strings[.close])
            DetailPage.article(
                record, definition: definition, strings: strings, session: session, isFavorite: nil,
                origin: DetailPage.Origin(list: state, via: via), canEdit: canEdit, into: &html)
        } else {
            html.element("p", ["class": "pane-empty"], text: strings[.pickRecord])
        }
        html.close("aside")
    }

    /// The pane of a list with no record open yet (Hot and Favorites: the script opens one there).
    static func emptyPane(strings: WebStrings, into html: inout HTMLWriter) {
        html.open("aside", ["class": "pane", "id": "pane", "aria-label": strings[.details], "aria-live": "polite"])
        html.element("p", ["class": "pane-empty"], text: strings[.pickRecord])
        html.close("aside")
    }
}
