import CatalogCore
import CatalogHTTP
import CatalogModel
import CatalogStorage

/// `/c/{id}/settings` *(script)*: a catalog's settings, for its owners (``CatalogAction/manageCatalog``):
/// the title, the description, the locale, who may see it (``CatalogVisibility``), and the label of
/// each field in the catalog's language; for those who
/// may delete it, a danger section whose Delete button is enabled only once the catalog's id is
/// typed.
///
/// The script (`catalog-settings.js`) sends the changes as a JSON merge patch (`PATCH
/// /c/{id}/settings`, the API's own `PATCH /api/v1/catalogs/{id}` for the web session, with the
/// page's revision in `If-Match`) and shows each problem of a 422 beside the control its pointer
/// names; Delete sends `DELETE /c/{id}/settings` and goes home, which says what was deleted.
struct CatalogSettingsPage {
    let catalog: StoredCatalog
    let session: WebSession
    let locales: [(tag: String, name: String)]
    let canDelete: Bool

    var definition: CatalogDefinition { catalog.definition }
    var strings: WebStrings { WebStrings.forLocale(definition.locale) }

    /// The fields whose labels can be set: the roles the catalog's records use, then the other
    /// fields (not the source fields that feed roles: records keep those under the role's name).
    var fields: [String] {
        var names = Role.allCases.filter { $0 == .title || definition.mapping[$0] != nil }.map(\.rawValue)
        let roleSources = Set(definition.mapping.values)
        for name in definition.fieldOrder
        where Role(rawValue: name) == nil && !roleSources.contains(name) && !names.contains(name) {
            names.append(name)
        }
        return names
    }

    func render() -> Response {
        let strings = strings
        let id = definition.id
        var layout = PageLayout(
            title: strings.format(.settingsOf, ["title": definition.title]), strings: strings,
            back: (WebPaths.catalog(id), definition.title), catalog: definition, session: session)
        layout.here = WebPaths.catalog(id) + "/settings"
        let language = strings.language
        return layout.render { html in
            html.open(
                "form",
                [
                    "class": "editor owner", "id": "catalog-settings", "novalidate": "",
                    "aria-labelledby": "bar-title", "data-catalog": id,
                    "data-revision": CatalogManagementAPI.etag(catalog.revision), "data-language": language,
                    "data-done": WebPaths.catalog(id),
                ])
            html.raw("<noscript>")
            html.element("p", ["class": "notice"], text: strings[.pageNeedsScript])
            html.raw("</noscript>")
            html.element(
                "div", ["class": "problems", "id": "owner-error", "role": "alert", "tabindex": "-1", "hidden": ""])
            OwnerFields.text(
                id: "s-title", name: "title", label: strings[.catalogTitle], pointer: "/title", value: definition.title,
                attributes: ["maxlength": "200"], into: &html)
            OwnerFields.multiline(
                id: "s-description", name: "description", label: strings[.catalogDescription],
                hint: strings[.catalogDescriptionHint], pointer: "/description", value: definition.description,
                maxLength: CatalogDocument.maxDescriptionLength, into: &html)
            OwnerFields.locale(
                id: "s-locale", selected: definition.locale, locales: locales, strings: strings, into: &html)
            visibility(into: &html)
            html.open("fieldset", ["class": "field labels"])
            html.element("legend", text: strings[.fieldLabels])
            for (index, field) in fields.enumerated() {
                let control = "s-label-\(index)"
                let label = definition.fieldLabels[field]?[language]
                html.open("div", ["class": "label-row"])
                html.element("label", ["for": control], text: field)
                html.element(
                    "input",
                    [
                        "type": "text", "id": control, "data-field": field, "value": label,
                        "placeholder": strings.fieldLabel(field, definition: definition),
                        "data-pointer": EditPage.pointer("labels", field, language), "maxlength": "200",
                        "aria-describedby": control + "-error",
                    ])
                html.element("p", ["class": "field-error", "id": control + "-error", "hidden": ""])
                html.close("div")
            }
            html.close("fieldset")
            html.open("div", ["class": "editor-actions"])
            html.element(
                "button", ["type": "submit", "class": "primary", "id": "save-settings"], text: strings[.saveSettings])
            html.element("a", ["class": "cancel", "href": WebPaths.catalog(id)], text: strings[.cancel])
            html.close("div")
            html.close("form")
            if canDelete { danger(into: &html) }
        }
    }

    /// Who may see the catalog: one radio button per ``CatalogVisibility``, each with what it
    /// means.
    private func visibility(into html: inout HTMLWriter) {
        let choices: [(CatalogVisibility, WebStrings.Key, WebStrings.Key)] = [
            (.public, .visibilityPublic, .visibilityPublicHelp),
            (.signedIn, .visibilitySignedIn, .visibilitySignedInHelp),
            (.members, .visibilityMembers, .visibilityMembersHelp),
        ]
        html.open(
            "fieldset", ["class": "field visibility", "id": "s-visibility", "aria-describedby": "s-visibility-error"])
        html.element("legend", text: strings[.visibility])
        for (value, label, help) in choices {
            let control = "s-visibility-\(value.rawValue)"
            // The label holds its radio button, so the whole line is the touch target.
            html.open("div", ["class": "choice"])
            html.open("label", ["for": control])
            html.element(
                "input",
                [
                    "type": "radio", "name": "visibility", "id": control, "value": value.rawValue,
                    "data-pointer": "/visibility", "checked": definition.visibility == value ? "" : nil,
                    "aria-describedby": control + "-help",
                ])
            html.element("span", text: strings[label])
            html.close("label")
            html.element("p", ["class": "hint", "id": control + "-help"], text: strings[help])
            html.close("div")
        }
        html.element("p", ["class": "field-error", "id": "s-visibility-error", "hidden": ""])
        html.close("fieldset")
    }

    /// Delete, behind typing the catalog's id.
    private func danger(into html: inout HTMLWriter) {
        let id = definition.id
        html.open(
            "section",
            [
                "class": "editor owner danger-zone", "id": "danger-zone", "aria-labelledby": "danger-title",
                "data-catalog": id,
            ])
        html.element("h2", ["id": "danger-title"], text: strings[.dangerZone])
        html.element("p", ["id": "delete-help"], text: strings[.deleteHelp])
        html.open("div", ["class": "field"])
        html.element("label", ["for": "delete-confirm"], text: strings.format(.deleteConfirm, ["id": id]))
        html.element(
            "input",
            [
                "type": "text", "id": "delete-confirm", "autocomplete": "off", "autocapitalize": "off",
                "spellcheck": "false", "aria-describedby": "delete-help",
            ])
        html.close("div")
        html.element(
            "button", ["type": "button", "class": "danger", "id": "delete-catalog", "disabled": ""],
            text: strings[.deleteCatalog])
        html.close("section")
    }
}
