import CatalogHTTP
import CatalogModel
import Foundation

/// `/c/{id}/i/{item}`: every field of one record. The page title is the record's title; an
/// empty description shows the catalog language's placeholder; field labels come from the
/// catalog definition (else the role's label in the catalog's language); the back link returns
/// where the user came from (the list at the same place or search, or a cookbook tab), see
/// ``Origin``. The page carries schema.org JSON-LD (``StructuredData``).
struct DetailPage {
    let definition: CatalogDefinition
    let record: Record
    let session: WebSession
    let isFavorite: Bool?
    let tabs: [PageLayout.Tab]
    let origin: Origin
    let back: (href: String, label: String)
    /// The page's absolute URL (for the JSON-LD and the canonical link).
    let url: String
    /// The catalog's change number the page shows (the script follows changes from there).
    var change: Int?
    /// Whether the visitor may change the record (``AccessPolicy``, `.editRecords`): the page
    /// links to the editor.
    var canEdit = false

    func render() -> Response {
        let strings = WebStrings.forLocale(definition.locale)
        let id = definition.id
        var layout = PageLayout(
            title: record.title, strings: strings, back: back, catalog: definition, session: session, tabs: tabs)
        layout.here = WebPaths.item(id, record.id) + origin.query
        layout.structuredData = StructuredData.json(for: record, definition: definition, url: url)
        layout.canonical = url
        layout.change = change
        return layout.render { html in
            Self.article(
                record, definition: definition, strings: strings, session: session, isFavorite: isFavorite,
                origin: origin, canEdit: canEdit, into: &html)
        }
    }

    /// The record as an article: the detail page's content, and the pane beside a list.
    static func article(
        _ record: Record, definition: CatalogDefinition, strings: WebStrings, session: WebSession, isFavorite: Bool?,
        origin: Origin, canEdit: Bool = false, into html: inout HTMLWriter
    ) {
        html.open("article", ["class": "detail", "data-id": record.id, "data-catalog": definition.id])
        if let image = record.image, !image.isEmpty {
            // The picture is a button for the script, which shows it full size (with pinch on phones).
            html.element(
                "img",
                [
                    "class": "detail-image", "src": image, "alt": record.title, "decoding": "async", "width": "240",
                    "height": "240", "data-zoom": strings[.zoomImage],
                ])
        }
        html.open("div", ["class": "detail-head"])
        html.element("h2", ["class": "detail-title"], text: record.title)
        if let price = record.price {
            html.element("p", ["class": "detail-price"], text: strings.price(price, currency: record.currency))
        }
        html.close("div")
        if let subtitle = record.subtitle, !subtitle.isEmpty {
            html.element("p", ["class": "detail-subtitle"], text: subtitle)
        }
        html.open("div", ["class": "detail-actions"])
        favoriteControl(
            record, definition: definition, strings: strings, session: session, isFavorite: isFavorite, origin: origin,
            into: &html)
        // Shared through the system's share sheet where there is one, else the link is copied; a
        // page without the script has its address in the address bar, so the button stays hidden.
        html.element(
            "button",
            [
                "type": "button", "class": "share", "hidden": "", "data-title": record.title,
                "data-url": WebPaths.item(definition.id, record.id), "data-copied": strings[.linkCopied],
            ], text: strings[.share])
        if canEdit {
            html.element(
                "a",
                [
                    "class": "edit-link", "id": "edit-link",
                    "href": WebPaths.item(definition.id, record.id) + "/edit" + origin.query,
                ], text: strings[.edit])
        }
        html.close("div")
        html.open("dl", ["class": "facts"])
        func fact(_ name: String, _ value: String) {
            html.element("dt", text: name)
            html.element("dd", text: value)
        }
        func label(_ field: String) -> String { strings.fieldLabel(field, definition: definition) }
        if !record.categories.isEmpty { fact(label("categories"), record.categories.joined(separator: ", ")) }
        if let price = record.price { fact(label("price"), strings.price(price, currency: record.currency)) }
        if let quantity = record.quantity { fact(label("quantity"), strings.number(quantity)) }
        if let country = record.country, !country.isEmpty {
            html.element("dt", text: label("country"))
            html.element("dd") {
                RowView.flag(country, strings: strings, into: &$0)
                let region = CountryCode(country)?.text ?? country.uppercased()
                $0.text(" " + (strings.locale.localizedString(forRegionCode: region) ?? country))
            }
        }
        for name in RecordDisplay.detailFields(record, definition: definition) {
            fact(label(name), record.fields[name]?.values.joined(separator: ", ") ?? "")
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
            html.element("p", ["class": "description placeholder"], text: strings[.noDescription])
        }
        html.close("article")
    }

    /// The favorite button of catalogs with favorites (those with categories). Signed in, a form
    /// that stores it in the account; signed out, the same button, which the script keeps in the
    /// browser (without the script it leads to the sign-in).
    private static func favoriteControl(
        _ record: Record, definition: CatalogDefinition, strings: WebStrings, session: WebSession, isFavorite: Bool?,
        origin: Origin, into html: inout HTMLWriter
    ) {
        guard !definition.categories.isEmpty else { return }
        let isFavorite = isFavorite ?? false
        let here = WebPaths.item(definition.id, record.id) + origin.query
        html.open(
            "form",
            [
                "method": "post", "action": WebPaths.item(definition.id, record.id) + "/favorite" + origin.query,
                "class": "favorite-form", "data-item": record.id, "data-catalog": definition.id,
                "data-signed-in": session.user == nil ? nil : "",
            ])
        html.element("input", ["type": "hidden", "name": "csrf", "value": session.csrf])
        html.element("input", ["type": "hidden", "name": "favorite", "value": isFavorite ? "0" : "1"])
        html.element(
            "button",
            [
                "type": "submit", "class": "favorite", "id": "favorite", "aria-pressed": isFavorite ? "true" : "false",
                "data-add": strings[.addFavorite], "data-remove": strings[.removeFavorite],
            ]
        ) {
            $0.raw("<span aria-hidden=\"true\" class=\"star\"></span> ")
            $0.element(
                "span", ["class": "favorite-label"], text: isFavorite ? strings[.removeFavorite] : strings[.addFavorite]
            )
        }
        html.close("form")
        if session.user == nil {
            html.element("p", ["class": "favorite-hint"]) {
                $0.element("a", ["href": "/signin?next=" + WebPaths.encode(here)], text: strings[.signInForFavorites])
            }
        }
    }
}
