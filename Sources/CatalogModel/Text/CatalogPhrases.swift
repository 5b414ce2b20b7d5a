/// The words a catalog's screens use, in its language (German, Hungarian; English otherwise):
/// what an app built on the client library shows, and what `catalog browse` shows.
///
/// ```swift
/// let phrases = CatalogPhrases.forLocale(detail.locale)
/// label.text = record.description ?? phrases.noDescription   // "(Keine Daten hinterlegt)"
/// ```
public struct CatalogPhrases: Sendable, Equatable {
    /// The language (`de`, `hu`, `en`).
    public var language: String
    public var catalogs: String
    public var search: String
    public var noResults: String
    /// What a detail page shows for a record without a description.
    public var noDescription: String
    /// The label before a record's categories ("Kategorie …").
    public var category: String
    public var categories: String
    public var list: String
    public var hot: String
    public var favorites: String
    public var noFavorites: String
    public var addFavorite: String
    public var removeFavorite: String
    public var signIn: String
    public var signOut: String
    public var signInForFavorites: String
    public var wrongCredentials: String
    public var name: String
    public var password: String
    public var price: String
    public var quantity: String
    public var country: String
    public var results: String
    /// The header before search results that matched only through a typo.
    public var similarSpelling: String
    public var loading: String
    public var unreachable: String
    public var retry: String
    public var back: String

    /// The phrases of a locale (`de`, `de-AT`, `hu`, …; English for others).
    public static func forLocale(_ locale: String) -> CatalogPhrases {
        switch locale.prefix(2).lowercased() {
        case "de": german
        case "hu": hungarian
        default: english
        }
    }

    public static let english = CatalogPhrases(
        language: "en", catalogs: "Catalogs", search: "Search", noResults: "No results",
        noDescription: "(No details available)", category: "Category", categories: "Categories", list: "List",
        hot: "Hot", favorites: "Favorites", noFavorites: "No favorites yet.", addFavorite: "Add to favorites",
        removeFavorite: "Remove from favorites", signIn: "Sign in", signOut: "Sign out",
        signInForFavorites: "Sign in to keep favorites.", wrongCredentials: "Wrong name or password.", name: "Name",
        password: "Password", price: "Price", quantity: "Quantity", country: "Country", results: "results",
        similarSpelling: "Similar spelling", loading: "Loading…", unreachable: "The server cannot be reached.",
        retry: "Retry", back: "Back")

    public static let german = CatalogPhrases(
        language: "de", catalogs: "Kataloge", search: "Suchen", noResults: "Keine Treffer",
        noDescription: "(Keine Daten hinterlegt)", category: "Kategorie", categories: "Kategorien", list: "Liste",
        hot: "Empfohlen", favorites: "Favoriten", noFavorites: "Noch keine Favoriten.",
        addFavorite: "Zu den Favoriten", removeFavorite: "Aus den Favoriten entfernen", signIn: "Anmelden",
        signOut: "Abmelden", signInForFavorites: "Melden Sie sich an, um Favoriten zu speichern.",
        wrongCredentials: "Name oder Passwort falsch.", name: "Name", password: "Passwort", price: "Preis",
        quantity: "Menge", country: "Land", results: "Treffer",
        similarSpelling: "Ähnliche Schreibweise", loading: "Laden…",
        unreachable: "Der Server ist nicht erreichbar.", retry: "Erneut versuchen", back: "Zurück")

    public static let hungarian = CatalogPhrases(
        language: "hu", catalogs: "Katalógusok", search: "Keresés", noResults: "Nincs találat",
        noDescription: "(Nincs leírás)", category: "Kategória", categories: "Kategóriák", list: "Lista",
        hot: "Ajánlott", favorites: "Kedvencek", noFavorites: "Még nincsenek kedvencek.",
        addFavorite: "Kedvencekhez", removeFavorite: "Törlés a kedvencek közül", signIn: "Belépés",
        signOut: "Kilépés", signInForFavorites: "Jelentkezzen be a kedvencek mentéséhez.",
        wrongCredentials: "Hibás név vagy jelszó.", name: "Név", password: "Jelszó", price: "Ár",
        quantity: "Mennyiség", country: "Ország", results: "találat",
        similarSpelling: "Hasonló írásmód", loading: "Betöltés…",
        unreachable: "A szerver nem érhető el.", retry: "Újra", back: "Vissza")
}
