import CatalogHTTP
import CatalogModel

/// The cookbook's tabs: Hot (featured records), Categories (→ the records of one), Favorites.
/// Any catalog with categories that carry ids gets them.
enum CollectionPages {
    static func tabs(for definition: CatalogDefinition, strings: WebStrings, selected: String) -> [PageLayout.Tab] {
        guard !definition.categories.isEmpty else { return [] }
        let base = WebPaths.catalog(definition.id)
        return [
            PageLayout.Tab(label: strings.hot, href: base + "/hot", selected: selected == "hot", icon: "★"),
            PageLayout.Tab(
                label: strings.categories, href: base + "/categories", selected: selected == "categories", icon: "▦"),
            PageLayout.Tab(label: strings.all, href: base, selected: selected == "all", icon: "☰"),
            PageLayout.Tab(
                label: strings.favorites, href: base + "/favorites", selected: selected == "favorites", icon: "♥"),
        ]
    }

    /// A titled list of records (hot, one category, favorites).
    static func records(
        _ records: [Record], title: String, definition: CatalogDefinition, session: WebSession, tab: String,
        back: (href: String, label: String)?, here: String, empty: String?
    ) -> Response {
        let strings = WebStrings.forLocale(definition.locale)
        var layout = PageLayout(
            title: title, strings: strings, back: back, catalogID: definition.id, session: session,
            tabs: tabs(for: definition, strings: strings, selected: tab))
        layout.here = here
        return layout.render { html in
            html.open("ol", ["class": "rows collection", "id": "collection"])
            for record in records {
                RowView.write(record, catalog: definition.id, strings: strings, locale: definition.locale, into: &html)
            }
            html.close("ol")
            if records.isEmpty, let empty {
                html.element("p", ["class": "empty"], text: empty)
            }
        }
    }

    /// The categories with their pictures and counts.
    static func categories(_ categories: [CategoryCount], definition: CatalogDefinition, session: WebSession)
        -> Response
    {
        let strings = WebStrings.forLocale(definition.locale)
        var layout = PageLayout(
            title: strings.categories, strings: strings, back: ("/", strings.catalogs), catalogID: definition.id,
            session: session, tabs: tabs(for: definition, strings: strings, selected: "categories"))
        layout.here = WebPaths.catalog(definition.id) + "/categories"
        return layout.render { html in
            html.open("ol", ["class": "rows categories", "id": "categories"])
            for category in categories {
                html.open("li", ["class": "row"])
                html.open(
                    "a",
                    [
                        "class": "row-link",
                        "href": WebPaths.catalog(definition.id) + "/categories/" + String(category.id),
                    ])
                if let image = category.image, !image.isEmpty {
                    html.element(
                        "img",
                        [
                            "class": "thumb", "src": RowView.thumbnail(image), "alt": "", "loading": "lazy",
                            "width": "40",
                            "height": "40",
                        ])
                }
                html.open("span", ["class": "row-text"])
                html.element("span", ["class": "title"], text: category.name)
                html.close("span")
                html.element("span", ["class": "count"], text: String(category.count))
                html.raw("<span class=\"chevron\" aria-hidden=\"true\">›</span>")
                html.close("a")
                html.close("li")
            }
            html.close("ol")
        }
    }
}
