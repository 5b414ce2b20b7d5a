import CatalogHTTP
import CatalogModel

/// `/`: a card for each catalog (its picture, title, description and record count), in the
/// language the browser asks for, and one search across them.
struct HomePage {
    let catalogs: [CatalogSummary]
    /// Each catalog's picture by id (``CatalogCovers``); a catalog without one has a plain tile.
    var covers: [String: String] = [:]
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
            html.open("ol", ["class": "catalog-cards", "id": "catalogs", "hidden": searching ? "" : nil])
            for catalog in catalogs { card(catalog, into: &html) }
            html.close("ol")
            html.element("p", ["class": "footnote", "hidden": searching ? "" : nil]) {
                $0.element("a", ["href": "/api/v1/openapi.json"], text: strings[.apiLink])
            }
        }
    }

    private var searching: Bool { !(search?.query.isEmpty ?? true) }

    /// One catalog's card, one link to its list: the picture (or a tile with its initial, so
    /// every card lines up and no image is missing), the title, the description clamped to a few
    /// lines by the stylesheet, and the record count in the page's language. The title and the
    /// description are in the catalog's language; the count in the page's.
    private func card(_ catalog: CatalogSummary, into html: inout HTMLWriter) {
        html.open("li", ["class": "catalog-card"])
        html.open("a", ["class": "card-link", "href": WebPaths.catalog(catalog.id)])
        if let image = covers[catalog.id] {
            html.element(
                "img",
                [
                    "class": "card-picture", "src": Self.picture(image), "alt": "", "loading": "lazy",
                    "decoding": "async", "width": "64", "height": "64",
                ])
        } else {
            html.element(
                "span", ["class": "card-picture card-initial", "aria-hidden": "true"],
                text: catalog.title.first.map { String($0).uppercased() } ?? "")
        }
        html.open("span", ["class": "card-text"])
        html.element("span", ["class": "card-title", "lang": catalog.locale], text: catalog.title)
        if let description = catalog.description {
            html.element("span", ["class": "card-description", "lang": catalog.locale], text: description)
        }
        html.element("span", ["class": "count"], text: strings.plural(.records, catalog.count))
        html.close("span")
        html.raw(RowView.chevron)
        html.close("a")
        html.close("li")
    }

    /// Stored raster pictures come scaled to 128 pixels (64 CSS pixels at 2×); SVGs and remote
    /// pictures as they are.
    static func picture(_ image: String) -> String {
        guard image.hasPrefix("/images/"), !image.lowercased().hasSuffix(".svg") else { return image }
        return image + "?size=128"
    }

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
