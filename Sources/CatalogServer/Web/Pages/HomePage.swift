import CatalogHTTP
import CatalogModel

/// `/`: the catalogs with their record counts.
struct HomePage {
    let catalogs: [CatalogSummary]
    let session: WebSession

    func render() -> Response {
        let strings = WebStrings.english
        let layout = PageLayout(title: strings.catalogs, strings: strings, session: session)
        return layout.render { html in
            html.open("ol", ["class": "rows catalogs", "id": "catalogs"])
            for catalog in catalogs {
                html.open("li", ["class": "row"])
                html.open("a", ["class": "row-link", "href": WebPaths.catalog(catalog.id), "lang": catalog.locale])
                html.open("span", ["class": "row-text"])
                html.element("span", ["class": "title"], text: catalog.title)
                html.element("span", ["class": "subtitle"], text: catalog.id)
                html.close("span")
                html.element("span", ["class": "count"], text: String(catalog.count))
                html.raw(RowView.chevron)
                html.close("a")
                html.close("li")
            }
            html.close("ol")
            html.element("p", ["class": "footnote"]) {
                $0.element("a", ["href": "/api/v1/openapi.json"], text: "JSON API (OpenAPI)")
            }
        }
    }
}
