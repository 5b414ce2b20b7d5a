import CatalogHTTP
import CatalogModel

/// `/new` *(script)*: a new catalog, for users the access policy lets create one. Its id, title
/// and locale, and where its records come from (a file, or a URL); then the preview of the first
/// records as the import will store them, with one control per role naming the source field
/// that fills it; then Import, whose progress bar follows the import's job until the catalog
/// is there.
///
/// The script (`new-catalog.js`) sends the source to `POST /c/{id}/import/preview` and `POST
/// /c/{id}/import` (the API's own preview and job, for the web session, ``OwnerHandler``) with
/// the mapping as `field=ROLE=NAME`, and follows `GET /imports/{job}`. Every control names the
/// JSON pointer or parameter its problems are reported at (`data-pointer`).
struct NewCatalogPage {
    let session: WebSession
    let strings: WebStrings
    /// The locales a catalog may have, with their names in the page's language.
    let locales: [(tag: String, name: String)]

    func render() -> Response {
        let strings = strings
        var layout = PageLayout(title: strings[.newCatalog], strings: strings, session: session)
        layout.back = ("/", strings[.catalogs])
        layout.here = "/new"
        return layout.render { html in
            html.open(
                "form",
                ["class": "editor owner", "id": "new-catalog", "novalidate": "", "aria-labelledby": "bar-title"])
            html.raw("<noscript>")
            html.element("p", ["class": "notice"], text: strings[.pageNeedsScript])
            html.raw("</noscript>")
            OwnerFields.text(
                id: "n-id", name: "id", label: strings[.catalogID], hint: strings[.catalogIDHint], pointer: "/id",
                attributes: ["autocapitalize": "off", "spellcheck": "false", "maxlength": "64"], into: &html)
            OwnerFields.text(
                id: "n-title", name: "title", label: strings[.catalogTitle], pointer: "/title",
                attributes: ["maxlength": "200"], into: &html)
            OwnerFields.locale(
                id: "n-locale", selected: strings.language, locales: locales, strings: strings, into: &html)
            html.open(
                "fieldset",
                ["class": "field", "id": "n-source", "data-pointer": "/source", "aria-describedby": "n-source-error"])
            html.element("legend", text: strings[.sourceLegend])
            html.element("label", ["for": "n-file"], text: strings[.sourceFile])
            html.element(
                "input",
                [
                    "type": "file", "id": "n-file", "name": "file",
                    "accept": ".csv,.tsv,.json,.xml,.sqlite,.db,text/csv,application/json,application/xml,text/xml",
                ])
            html.element("label", ["for": "n-url"], text: strings[.sourceURL])
            html.element(
                "input", ["type": "url", "id": "n-url", "name": "url", "inputmode": "url", "placeholder": "https://"])
            html.element("p", ["class": "field-error", "id": "n-source-error", "hidden": ""])
            html.close("fieldset")
            html.open("div", ["class": "editor-actions"])
            html.element(
                "button", ["type": "submit", "class": "primary", "id": "preview-button"], text: strings[.showPreview])
            html.element("a", ["class": "cancel", "href": "/"], text: strings[.cancel])
            html.close("div")
            html.element(
                "div", ["class": "problems", "id": "owner-error", "role": "alert", "tabindex": "-1", "hidden": ""])
            preview(into: &html)
            progress(into: &html)
            html.close("form")
        }
    }

    /// The preview: the mapping controls (one per role; the script fills in the source's fields)
    /// and the first records as a table the script draws from the preview's JSON.
    private func preview(into html: inout HTMLWriter) {
        html.open("section", ["class": "preview", "id": "preview", "aria-labelledby": "preview-title", "hidden": ""])
        html.element("h2", ["id": "preview-title"], text: strings[.showPreview])
        html.element("p", ["id": "preview-summary", "aria-live": "polite"])
        html.element("ul", ["class": "preview-problems", "id": "preview-problems"])
        html.open("fieldset", ["class": "mapping", "id": "mapping"])
        html.element("legend", text: strings[.mappingTitle])
        for role in Role.allCases {
            html.open("div", ["class": "mapping-role"])
            html.element("label", ["for": "map-" + role.rawValue], text: strings.role(role))
            html.open("select", ["id": "map-" + role.rawValue, "data-role": role.rawValue])
            html.element("option", ["value": ""], text: strings[.mappingDetected])
            html.close("select")
            html.close("div")
        }
        html.close("fieldset")
        html.element(
            "div", ["class": "preview-table", "tabindex": "0", "role": "region", "aria-labelledby": "preview-title"]
        ) {
            $0.element("table", ["id": "preview-table"])
        }
        html.open("div", ["class": "editor-actions"])
        html.element(
            "button", ["type": "button", "class": "primary", "id": "import-button"], text: strings[.startImport])
        html.close("div")
        html.close("section")
    }

    /// The import's progress: a bar the script moves as the job reads the source.
    private func progress(into html: inout HTMLWriter) {
        html.open("section", ["class": "import-progress", "id": "import-progress", "hidden": ""])
        html.element("p", ["id": "progress-label"], text: strings[.importing])
        html.element(
            "div",
            [
                "class": "progress", "id": "progress", "role": "progressbar", "aria-labelledby": "progress-label",
                "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": "0",
            ]
        ) {
            $0.element("div", ["class": "progress-fill", "id": "progress-fill"])
        }
        html.element("p", ["id": "progress-text", "aria-live": "polite"])
        html.close("section")
    }
}

/// The controls the owner's pages share: a labelled text field with its hint and error line,
/// and the locale picker.
enum OwnerFields {
    static func text(
        id: String, name: String, label: String, hint: String? = nil, pointer: String, value: String? = nil,
        attributes: [String: String] = [:], into html: inout HTMLWriter
    ) {
        html.open("div", ["class": "field"])
        html.element("label", ["for": id], text: label)
        if let hint { html.element("p", ["class": "hint", "id": id + "-hint"], text: hint) }
        let described = ([hint == nil ? nil : id + "-hint", id + "-error"] as [String?]).compactMap { $0 }
        html.element(
            "input",
            [
                "type": "text", "id": id, "name": name, "value": value, "data-pointer": pointer,
                "aria-describedby": described.joined(separator: " "), "autocapitalize": attributes["autocapitalize"],
                "spellcheck": attributes["spellcheck"], "maxlength": attributes["maxlength"],
            ])
        html.element("p", ["class": "field-error", "id": id + "-error", "hidden": ""])
        html.close("div")
    }

    /// A text of several lines (a catalog's description), with its hint and its problem's place.
    static func multiline(
        id: String, name: String, label: String, hint: String, pointer: String, value: String?, maxLength: Int,
        into html: inout HTMLWriter
    ) {
        html.open("div", ["class": "field"])
        html.element("label", ["for": id], text: label)
        html.element("p", ["class": "hint", "id": id + "-hint"], text: hint)
        html.element(
            "textarea",
            [
                "id": id, "name": name, "data-pointer": pointer, "rows": "3", "maxlength": String(maxLength),
                "aria-describedby": id + "-hint " + id + "-error",
            ], text: value ?? "")
        html.element("p", ["class": "field-error", "id": id + "-error", "hidden": ""])
        html.close("div")
    }

    static func locale(
        id: String, selected: String, locales: [(tag: String, name: String)], strings: WebStrings,
        into html: inout HTMLWriter
    ) {
        html.open("div", ["class": "field"])
        html.element("label", ["for": id], text: strings[.catalogLocale])
        html.open(
            "select", ["id": id, "name": "locale", "data-pointer": "/locale", "aria-describedby": id + "-error"])
        var listed = locales
        if !listed.contains(where: { $0.tag == selected }) { listed.insert((selected, selected), at: 0) }
        for locale in listed {
            html.element(
                "option", ["value": locale.tag, "selected": locale.tag == selected ? "" : nil],
                text: locale.name == locale.tag ? locale.tag : "\(locale.name) (\(locale.tag))")
        }
        html.close("select")
        html.element("p", ["class": "field-error", "id": id + "-error", "hidden": ""])
        html.close("div")
    }
}
