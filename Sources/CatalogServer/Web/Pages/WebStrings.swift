/// The web app's words in a catalog's language (German, Hungarian, English; English otherwise).
struct WebStrings: Sendable {
    let language: String
    let search: String
    let noResults: String
    let noDescription: String
    let category: String
    let back: String
    let more: String
    let signIn: String
    let signOut: String
    let name: String
    let password: String
    let favorites: String
    let hot: String
    let categories: String
    let all: String
    let addFavorite: String
    let removeFavorite: String
    let unreachable: String
    let retry: String
    let results: String
    let price: String
    let quantity: String
    let country: String
    let signInForFavorites: String
    let wrongCredentials: String
    let catalogs: String
    let index: String
    let cancel: String
    let pickRecord: String
    let noFavorites: String
    let details: String

    static func forLocale(_ locale: String) -> WebStrings {
        switch locale.prefix(2).lowercased() {
        case "de": german
        case "hu": hungarian
        default: english
        }
    }

    static let english = WebStrings(
        language: "en", search: "Search", noResults: "No results", noDescription: "(No details available)",
        category: "Category", back: "Back", more: "More", signIn: "Sign in", signOut: "Sign out", name: "Name",
        password: "Password", favorites: "Favorites", hot: "Hot", categories: "Categories", all: "All",
        addFavorite: "Add to favorites", removeFavorite: "Remove from favorites",
        unreachable: "The server cannot be reached.", retry: "Retry", results: "results", price: "Price",
        quantity: "Quantity", country: "Country", signInForFavorites: "Sign in to keep favorites.",
        wrongCredentials: "Wrong name or password.", catalogs: "Catalogs", index: "Index", cancel: "Cancel",
        pickRecord: "Choose a record to see its details.", noFavorites: "No favorites yet.", details: "Details")

    static let german = WebStrings(
        language: "de", search: "Suchen", noResults: "Keine Treffer", noDescription: "(Keine Daten hinterlegt)",
        category: "Kategorie", back: "Zurück", more: "Mehr", signIn: "Anmelden", signOut: "Abmelden", name: "Name",
        password: "Passwort", favorites: "Favoriten", hot: "Empfohlen", categories: "Kategorien", all: "Alle",
        addFavorite: "Zu den Favoriten", removeFavorite: "Aus den Favoriten entfernen",
        unreachable: "Der Server ist nicht erreichbar.", retry: "Erneut versuchen", results: "Treffer",
        price: "Preis", quantity: "Menge", country: "Land",
        signInForFavorites: "Melden Sie sich an, um Favoriten zu speichern.",
        wrongCredentials: "Name oder Passwort falsch.", catalogs: "Kataloge", index: "Register", cancel: "Abbrechen",
        pickRecord: "Wählen Sie einen Eintrag, um ihn hier zu sehen.", noFavorites: "Noch keine Favoriten.",
        details: "Details")

    static let hungarian = WebStrings(
        language: "hu", search: "Keresés", noResults: "Nincs találat", noDescription: "(Nincs leírás)",
        category: "Kategória", back: "Vissza", more: "Több", signIn: "Belépés", signOut: "Kilépés", name: "Név",
        password: "Jelszó", favorites: "Kedvencek", hot: "Ajánlott", categories: "Kategóriák", all: "Összes",
        addFavorite: "Kedvencekhez", removeFavorite: "Törlés a kedvencek közül",
        unreachable: "A szerver nem érhető el.", retry: "Újra", results: "találat", price: "Ár",
        quantity: "Mennyiség", country: "Ország", signInForFavorites: "Jelentkezzen be a kedvencek mentéséhez.",
        wrongCredentials: "Hibás név vagy jelszó.", catalogs: "Katalógusok", index: "Mutató", cancel: "Mégse",
        pickRecord: "Válasszon egy tételt a részletekhez.", noFavorites: "Még nincsenek kedvencek.",
        details: "Részletek")
}
