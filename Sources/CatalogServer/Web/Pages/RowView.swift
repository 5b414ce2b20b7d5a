import CatalogModel
import Foundation

/// One row of a list, as the original apps drew it: thumbnail, title (shrinking, then ending
/// in "…"), gray subtitle (or "Kategorie …"), price, flag, and a disclosure chevron; the whole
/// row is one link to the detail page.
enum RowView {
    static func write(
        _ record: Record, catalog: String, strings: WebStrings, locale: String, matches: [MatchRange] = [],
        backQuery: String = "", into html: inout HTMLWriter
    ) {
        html.open("li", ["class": "row", "data-id": record.id])
        html.open("a", ["class": "row-link", "href": WebPaths.item(catalog, record.id) + backQuery])
        if let image = record.image, !image.isEmpty {
            html.element(
                "img",
                [
                    "class": "thumb", "src": thumbnail(image), "alt": "", "loading": "lazy", "decoding": "async",
                    "width": "40", "height": "40",
                ])
        }
        html.open("span", ["class": "row-text"])
        html.element("span", ["class": record.title.count > longTitle ? "title long" : "title"]) {
            $0.text(record.title, marking: ranges(matches, field: "title"))
        }
        if let subtitle = record.subtitle, !subtitle.isEmpty {
            html.element("span", ["class": "subtitle"]) {
                $0.text(subtitle, marking: ranges(matches, field: "subtitle"))
            }
        } else if !record.categories.isEmpty {
            html.element(
                "span", ["class": "subtitle"], text: strings.category + " " + record.categories.joined(separator: ", "))
        }
        html.close("span")
        if let price = record.price {
            html.element("span", ["class": "price"], text: format(price, currency: record.currency, locale: locale))
        }
        if let country = record.country, country.utf8.count == 2 {
            html.element(
                "img",
                [
                    "class": "flag", "src": "/images/demo/flags/\(country.lowercased()).svg",
                    "alt": country.uppercased(),
                    "width": "20", "height": "14", "loading": "lazy",
                ])
        }
        html.raw(chevron)
        html.close("a")
        html.close("li")
    }

    /// Titles longer than this many characters are set a little smaller before they end in "…".
    static let longTitle = 28

    /// The disclosure indicator at the end of a row (drawn by the stylesheet).
    /// A row that leads to a list: optional picture, title, optional subtitle, and a count
    /// (catalogs on the home page, a cookbook's categories).
    static func countRow(
        href: String, language: String? = nil, image: String?, title: String, subtitle: String?, count: Int,
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
        html.element("span", ["class": "count"], text: String(count))
        html.raw(chevron)
        html.close("a")
        html.close("li")
    }

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

    /// `24,90 €` in German, `$24.90` in English: Foundation's currency format for the locale.
    static func format(_ price: Decimal, currency: String?, locale: String) -> String {
        let locale = Locale(identifier: locale)
        if let currency, currency.utf8.count == 3 {
            return price.formatted(.currency(code: currency).locale(locale))
        }
        return price.formatted(.number.precision(.fractionLength(0...2)).locale(locale))
    }
}
