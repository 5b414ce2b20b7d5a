import CatalogCore
import CatalogHTTP
import CatalogModel
import CatalogStorage
import CatalogSupport
import Foundation

/// `/c/{id}/i/{item}/edit` and `/c/{id}/new` *(script)*: a record's editor, for users the access
/// policy lets change the catalog. One field per role under the catalog's labels (title,
/// subtitle, description, categories as chips, price with its currency, quantity, a country
/// picker with the flag, picture), the other fields as text, translations (`title@de`) grouped by
/// language. The script (`editor.js`) sends the record as the API's JSON (`PUT /c/{id}/i/{item}`
/// with the page's ETag in `If-Match`, ``EditHandler``) and shows each problem of a 422 beside its
/// field: every control names the JSON pointer it fills (`data-pointer`).
struct EditPage {
    let catalog: StoredCatalog
    /// The record as stored, with its JSON and ETag; nil for a new record.
    let stored: (record: Record, json: [UInt8], etag: String)?
    let session: WebSession
    let origin: DetailPage.Origin
    let tabs: [PageLayout.Tab]

    var definition: CatalogDefinition { catalog.definition }
    var strings: WebStrings { WebStrings.forLocale(definition.locale) }

    /// A field's JSON pointer, escaped as RFC 6901 says (`~0`, `~1`).
    static func pointer(_ parts: String...) -> String {
        parts.map { "/" + $0.replacingScalars(of: "~", with: "~0").replacingScalars(of: "/", with: "~1") }
            .joined()
    }

    func render() -> Response {
        let strings = strings
        let id = definition.id
        let record = stored?.record
        let list = WebPaths.catalog(id) + origin.query
        let detail = record.map { WebPaths.item(id, $0.id) + origin.query }
        var layout = PageLayout(
            title: record.map { strings.format(.editRecord, ["title": $0.title]) } ?? strings[.newRecord],
            strings: strings, back: (detail ?? list, record?.title ?? definition.title), catalog: definition,
            session: session, tabs: tabs)
        layout.here =
            (record.map { WebPaths.item(id, $0.id) + "/edit" } ?? WebPaths.catalog(id) + "/new") + origin.query
        return layout.render { html in
            html.open(
                "form",
                [
                    "class": "editor", "id": "editor", "novalidate": "", "aria-labelledby": "bar-title",
                    "data-catalog": id, "data-item": record?.id, "data-etag": stored?.etag,
                    "data-done": detail, "data-list": list, "data-origin": origin.query,
                    "data-decimal": strings.locale.decimalSeparator ?? ".",
                    "data-featured": record?.featured.map(String.init),
                ])
            html.raw("<noscript>")
            html.element("p", ["class": "notice"], text: strings[.editNeedsScript])
            html.raw("</noscript>")
            messages(into: &html)
            fields(record, into: &html)
            html.open("div", ["class": "editor-actions"])
            html.element("button", ["type": "submit", "class": "primary", "id": "save"], text: strings[.save])
            html.element("a", ["class": "cancel", "href": detail ?? list, "id": "cancel"], text: strings[.cancel])
            if record != nil {
                html.element(
                    "button", ["type": "button", "class": "danger", "id": "delete"], text: strings[.deleteRecord])
            }
            html.close("div")
            if let stored {
                html.scriptJSON(type: "application/json", String(decoding: stored.json, as: UTF8.self))
            }
            html.close("form")
        }
    }

    /// What a save says: the problems of a 422 (a summary that links to each field), a conflict
    /// (412) with its two ways out, and the save's progress.
    private func messages(into html: inout HTMLWriter) {
        html.open(
            "div",
            [
                "class": "problems", "id": "problems", "tabindex": "-1", "aria-labelledby": "problems-title",
                "hidden": "",
            ])
        html.element("h2", ["id": "problems-title"], text: strings[.problemsTitle])
        html.element("ul", ["id": "problems-list"])
        html.close("div")
        html.open("div", ["class": "conflict", "id": "conflict", "tabindex": "-1", "hidden": ""])
        html.element("p", ["class": "conflict-title", "id": "conflict-title"], text: strings[.conflict])
        html.element("p", text: strings[.conflictHelp])
        html.open("div", ["class": "conflict-actions"])
        html.element("button", ["type": "button", "id": "conflict-reload"], text: strings[.reload])
        html.element(
            "button", ["type": "button", "class": "danger", "id": "conflict-overwrite"], text: strings[.overwrite])
        html.close("div")
        html.close("div")
        html.element("p", ["class": "form-status", "id": "form-status", "role": "status"])
    }

    private func label(_ field: String) -> String { strings.fieldLabel(field, definition: definition) }

    private func fields(_ record: Record?, into html: inout HTMLWriter) {
        if record == nil {
            field("id", label: label("id"), pointer: Self.pointer("id"), value: "", into: &html)
        }
        field("title", label: label("title"), pointer: Self.pointer("title"), value: record?.title ?? "", into: &html)
        field(
            "subtitle", label: label("subtitle"), pointer: Self.pointer("subtitle"), value: record?.subtitle ?? "",
            into: &html)
        field(
            "description", label: label("description"), pointer: Self.pointer("description"),
            value: record?.description ?? "", multiline: true, into: &html)
        categories(record?.categories ?? [], into: &html)
        price(record, into: &html)
        field(
            "quantity", label: label("quantity"), pointer: Self.pointer("quantity"),
            value: record?.quantity.map(String.init) ?? "", mode: "numeric", into: &html)
        country(record?.country, into: &html)
        image(record?.image, into: &html)
        extraFields(record, into: &html)
    }

    /// The picture: its URL as text, a preview, a file to upload in its place (shown before it is
    /// saved; the script stores it after the record, `PUT /c/{id}/i/{item}/image`) and a button
    /// that removes it (a record that no longer names its stored image lets it go).
    private func image(_ value: String?, into html: inout HTMLWriter) {
        html.open("div", ["class": "image-field"])
        field(
            "image", label: label("image"), pointer: Self.pointer("image"), value: value ?? "", mode: "url",
            into: &html)
        let preview = value.map { $0.hasPrefix("/images/") ? $0 + "?size=240" : $0 }
        html.element(
            "img",
            [
                "class": "image-preview", "id": "f-image-preview", "alt": strings[.imagePreview],
                "src": preview, "hidden": preview == nil ? "" : nil,
            ])
        html.open("div", ["class": "image-actions"])
        html.element("label", ["for": "f-image-file"], text: strings[.chooseImage])
        html.element(
            "input",
            [
                "type": "file", "id": "f-image-file", "accept": "image/jpeg,image/png,image/gif,image/webp",
                "data-error": "f-image-error",
            ])
        html.element(
            "button",
            ["type": "button", "id": "f-image-remove", "hidden": value == nil ? "" : nil],
            text: strings[.removeImage])
        html.close("div")
        html.close("div")
    }

    /// One labelled text control with the place of its error.
    private func field(
        _ name: String, label: String, pointer: String, value: String, multiline: Bool = false, mode: String? = nil,
        id: String? = nil, field: String? = nil, kind: String? = nil, json: String? = nil, into html: inout HTMLWriter
    ) {
        let control = id ?? "f-" + name
        html.open("div", ["class": "field"])
        html.element("label", ["for": control], text: label)
        if multiline {
            html.element(
                "textarea",
                [
                    "id": control, "name": name, "rows": "6", "data-pointer": pointer, "data-error": control + "-error",
                    "data-field": field, "data-kind": kind, "data-json": json,
                ], text: value)
        } else {
            html.element(
                "input",
                [
                    "type": "text", "id": control, "name": name, "value": value, "inputmode": mode,
                    "autocomplete": "off", "data-pointer": pointer, "data-error": control + "-error",
                    "data-field": field, "data-kind": kind, "data-json": json,
                ])
        }
        html.element("p", ["class": "field-error", "id": control + "-error", "hidden": ""])
        html.close("div")
    }

    /// Categories as chips with a remove button each, and a field that adds one (the catalog's
    /// categories offered).
    private func categories(_ values: [String], into html: inout HTMLWriter) {
        html.open(
            "fieldset",
            [
                "class": "field chips-field", "id": "f-categories", "data-pointer": Self.pointer("categories"),
                "data-error": "f-categories-error",
            ])
        html.element("legend", text: label("categories"))
        html.open("ul", ["class": "chips", "id": "chips"])
        for (index, value) in values.enumerated() {
            html.open(
                "li", ["class": "chip", "data-value": value, "data-pointer": Self.pointer("categories", String(index))])
            html.element("span", ["class": "chip-label"], text: value)
            html.element(
                "button",
                [
                    "type": "button", "class": "chip-remove",
                    "aria-label": strings.format(.removeCategory, ["name": value]),
                ]
            ) { $0.raw("<span aria-hidden=\"true\">×</span>") }
            html.close("li")
        }
        html.close("ul")
        html.open("div", ["class": "chip-add"])
        html.element("label", ["for": "f-category", "class": "visually-hidden"], text: strings[.newCategory])
        html.element(
            "input",
            [
                "type": "text", "id": "f-category", "list": "category-options", "autocomplete": "off",
                "placeholder": strings[.newCategory], "enterkeyhint": "done",
            ])
        html.element("button", ["type": "button", "id": "category-add"], text: strings[.addCategory])
        html.close("div")
        html.open("datalist", ["id": "category-options"])
        for name in Set(catalog.categories.map(\.name)).sorted() { html.element("option", ["value": name]) }
        html.close("datalist")
        html.element("p", ["class": "field-error", "id": "f-categories-error", "hidden": ""])
        html.close("fieldset")
    }

    /// The price as the locale writes a number ("24,90"), and its currency.
    private func price(_ record: Record?, into html: inout HTMLWriter) {
        let decimal = strings.locale.decimalSeparator ?? "."
        let text = record?.price.map { DecimalText.format($0).replacingOccurrences(of: ".", with: decimal) } ?? ""
        html.open("div", ["class": "field-row"])
        field("price", label: label("price"), pointer: Self.pointer("price"), value: text, mode: "decimal", into: &html)
        html.open("div", ["class": "field"])
        html.element("label", ["for": "f-currency"], text: label("currency"))
        html.open(
            "select",
            [
                "id": "f-currency", "name": "currency", "data-pointer": Self.pointer("currency"),
                "data-error": "f-currency-error",
            ])
        html.element("option", ["value": ""], text: strings[.noCurrency])
        var codes = Set(Locale.commonISOCurrencyCodes.filter { $0.count == 3 })
        if let currency = record?.currency { codes.insert(currency) }
        for code in codes.sorted() {
            let name = strings.locale.localizedString(forCurrencyCode: code).map { " – " + $0 } ?? ""
            html.element(
                "option", ["value": code, "selected": code == record?.currency ? "" : nil], text: code + name)
        }
        html.close("select")
        html.element("p", ["class": "field-error", "id": "f-currency-error", "hidden": ""])
        html.close("div")
        html.close("div")
    }

    /// Every assigned country by its name in the catalog's language, with the chosen one's flag.
    private func country(_ value: String?, into html: inout HTMLWriter) {
        let current = value.flatMap { CountryCode($0)?.text } ?? value
        html.open("div", ["class": "field country-field"])
        html.element("label", ["for": "f-country"], text: label("country"))
        html.open("div", ["class": "country-picker"])
        let flag = current.flatMap { CountryCode($0) }.flatMap(ImageStore.flagPath(of:))
        html.element(
            "img",
            [
                "class": "flag", "id": "f-country-flag", "alt": "", "width": "20", "height": "14",
                "src": flag ?? "data:,", "hidden": flag == nil ? "" : nil,
            ])
        html.open(
            "select",
            [
                "id": "f-country", "name": "country", "data-pointer": Self.pointer("country"),
                "data-error": "f-country-error",
            ])
        html.element("option", ["value": ""], text: strings[.noCountry])
        var countries = CountryCode.assigned.map { code in
            (code: code, name: strings.locale.localizedString(forRegionCode: code) ?? code)
        }
        if let current, !CountryCode.assigned.contains(current) { countries.append((current, current)) }
        countries.sort { $0.name.compare($1.name, locale: strings.locale) == .orderedAscending }
        for country in countries {
            html.element(
                "option",
                [
                    "value": country.code, "selected": country.code == current ? "" : nil,
                    "data-flag": CountryCode(country.code).flatMap(ImageStore.flagPath(of:)),
                ], text: country.name)
        }
        html.close("select")
        html.close("div")
        html.element("p", ["class": "field-error", "id": "f-country-error", "hidden": ""])
        html.close("div")
    }

    /// The other fields as text (their JSON type kept when the text is not changed), then the
    /// translations, one group per language.
    private func extraFields(_ record: Record?, into html: inout HTMLWriter) {
        guard let record, !record.fields.isEmpty else { return }
        let ordered = definition.fieldOrder.filter { record.fields[$0] != nil }
        let names = ordered + record.fields.keys.filter { !ordered.contains($0) }.sorted()
        var plain: [String] = []
        var translated: [String: [(name: String, base: String)]] = [:]
        for name in names {
            if let at = name.lastIndex(of: "@"), at != name.startIndex, name.index(after: at) != name.endIndex {
                translated[String(name[name.index(after: at)...]), default: []].append(
                    (name, String(name[..<at])))
            } else {
                plain.append(name)
            }
        }
        var index = 0
        func write(_ name: String, label: String, into html: inout HTMLWriter) {
            let value = record.fields[name] ?? .null
            field(
                name, label: label, pointer: Self.pointer("fields", name), value: value.values.joined(separator: ", "),
                multiline: value.values.joined().contains("\n"), id: "f-x\(index)", field: name,
                kind: Self.kind(of: value), json: Self.json(value), into: &html)
            index += 1
        }
        if !plain.isEmpty {
            html.open("fieldset", ["class": "group"])
            html.element("legend", text: strings[.otherFields])
            for name in plain { write(name, label: label(name), into: &html) }
            html.close("fieldset")
        }
        guard !translated.isEmpty else { return }
        html.open("fieldset", ["class": "group"])
        html.element("legend", text: strings[.translations])
        for language in translated.keys.sorted() {
            let languageName = strings.locale.localizedString(forLanguageCode: language) ?? language
            html.open("fieldset", ["class": "group translation"])
            html.element("legend", text: "\(languageName) (\(language))")
            for entry in translated[language] ?? [] { write(entry.name, label: label(entry.base), into: &html) }
            html.close("fieldset")
        }
        html.close("fieldset")
    }

    /// A field's value as the API's JSON writes it: what the script sends back for a field whose
    /// text did not change, so a save keeps every value exactly (`1.50` stays `1.50`).
    static func json(_ value: FieldValue) -> String {
        var output = JSONOutput()
        output.value(value)
        return String(decoding: output.bytes, as: UTF8.self)
    }

    /// The JSON type of a field's value, which the script keeps when its text is not changed.
    static func kind(of value: FieldValue) -> String {
        switch value {
        case .text: "text"
        case .number: "number"
        case .bool: "bool"
        case .null: "null"
        case .list: "list"
        }
    }
}
