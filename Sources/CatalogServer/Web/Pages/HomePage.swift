import CatalogHTTP
import CatalogModel

/// `/`: the catalogs with their record counts, in the language the browser asks for.
struct HomePage {
    let catalogs: [CatalogSummary]
    let session: WebSession
    let strings: WebStrings
    /// Whether the visitor may create catalogs: the page links to a new one.
    var canCreate = false
    /// The catalog just deleted, which the page says.
    var deleted: String?
    /// A search across the catalogs (`/search?q=`), shown in place of the list.
    var search: HomeSearch?

    func render() -> Response {
        let layout = PageLayout(title: strings[.catalogs], strings: strings, session: session)
        return layout.render { html in
            if let deleted {
                html.element(
                    "p", ["class": "notice", "id": "home-message", "role": "status"],
                    text: strings.format(.catalogRemoved, ["id": deleted]))
            }
            if canCreate {
                html.element("p", ["class": "home-actions"]) {
                    $0.element(
                        "a", ["class": "button-link", "id": "new-catalog-link", "href": "/new"],
                        text: strings[.newCatalog])
                }
            }
            searchForm(into: &html)
            search?.writeGroups(strings: strings, into: &html)
            if search == nil { html.element("div", ["class": "home-results", "id": "home-results", "hidden": ""]) }
            html.open("ol", ["class": "rows catalogs", "id": "catalogs", "hidden": searching ? "" : nil])
            for catalog in catalogs {
                RowView.countRow(
                    href: WebPaths.catalog(catalog.id), language: catalog.locale, image: nil, title: catalog.title,
                    subtitle: catalog.id, count: strings.number(catalog.count), into: &html)
            }
            html.close("ol")
            html.element("p", ["class": "footnote", "hidden": searching ? "" : nil]) {
                $0.element("a", ["href": "/api/v1/openapi.json"], text: strings[.apiLink])
            }
        }
    }

    private var searching: Bool { !(search?.query.isEmpty ?? true) }

    /// One search field for every catalog (with a button, for a browser without the script).
    private func searchForm(into html: inout HTMLWriter) {
        guard catalogs.count > 1 || search != nil else { return }
        html.open(
            "form",
            [
                "class": "search home-search", "id": "home-search", "role": "search", "method": "get",
                "action": "/search",
            ])
        html.open("div", ["class": "search-row"])
        html.open("div", ["class": "search-field"])
        html.element("label", ["class": "visually-hidden", "for": "home-q"], text: strings[.searchCatalogs])
        html.element(
            "input",
            [
                "type": "search", "id": "home-q", "name": "q", "value": search?.query ?? "",
                "placeholder": strings[.searchCatalogs], "autocomplete": "off", "autocapitalize": "off",
                "spellcheck": "false", "enterkeyhint": "search", "maxlength": "200", "aria-controls": "home-results",
                "aria-label": strings[.searchCatalogs],
            ])
        html.close("div")
        html.element("button", ["type": "submit", "class": "search-go"], text: strings[.search])
        html.close("div")
        html.close("form")
    }
}
