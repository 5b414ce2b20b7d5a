import CatalogHTTP
import CatalogModel

/// The cookbook's tabs: Hot (featured records), Categories (→ the records of one), Favorites.
/// Any catalog with categories that carry ids gets them.
enum CollectionPages {
    static func tabs(for definition: CatalogDefinition, strings: WebStrings, selected: String) -> [PageLayout.Tab] {
        guard !definition.categories.isEmpty else { return [] }
        let base = WebPaths.catalog(definition.id)
        return [
            PageLayout.Tab(label: strings[.hot], href: base + "/hot", selected: selected == "hot", icon: Icons.star),
            PageLayout.Tab(
                label: strings[.categories], href: base + "/categories", selected: selected == "categories",
                icon: Icons.grid),
            PageLayout.Tab(label: strings[.all], href: base, selected: selected == "all", icon: Icons.list),
            PageLayout.Tab(
                label: strings[.favorites], href: base + "/favorites", selected: selected == "favorites",
                icon: Icons.heart),
        ]
    }

    /// The tab bar's pictures: inline SVG in the text's color (no style attributes, so the
    /// Content-Security-Policy allows them).
    enum Icons {
        static let star: StaticString = """
            <svg viewBox="0 0 24 24" width="26" height="26" focusable="false"><path fill="currentColor" \
            d="M12 2.6l2.9 5.9 6.5.9-4.7 4.6 1.1 6.5L12 17.4l-5.8 3.1 1.1-6.5L2.6 9.4l6.5-.9z"/></svg>
            """
        static let grid: StaticString = """
            <svg viewBox="0 0 24 24" width="26" height="26" focusable="false" fill="currentColor">\
            <rect x="3" y="3" width="8" height="8" rx="2"/><rect x="13" y="3" width="8" height="8" rx="2"/>\
            <rect x="3" y="13" width="8" height="8" rx="2"/><rect x="13" y="13" width="8" height="8" rx="2"/></svg>
            """
        static let list: StaticString = """
            <svg viewBox="0 0 24 24" width="26" height="26" focusable="false" fill="currentColor">\
            <circle cx="4.5" cy="6" r="1.6"/><circle cx="4.5" cy="12" r="1.6"/><circle cx="4.5" cy="18" r="1.6"/>\
            <rect x="8" y="5" width="13" height="2" rx="1"/><rect x="8" y="11" width="13" height="2" rx="1"/>\
            <rect x="8" y="17" width="13" height="2" rx="1"/></svg>
            """
        static let heart: StaticString = """
            <svg viewBox="0 0 24 24" width="26" height="26" focusable="false"><path fill="currentColor" \
            d="M12 21s-7.4-4.5-9.5-9C1 8.7 3.1 5 6.7 5c2.1 0 3.7 1.2 5.3 3.1C13.6 6.2 15.2 5 17.3 5 \
            20.9 5 23 8.7 21.5 12 19.4 16.5 12 21 12 21z"/></svg>
            """
    }

    /// A titled list of records (hot, favorites): the same rows as every list, windowed by the
    /// script like the others. Signed out, the favorites list is the browser's own (the script
    /// fills it from the records kept there). `change` is the catalog's change number read with
    /// the records: the script follows the catalog's changes from there.
    static func records(
        _ records: [Record], title: String, definition: CatalogDefinition, change: Int, session: WebSession,
        tab: String, here: String, via: String, empty: String, note: String? = nil, local: Bool = false
    ) -> Response {
        let strings = WebStrings.forLocale(definition.locale)
        var layout = PageLayout(
            title: title, strings: strings, back: ("/", strings[.catalogs]), catalog: definition, session: session,
            tabs: tabs(for: definition, strings: strings, selected: tab))
        layout.here = here
        layout.change = change
        // Beside a pane on wide screens, as a catalog's list is: a record opens there.
        layout.mainClass = "split"
        let context = RowView.Context(
            definition: definition, strings: strings,
            thumbnails: local || records.contains { $0.image != nil } || definition.mapping[.image] != nil,
            backQuery: DetailPage.Origin(via: via).query)
        return layout.render { html in
            html.open(
                "div",
                [
                    "class": "list", "id": "list", "data-catalog": definition.id, "data-title": title,
                    "data-bar-title": title,
                ])
            if let note { html.element("p", ["class": "note", "id": "note"], text: note) }
            html.open(
                "ol",
                [
                    "class": "rows collection", "id": "collection", "data-source": "static",
                    "data-catalog": definition.id, "data-via": via, "data-favorites": local ? "local" : nil,
                    "data-thumbs": context.thumbnails ? "" : nil,
                ])
            for (index, record) in records.enumerated() {
                RowView.write(record, context: context, position: index, into: &html)
            }
            html.close("ol")
            html.element("p", ["class": "empty", "id": "empty", "hidden": records.isEmpty ? nil : ""], text: empty)
            html.close("div")
            ListPage.emptyPane(strings: strings, into: &html)
        }
    }

    /// The categories with their pictures and counts.
    static func categories(_ categories: [CategoryCount], definition: CatalogDefinition, session: WebSession)
        -> Response
    {
        let strings = WebStrings.forLocale(definition.locale)
        var layout = PageLayout(
            title: strings[.categories], strings: strings, back: ("/", strings[.catalogs]), catalog: definition,
            session: session, tabs: tabs(for: definition, strings: strings, selected: "categories"))
        layout.here = WebPaths.catalog(definition.id) + "/categories"
        return layout.render { html in
            html.open("ol", ["class": "rows categories", "id": "categories"])
            for category in categories {
                RowView.countRow(
                    href: WebPaths.category(definition.id, category.id), image: category.image, title: category.name,
                    subtitle: nil, count: strings.number(category.count), into: &html)
            }
            html.close("ol")
        }
    }
}
