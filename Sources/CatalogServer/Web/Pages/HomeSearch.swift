import CatalogCore
import CatalogHTTP
import CatalogModel
import CatalogStorage
import Foundation

/// `/search?q=`: one search across every catalog the visitor may see, its best records grouped
/// by catalog (each group in the catalog's own language, linking to the whole search there).
/// The home page's search field shows it as you type, fetching `/search?q=…&fragment=1`, which
/// answers the groups alone (``writeGroups(into:)``).
struct HomeSearch {
    /// One catalog's part of the answer.
    struct Group {
        var catalog: StoredCatalog
        var response: SearchResponse
    }

    /// What was searched for, trimmed.
    let query: String
    /// The catalogs with matches, in the catalog list's order.
    let groups: [Group]
    /// True when there were more catalogs than one search looks through (``maxCatalogs``).
    let truncated: Bool

    /// Records shown per catalog; the group's link shows them all.
    static let perCatalog = 5
    /// The most catalogs one search looks through.
    static let maxCatalogs = 50

    /// Searches `catalogs` (already those the visitor may see) for `query`.
    ///
    /// - Throws: a 400 when the query is one search refuses (too long), else what the store throws.
    static func run(_ query: String, in catalogs: [CatalogSummary], store: any CatalogReader) throws -> HomeSearch {
        let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return HomeSearch(query: "", groups: [], truncated: false) }
        let request: SearchRequest.Checked
        do {
            request = try SearchRequest(query: trimmed, limit: perCatalog).checked()
        } catch {
            throw HTTPError.badParameter(error.message)
        }
        var groups: [Group] = []
        for summary in catalogs.prefix(maxCatalogs) {
            guard let catalog = try store.catalog(summary.id) else { continue }
            let response = try store.search(request, in: catalog).response()
            if !response.items.isEmpty { groups.append(Group(catalog: catalog, response: response)) }
        }
        return HomeSearch(query: trimmed, groups: groups, truncated: catalogs.count > maxCatalogs)
    }

    /// The groups (or the words for none), as the page and the fragment show them.
    func writeGroups(strings: WebStrings, into html: inout HTMLWriter) {
        html.open("div", ["class": "home-results", "id": "home-results", "data-query": query])
        if !query.isEmpty && groups.isEmpty {
            html.open("div", ["class": "empty", "id": "home-empty"])
            html.element("p", ["class": "empty-title"], text: strings[.noResults])
            html.element("p", ["class": "empty-help"], text: strings[.noResultsHelp])
            html.close("div")
        }
        for group in groups {
            let definition = group.catalog.definition
            let local = WebStrings.forLocale(definition.locale)
            let all = WebPaths.catalog(definition.id) + WebPaths.query([("q", query), ("search", "1")])
            html.open("section", ["class": "home-group", "lang": definition.locale, "aria-label": definition.title])
            html.open("h2", ["class": "home-group-title"])
            html.element("a", ["href": all], text: definition.title)
            html.element("span", ["class": "count"], text: ListPage.total(group.response, strings: local))
            html.close("h2")
            let context = RowView.Context(
                definition: definition, strings: local,
                thumbnails: group.response.items.contains { $0.record.image != nil },
                backQuery: WebPaths.query([("q", query), ("search", "1")]))
            html.open("ol", ["class": "rows"])
            for (index, hit) in group.response.items.enumerated() {
                RowView.write(
                    hit.record, context: context, matches: hit.matches, snippet: hit.snippet, position: index,
                    into: &html)
            }
            html.close("ol")
            if group.response.total > group.response.items.count || group.response.totalCapped {
                html.element("a", ["class": "more home-more", "href": all], text: local[.showAll])
            }
            html.close("section")
        }
        html.close("div")
    }
}
