import CatalogModel
import Foundation

/// The search's filters: a sheet on a phone, a panel beside the results on a wide screen. Facet
/// values with their counts under the current query and filters (categories: all checked must
/// hold; countries: any checked may hold), a price range and the sort order. The controls belong
/// to the search form (`form="search-form"`), so without the script "Show results" submits them
/// with the query; with it every change searches at once and only replaces the URL.
struct FilterPanel {
    let definition: CatalogDefinition
    let strings: WebStrings
    let state: ListState
    /// The category a category page already lists (not offered again).
    let category: String?
    /// The list page's path.
    let base: String
    /// The catalog's scopes: a category a scope button already selects is not offered again.
    var scopes: [ScopeDefinition] = []
    /// The record fields the sheet offers, from the catalog's filterable fields.
    var fields: [SheetField] = []

    /// A record field the sheet offers: its values with their counts (a text field of few
    /// values), or a range with the values' real bounds (numbers, dates).
    struct SheetField: Equatable {
        var name: String
        var kind: Kind

        enum Kind: Equatable {
            /// Checkboxes, one per value, with counts (`f:NAME`).
            case values
            /// From and to (`min:NAME`, `max:NAME`): numbers, or dates (`YYYY-MM-DD`).
            case range(lower: String, upper: String, dates: Bool)
        }
    }

    /// Lists of more values than this get a search field of their own.
    static let searchableListLength = 12
    /// The most record fields the sheet offers.
    static let maxFields = 12

    /// The record fields the sheet offers for a catalog whose fields are `fields` (``CatalogField``,
    /// from its settings or by default from its data): a range for each filterable number or date
    /// field, a value list for each facet field; at most ``maxFields``, the most common first.
    static func sheetFields(_ fields: [CatalogField]) -> [SheetField] {
        let offered = fields.filter { field in
            field.kind == .text ? field.facet : field.filterable && field.min != nil && field.max != nil
        }
        return offered.sorted { $0.records != $1.records ? $0.records > $1.records : $0.name < $1.name }
            .prefix(maxFields).map { field in
                switch field.kind {
                case .text: return SheetField(name: field.name, kind: .values)
                case .number:
                    return SheetField(
                        name: field.name,
                        kind: .range(lower: bound(field.min!), upper: bound(field.max!), dates: false))
                case .date:
                    return SheetField(
                        name: field.name,
                        kind: .range(lower: day(field.min!), upper: day(field.max!), dates: true))
                }
            }
    }

    /// A number as an input shows it: whole numbers without a fraction.
    static func bound(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// Seconds since 1970 as the day (`YYYY-MM-DD`, UTC) a date input takes.
    private static func day(_ seconds: Double) -> String {
        String(CatalogField.isoDate(seconds).prefix(10))
    }

    /// Whether the catalog has prices to filter and sort by: a source field feeds the price role
    /// (mapped to it, or named like it).
    var hasPrices: Bool {
        let source = definition.sourceName(for: .price)
        return !source.isEmpty && (definition.mapping[.price] != nil || definition.fieldOrder.contains(source))
    }

    /// The record fields the catalog sorts by (``CatalogReader/sortableFields(of:)``).
    var sortableFields: [String] = []

    /// The orders the catalog offers, with their words: best match and by name, by price in a
    /// catalog with prices (a catalog without them is not sorted by them; one that sorts so already
    /// keeps it), and each sortable field both ways, named by its label in the page's language. An
    /// order a link asked for that is none of these is offered as it is written.
    var sorts: [(sort: SearchSort, label: String)] {
        var sorts: [(SearchSort, String)] = [
            (.relevance, strings[.sortRelevance]), (.title, strings[.sortTitle]),
            (.titleDescending, strings[.sortTitleDescending]),
        ]
        if hasPrices || state.sort == .price || state.sort == .priceDescending {
            sorts += [(.price, strings[.sortPrice]), (.priceDescending, strings[.sortPriceDescending])]
        }
        for field in sortableFields {
            let label = definition.fieldLabel(field, language: strings.language) ?? field
            sorts.append(
                (
                    SearchSort(keys: [SearchSort.Key(.field(field))]),
                    strings.format(.sortFieldAscending, ["field": label])
                ))
            sorts.append(
                (
                    SearchSort(keys: [SearchSort.Key(.field(field), descending: true)]),
                    strings.format(.sortFieldDescending, ["field": label])
                ))
        }
        if !sorts.contains(where: { $0.0 == state.sort }) { sorts.append((state.sort, state.sort.rawValue)) }
        return sorts
    }

    /// - Parameter total: the records the search finds (the sheet's "Show N results" button).
    func write(_ facets: [String: [FacetCount]], total: Int, into html: inout HTMLWriter) {
        html.open("section", ["class": "filters", "id": "filters", "aria-labelledby": "filters-title"])
        html.open("div", ["class": "filters-head"])
        html.element("h2", ["id": "filters-title"], text: strings[.filters])
        html.element("a", ["class": "filters-close", "href": "#results", "id": "filters-close"], text: strings[.close])
        html.close("div")
        html.open("label", ["class": "filter-sort"])
        html.element("span", text: strings[.sort])
        html.open("select", ["name": "sort", "form": "search-form", "id": "sort"])
        for (sort, label) in sorts {
            html.element("option", ["value": sort.rawValue, "selected": state.sort == sort ? "" : nil], text: label)
        }
        html.close("select")
        html.close("label")
        writeFacets(facets, into: &html)
        if hasPrices || state.price != nil { writePriceRange(into: &html) }
        for field in fields {
            if case .range(let lower, let upper, let dates) = field.kind {
                writeRange(field.name, lower: lower, upper: upper, dates: dates, into: &html)
            }
        }
        html.open("div", ["class": "filter-actions"])
        html.element("button", ["type": "submit", "form": "search-form", "class": "apply"], text: strings[.apply])
        // With the script, on a phone: closes the sheet over the results it counts.
        html.element(
            "button", ["type": "button", "class": "show-results", "id": "show-results"],
            text: strings.plural(.showResults, total))
        var cleared = state
        cleared.categories = []
        cleared.countries = []
        cleared.price = nil
        cleared.fields = []
        cleared.sort = .relevance
        html.element(
            "a", ["class": "reset", "id": "filters-reset", "href": base + cleared.backQuery],
            text: strings[.resetFilters])
        html.close("div")
        html.close("section")
    }

    /// The price range: only in a catalog with prices (or when a link set one).
    private func writePriceRange(into html: inout HTMLWriter) {
        html.open("fieldset", ["class": "facet price-range"])
        html.element("legend", text: strings[.priceRange])
        let low = state.price?.lower.map { DecimalText.format($0) } ?? ""
        let high = state.price?.upper.map { DecimalText.format($0) } ?? ""
        for (name, label, value) in [("pmin", strings[.priceFrom], low), ("pmax", strings[.priceTo], high)] {
            html.open("label")
            html.element("span", text: label)
            html.element(
                "input",
                [
                    "type": "number", "name": name, "form": "search-form", "min": "0", "step": "any", "value": value,
                    "inputmode": "decimal", "id": name,
                ])
            html.close("label")
        }
        html.close("fieldset")
    }

    /// A number or date field's range: two inputs bounded by the values the catalog has.
    private func writeRange(_ name: String, lower: String, upper: String, dates: Bool, into html: inout HTMLWriter) {
        let chosen = state.fields.first { $0.name == name }
        html.open("fieldset", ["class": "facet field-range", "data-field": name])
        html.element("legend", text: strings.fieldLabel(name, definition: definition))
        for (prefix, label, value, hint) in [
            ("min:", strings[.priceFrom], chosen?.lower, lower), ("max:", strings[.priceTo], chosen?.upper, upper),
        ] {
            html.open("label")
            html.element("span", text: label)
            html.element(
                "input",
                [
                    "type": dates ? "date" : "number", "name": prefix + name, "form": "search-form",
                    "min": lower, "max": upper, "step": dates ? nil : "any", "value": value ?? "",
                    "placeholder": hint, "inputmode": dates ? nil : "decimal", "data-range": "",
                ])
            html.close("label")
        }
        html.close("fieldset")
    }

    /// The two facets with their values and counts. Both are always there (hidden while they
    /// have no values), so the script can take them from any search's rows fragment.
    func writeFacets(_ facets: [String: [FacetCount]], into html: inout HTMLWriter) {
        let strings = strings
        // A category a scope button selects by itself is the scope's to offer, not the sheet's.
        let scoped = Set(scopes.filter { $0.categories.count == 1 }.flatMap(\.categories))
        let categories = (facets["categories"] ?? []).filter { $0.value != category && !scoped.contains($0.value) }
        facet(
            "category", title: strings.fieldLabel("categories", definition: definition),
            values: merged(categories, selected: state.categories), selected: Set(state.categories),
            label: { $0 }, into: &html)
        facet(
            "country", title: strings.fieldLabel("country", definition: definition),
            values: merged(facets["country"] ?? [], selected: state.countries.map(\.text)),
            selected: Set(state.countries.map(\.text)),
            label: { strings.locale.localizedString(forRegionCode: $0) ?? $0 }, into: &html)
        for field in fields where field.kind == .values {
            let selected = state.fields.first { $0.name == field.name }?.values ?? []
            facet(
                "f:" + field.name, title: strings.fieldLabel(field.name, definition: definition),
                values: merged(facets[field.name] ?? [], selected: selected), selected: Set(selected),
                label: { $0 }, into: &html)
        }
    }

    /// The facet's values, with the selected ones kept even when the search no longer counts them.
    private func merged(_ values: [FacetCount], selected: [String]) -> [FacetCount] {
        let known = Set(values.map(\.value))
        return values + selected.filter { !known.contains($0) }.map { FacetCount(value: $0, count: 0) }
    }

    private func facet(
        _ name: String, title: String, values: [FacetCount], selected: Set<String>,
        label: (String) -> String, into html: inout HTMLWriter
    ) {
        let searchable = values.count > Self.searchableListLength
        if searchable {
            // A long list: its title and a field whose typing narrows the list to the values that
            // contain it (facet-search in search.js), then the values' own group. The field stays
            // outside the group, which holds the checkboxes alone (a group of one kind of input).
            html.open("div", ["class": "facet", "data-facet": name, "hidden": values.isEmpty ? "" : nil])
            html.element("p", ["class": "facet-title", "aria-hidden": "true"], text: title)
            html.element(
                "input",
                [
                    "type": "search", "class": "facet-search", "placeholder": strings[.findValue],
                    "aria-label": title + ": " + strings[.findValue], "autocomplete": "off",
                ])
            html.open("fieldset", ["class": "facet-values"])
            html.element("legend", ["class": "visually-hidden"], text: title)
        } else {
            html.open("fieldset", ["class": "facet", "data-facet": name, "hidden": values.isEmpty ? "" : nil])
            html.element("legend", text: title)
        }
        html.open("ul")
        for value in values {
            html.open("li")
            html.open("label", ["class": "facet-value"])
            html.element(
                "input",
                [
                    "type": "checkbox", "name": name, "value": value.value, "form": "search-form",
                    "checked": selected.contains(value.value) ? "" : nil,
                    // What the offline search compares a record field's value by (OfflineFacts).
                    "data-key": name.hasPrefix("f:") ? FieldValueOrder.valueKey(value.value) : nil,
                ])
            html.element("span", ["class": "facet-label"], text: label(value.value))
            html.element(
                "span", ["class": "facet-count"], text: strings.number(value.count) + (value.capped ? "+" : ""))
            html.close("label")
            html.close("li")
        }
        html.close("ul")
        html.close("fieldset")
        if searchable { html.close("div") }
    }
}
