import CatalogHTTP
import CatalogModel
import Foundation

/// `/c/{id}/i/{item}`: every field of one record. The page title is the record's title; an
/// empty description shows the catalog language's placeholder; the back link returns where the
/// user came from (the list with its search, or a cookbook tab), see ``Origin``.
struct DetailPage {
    let definition: CatalogDefinition
    let record: Record
    let session: WebSession
    let isFavorite: Bool?
    let tabs: [PageLayout.Tab]
    let origin: Origin
    let back: (href: String, label: String)

    func render() -> Response {
        let strings = WebStrings.forLocale(definition.locale)
        let id = definition.id
        var layout = PageLayout(
            title: record.title, strings: strings, back: back, catalogID: id, session: session, tabs: tabs)
        layout.here = WebPaths.item(id, record.id) + origin.query
        return layout.render { html in
            html.open("article", ["class": "detail", "data-id": record.id])
            if let image = record.image, !image.isEmpty {
                html.element("img", ["class": "detail-image", "src": image, "alt": record.title, "decoding": "async"])
            }
            html.element("h2", ["class": "detail-title"], text: record.title)
            if let subtitle = record.subtitle, !subtitle.isEmpty {
                html.element("p", ["class": "detail-subtitle"], text: subtitle)
            }
            favoriteControl(strings: strings, into: &html)
            html.open("dl", ["class": "facts"])
            if !record.categories.isEmpty {
                fact(strings.category, record.categories.joined(separator: ", "), into: &html)
            }
            if let price = record.price {
                fact(
                    strings.price, RowView.format(price, currency: record.currency, locale: definition.locale),
                    into: &html)
            }
            if let quantity = record.quantity { fact(strings.quantity, String(quantity), into: &html) }
            if let country = record.country, !country.isEmpty {
                html.element("dt", text: strings.country)
                html.element("dd") {
                    $0.element(
                        "img",
                        [
                            "class": "flag", "src": "/images/demo/flags/\(country.lowercased()).svg", "alt": "",
                            "width": "20", "height": "14",
                        ])
                    $0.text(" " + country.uppercased())
                }
            }
            for name in extraFieldNames() {
                fact(name, record.fields[name]?.values.joined(separator: ", ") ?? "", into: &html)
            }
            html.close("dl")
            if let description = record.description,
                !description.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            {
                html.open("div", ["class": "description"])
                for paragraph in description.split(separator: "\n", omittingEmptySubsequences: true) {
                    html.element("p", text: String(paragraph))
                }
                html.close("div")
            } else {
                html.element("p", ["class": "description placeholder"], text: strings.noDescription)
            }
            html.close("article")
        }
    }

    /// Extra fields in the source's order, then any others by name.
    private func extraFieldNames() -> [String] {
        let ordered = definition.fieldOrder.filter { record.fields[$0] != nil }
        return ordered + record.fields.keys.filter { !ordered.contains($0) }.sorted()
    }

    private func fact(_ name: String, _ value: String, into html: inout HTMLWriter) {
        html.element("dt", text: name)
        html.element("dd", text: value)
    }

    private func favoriteControl(strings: WebStrings, into html: inout HTMLWriter) {
        guard let isFavorite else { return }
        let here = WebPaths.item(definition.id, record.id) + origin.query
        guard session.user != nil else {
            html.element("p", ["class": "favorite-hint"]) {
                $0.element("a", ["href": "/signin?next=" + WebPaths.encode(here)], text: strings.signInForFavorites)
            }
            return
        }
        html.open(
            "form",
            [
                "method": "post", "action": WebPaths.item(definition.id, record.id) + "/favorite" + origin.query,
                "class": "favorite-form",
            ])
        html.element("input", ["type": "hidden", "name": "csrf", "value": session.csrf])
        html.element("input", ["type": "hidden", "name": "favorite", "value": isFavorite ? "0" : "1"])
        html.element(
            "button",
            ["type": "submit", "class": "favorite", "id": "favorite", "aria-pressed": isFavorite ? "true" : "false"]
        ) {
            $0.raw("<span aria-hidden=\"true\" class=\"star\"></span> ")
            $0.text(isFavorite ? strings.removeFavorite : strings.addFavorite)
        }
        html.close("form")
    }
}
