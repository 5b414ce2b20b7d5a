import CatalogModel

/// What a scope is: the one rule every engine, the API's catalog metadata, the web app and the
/// client library follow.
///
/// A catalog's definition may list its scopes (the sequencers catalog: Alle, Windows, Apple,
/// Apple&Win); a scope selects the records carrying every one of its categories, and one with no
/// categories selects everything. A catalog that defines none gets "All" in its language
/// followed by its largest categories (at most ``maxDefaultScopes`` buttons in all), in the
/// categories' display order.
public enum CatalogScopes {
    /// The most scopes offered when a catalog defines none: "All" plus its largest categories.
    public static let maxDefaultScopes = 16

    /// The scopes of a catalog.
    ///
    /// - Parameters:
    ///   - definition: the catalog's definition.
    ///   - categories: its categories with their record counts, in display order.
    public static func scopes(of definition: CatalogDefinition, categories: [CategoryCount]) -> [ScopeDefinition] {
        if !definition.scopes.isEmpty { return definition.scopes }
        let all = ScopeDefinition(label: allLabel(locale: definition.locale), categories: [])
        let largest = categories.filter { $0.count > 0 }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name }
            .prefix(maxDefaultScopes - 1).map(\.name)
        let keep = Set(largest)
        return [all]
            + categories.filter { keep.contains($0.name) }.map {
                ScopeDefinition(label: $0.name, categories: [$0.name])
            }
    }

    /// The label of the scope that selects everything, in the catalog's language.
    public static func allLabel(locale: String) -> String {
        switch locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map({ $0.lowercased() }) ?? "" {
        case "de": "Alle"
        case "hu": "Összes"
        case "fr": "Tout"
        case "es": "Todo"
        case "it": "Tutti"
        case "sv": "Alla"
        case "cs": "Vše"
        case "nl": "Alle"
        case "pt": "Todos"
        case "pl": "Wszystko"
        case "da", "nb", "no": "Alle"
        case "fi": "Kaikki"
        default: "All"
        }
    }
}
