import CatalogModel
import Foundation

/// One row of a list, as the original apps drew it: thumbnail, title (one size in every row,
/// ending in "…" when it does not fit), and below it the gray subtitle (or "Kategorie …", or the
/// snippet that explains a search match) with the price and flag at its end, and a disclosure
/// chevron; the whole row is one link to the detail page. The title has the whole width of the
/// row's text: on a phone a product's name matters more than its price.
/// The one renderer of a record's row: the pages' rows and the rows the script fetches
/// (``RowsFragment``) are all drawn here; the script only places them.
enum RowView {
    /// What every row of one list shares.
    struct Context {
        var definition: CatalogDefinition
        var strings: WebStrings
        /// True when the list shows pictures: rows without one keep the picture's place, so all
        /// rows align.
        var thumbnails: Bool
        /// The query string of the detail links (where the back link returns).
        var backQuery: String = ""
        /// The record fields each row carries for the offline search (``OfflineFacts``).
        var offlineFields: [String] = []
    }

    static func write(
        _ record: Record, context: Context, matches: [MatchRange] = [], snippet: MatchSnippet? = nil,
        typo: Bool = false, cursor: String? = nil, position: Int? = nil, into html: inout HTMLWriter
    ) {
        html.open(
            "li",
            [
                "class": (position.map { $0 % 2 == 1 ? "row alt" : "row" } ?? "row") + (typo ? " typo" : ""),
                "data-id": record.id,
                "data-cursor": cursor, "data-position": position.map(String.init),
                "data-filter": OfflineFacts.json(record, fields: context.offlineFields),
            ])
        html.open(
            "a", ["class": "row-link", "href": WebPaths.item(context.definition.id, record.id) + context.backQuery])
        if let image = record.image, !image.isEmpty {
            html.element(
                "img",
                [
                    "class": "thumb", "src": thumbnail(image), "alt": "", "loading": "lazy", "decoding": "async",
                    "width": "40", "height": "40",
                ])
        } else if context.thumbnails {
            html.raw("<span class=\"thumb thumb-none\" aria-hidden=\"true\"></span>")
        }
        html.open("span", ["class": "row-text"])
        html.element("span", ["class": "title"]) { html in
            // A hit found only through a typo says so: a mark, and its words for screen readers.
            if typo {
                html.element("span", ["class": "typo-mark", "aria-hidden": "true"], text: "≈")
                html.element("span", ["class": "visually-hidden"], text: context.strings[.similarSpelling] + ": ")
            }
            html.text(record.title, marking: ranges(matches, field: "title"))
        }
        html.open("span", ["class": "row-sub"])
        if let snippet, ranges(matches, field: "title").isEmpty {
            html.element("span", ["class": "subtitle snippet"]) {
                $0.text(snippet.text, marking: snippet.matches.map { $0.start..<($0.start + $0.length) })
            }
        } else {
            // The subtitle (or the categories), or the fields the catalog's settings name.
            let parts = RecordDisplay.listLine(
                record, fields: context.definition.searchSettings.listFields,
                categoryPrefix: context.strings[.categoryPrefix])
            if !parts.isEmpty {
                html.element("span", ["class": "subtitle"]) { html in
                    for (index, part) in parts.enumerated() {
                        if index > 0 { html.text(RecordDisplay.separator) }
                        html.text(
                            part.text, marking: part.field == "subtitle" ? ranges(matches, field: "subtitle") : [])
                    }
                }
            }
        }
        if let price = record.price {
            html.element("span", ["class": "price"], text: context.strings.price(price, currency: record.currency))
        }
        if let country = record.country { flag(country, strings: context.strings, into: &html) }
        html.close("span")
        html.close("span")
        html.raw(chevron)
        html.close("a")
        html.close("li")
    }

    /// The flag of a country (``CountryCode/isAssigned``: an assigned code has one), read as the
    /// country's name in the page's language (its `alt` and `title`); any other value shows as
    /// its letters.
    static func flag(_ country: String, strings: WebStrings, into html: inout HTMLWriter) {
        guard let code = CountryCode(country), let path = ImageStore.flagPath(of: code) else {
            if !country.isEmpty { html.element("span", ["class": "flag code"], text: country.uppercased()) }
            return
        }
        let name = strings.locale.localizedString(forRegionCode: code.text) ?? code.text
        html.element(
            "img",
            [
                "class": "flag", "src": path, "alt": name, "title": name, "width": "20", "height": "14",
                "loading": "lazy",
            ])
    }

    /// A row that leads to a list: optional picture, title, optional subtitle, and a count
    /// (catalogs on the home page, a cookbook's categories).
    static func countRow(
        href: String, language: String? = nil, image: String?, title: String, subtitle: String?, count: String,
        into html: inout HTMLWriter
    ) {
        html.open("li", ["class": "row"])
        html.open("a", ["class": "row-link", "href": href, "lang": language])
        if let image, !image.isEmpty {
            html.element(
                "img",
                [
                    "class": "thumb", "src": thumbnail(image), "alt": "", "loading": "lazy", "width": "40",
                    "height": "40",
                ])
        }
        html.open("span", ["class": "row-text"])
        html.element("span", ["class": "title"], text: title)
        if let subtitle { html.element("span", ["class": "subtitle"], text: subtitle) }
        html.close("span")
        html.element("span", ["class": "count"], text: count)
        html.raw(chevron)
        html.close("a")
        html.close("li")
    }

    /// The disclosure indicator at the end of a row (drawn by the stylesheet).
    static let chevron: StaticString = "<span class=\"chevron\" aria-hidden=\"true\"></span>"

    /// Raster images get a 80-pixel thumbnail (40 CSS pixels at 2×); SVGs and remote images as they are.
    static func thumbnail(_ image: String) -> String {
        let lower = image.lowercased()
        guard image.hasPrefix("/images/"), !lower.hasSuffix(".svg") else { return image }
        return image + "?size=80"
    }

    static func ranges(_ matches: [MatchRange], field: String) -> [Range<Int>] {
        matches.filter { $0.field == field }.map { $0.start..<($0.start + $0.length) }
    }
}
