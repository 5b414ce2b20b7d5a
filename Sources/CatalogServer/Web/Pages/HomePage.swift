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
            html.open("ol", ["class": "rows catalogs", "id": "catalogs"])
            for catalog in catalogs {
                RowView.countRow(
                    href: WebPaths.catalog(catalog.id), language: catalog.locale, image: nil, title: catalog.title,
                    subtitle: catalog.id, count: strings.number(catalog.count), into: &html)
            }
            html.close("ol")
            html.element("p", ["class": "footnote"]) {
                $0.element("a", ["href": "/api/v1/openapi.json"], text: strings[.apiLink])
            }
        }
    }
}
