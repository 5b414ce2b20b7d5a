/// The words a catalog's screens use, in its language (German, Hungarian; English otherwise):
/// what an app built on the client library shows, and everything `catalog browse` shows (its key
/// hints, help and status messages below the shared words).
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

    // MARK: - catalog browse: the bottom line's key hints (as shown after the key: `q beenden`)

    public var keyHelp: String
    public var keyQuit: String
    /// The arrows on a help longer than the screen.
    public var keyMore: String
    /// The help's note that any key closes it.
    public var anyKeyCloses: String
    /// The arrows in a list: the selection moves.
    public var keyMove: String
    public var keyOpen: String
    public var keyReload: String
    /// Tab in the search: the next scope button.
    public var keyScope: String
    /// The arrows in the search line: the cursor moves.
    public var keyEdit: String
    public var keyClose: String
    /// `*`: marks or unmarks the selected record as a favorite.
    public var keyFavorite: String
    /// Letters in the list: a jump to the index's label.
    public var keyJump: String
    /// Tab in a catalog: the next view (list, hot, categories, favorites).
    public var keyView: String
    public var keyScroll: String
    public var keyNextField: String
    public var keyCancel: String

    // MARK: - catalog browse: the help screen

    /// The help's title.
    public var keys: String
    /// The help's sections: keys that work everywhere, in lists, on a record page.
    public var everywhere: String
    public var lists: String
    public var record: String
    public var thisHelp: String
    /// Esc: back a level, and never out of the app.
    public var backNeverQuits: String
    public var redraw: String
    public var pageUpDown: String
    public var firstLast: String
    public var nextPreviousView: String
    public var jumpInIndex: String
    public var reloadCatalogs: String
    public var moveCursor: String
    /// Ctrl-A, Ctrl-E in the search line.
    public var startEnd: String
    public var deleteCharacter: String
    public var deleteToStart: String
    public var deleteWord: String
    public var pickResult: String

    // MARK: - catalog browse: record pages and status messages

    /// The label of a record's identifier on its page.
    public var identifier: String
    /// The label of a record's image on its page.
    public var image: String
    /// The title bar's mark of an offline snapshot.
    public var offline: String
    /// The open catalog's changes stream in.
    public var live: String
    public var connecting: String
    /// The change feed lost the server and tries again.
    public var reconnecting: String
    public var recordDeleted: String
    public var catalogDeleted: String
    /// `*` on an offline snapshot.
    public var favoritesNeedServer: String
    /// A favorite marked while the server cannot be reached, kept until it can.
    public var favoriteQueued: String
    /// The same, when the user must also sign in first.
    public var favoriteQueuedUntilSignIn: String
    /// Before the number of queued favorites that were sent ("… 2").
    public var queuedFavoritesSent: String
    /// A failure of the server (5xx, an answer it cannot have meant).
    public var serverFailed: String
    /// The server is busy or stopping (503).
    public var serverBusy: String
    /// The catalog or record asked for is not there (404).
    public var notFound: String
    /// A request that needs a signed-in user (401).
    public var signInFirst: String
    /// Another request the server refused (4xx).
    public var requestRefused: String

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
        retry: "Retry", back: "Back",
        keyHelp: "help", keyQuit: "quit", keyMore: "more", anyKeyCloses: "any key closes", keyMove: "move",
        keyOpen: "open", keyReload: "reload", keyScope: "scope", keyEdit: "edit", keyClose: "close",
        keyFavorite: "favorite", keyJump: "jump", keyView: "view", keyScroll: "scroll", keyNextField: "next field",
        keyCancel: "cancel",
        keys: "Keys", everywhere: "Everywhere", lists: "Lists", record: "Record", thisHelp: "this help",
        backNeverQuits: "Back (never quits)", redraw: "redraw", pageUpDown: "page", firstLast: "first, last",
        nextPreviousView: "next, previous view", jumpInIndex: "jump in the index",
        reloadCatalogs: "reload catalogs", moveCursor: "move the cursor", startEnd: "start, end",
        deleteCharacter: "delete a character", deleteToStart: "delete to the start", deleteWord: "delete a word",
        pickResult: "pick a result", identifier: "id", image: "image", offline: "offline", live: "live",
        connecting: "connecting…", reconnecting: "reconnecting…", recordDeleted: "This record was deleted.",
        catalogDeleted: "This catalog was deleted.",
        favoritesNeedServer: "Favorites need a server: this is an offline snapshot.",
        favoriteQueued: "Favorite queued: sent once the server is back.",
        favoriteQueuedUntilSignIn: "Favorite queued: sent once the server is back and you have signed in.",
        queuedFavoritesSent: "Queued favorites sent:",
        serverFailed: "The server could not answer. Please try again later.",
        serverBusy: "The server is busy. Please try again in a moment.",
        notFound: "Not found: it may have been deleted.", signInFirst: "Please sign in first.",
        requestRefused: "The server refused the request.")

    public static let german = CatalogPhrases(
        language: "de", catalogs: "Kataloge", search: "Suchen", noResults: "Keine Treffer",
        noDescription: "(Keine Daten hinterlegt)", category: "Kategorie", categories: "Kategorien", list: "Liste",
        hot: "Empfohlen", favorites: "Favoriten", noFavorites: "Noch keine Favoriten.",
        addFavorite: "Zu den Favoriten", removeFavorite: "Aus den Favoriten entfernen", signIn: "Anmelden",
        signOut: "Abmelden", signInForFavorites: "Melden Sie sich an, um Favoriten zu speichern.",
        wrongCredentials: "Name oder Passwort falsch.", name: "Name", password: "Passwort", price: "Preis",
        quantity: "Menge", country: "Land", results: "Treffer",
        similarSpelling: "Ähnliche Schreibweise", loading: "Laden…",
        unreachable: "Der Server ist nicht erreichbar.", retry: "Erneut versuchen", back: "Zurück",
        keyHelp: "Hilfe", keyQuit: "beenden", keyMore: "mehr", anyKeyCloses: "jede Taste schließt",
        keyMove: "auswählen", keyOpen: "öffnen", keyReload: "neu laden", keyScope: "Bereich", keyEdit: "bearbeiten",
        keyClose: "schließen", keyFavorite: "merken", keyJump: "springen", keyView: "Ansicht", keyScroll: "blättern",
        keyNextField: "nächstes Feld", keyCancel: "abbrechen",
        keys: "Tasten", everywhere: "Überall", lists: "Listen", record: "Eintrag", thisHelp: "diese Hilfe",
        backNeverQuits: "Zurück (beendet nie)", redraw: "neu zeichnen", pageUpDown: "seitenweise",
        firstLast: "erster, letzter", nextPreviousView: "nächste, vorige Ansicht", jumpInIndex: "im Register springen",
        reloadCatalogs: "Kataloge neu laden", moveCursor: "Cursor bewegen", startEnd: "Anfang, Ende",
        deleteCharacter: "Zeichen löschen", deleteToStart: "bis zum Anfang löschen", deleteWord: "Wort löschen",
        pickResult: "Treffer wählen", identifier: "Kennung", image: "Bild", offline: "offline", live: "live",
        connecting: "verbinde…", reconnecting: "verbinde erneut…", recordDeleted: "Dieser Eintrag wurde gelöscht.",
        catalogDeleted: "Dieser Katalog wurde gelöscht.",
        favoritesNeedServer: "Favoriten brauchen einen Server: dies ist eine Offline-Kopie.",
        favoriteQueued: "Favorit vorgemerkt: wird gesendet, sobald der Server wieder erreichbar ist.",
        favoriteQueuedUntilSignIn:
            "Favorit vorgemerkt: wird gesendet, sobald der Server wieder erreichbar ist und Sie angemeldet sind.",
        queuedFavoritesSent: "Vorgemerkte Favoriten gesendet:",
        serverFailed: "Der Server konnte nicht antworten. Bitte versuchen Sie es später noch einmal.",
        serverBusy: "Der Server ist ausgelastet. Bitte versuchen Sie es gleich noch einmal.",
        notFound: "Nicht gefunden: vielleicht wurde es gelöscht.",
        signInFirst: "Bitte melden Sie sich zuerst an.", requestRefused: "Der Server hat die Anfrage abgelehnt.")

    public static let hungarian = CatalogPhrases(
        language: "hu", catalogs: "Katalógusok", search: "Keresés", noResults: "Nincs találat",
        noDescription: "(Nincs leírás)", category: "Kategória", categories: "Kategóriák", list: "Lista",
        hot: "Ajánlott", favorites: "Kedvencek", noFavorites: "Még nincsenek kedvencek.",
        addFavorite: "Kedvencekhez", removeFavorite: "Törlés a kedvencek közül", signIn: "Belépés",
        signOut: "Kilépés", signInForFavorites: "Jelentkezzen be a kedvencek mentéséhez.",
        wrongCredentials: "Hibás név vagy jelszó.", name: "Név", password: "Jelszó", price: "Ár",
        quantity: "Mennyiség", country: "Ország", results: "találat",
        similarSpelling: "Hasonló írásmód", loading: "Betöltés…",
        unreachable: "A szerver nem érhető el.", retry: "Újra", back: "Vissza",
        keyHelp: "súgó", keyQuit: "befejezés", keyMore: "tovább", anyKeyCloses: "bármely billentyű bezárja",
        keyMove: "kijelölés", keyOpen: "megnyitás", keyReload: "újratöltés", keyScope: "szűkítés",
        keyEdit: "szerkesztés", keyClose: "bezárás", keyFavorite: "kedvenc", keyJump: "ugrás", keyView: "nézet",
        keyScroll: "görgetés", keyNextField: "következő mező", keyCancel: "mégse",
        keys: "Billentyűk", everywhere: "Mindenhol", lists: "Listák", record: "Tétel", thisHelp: "ez a súgó",
        backNeverQuits: "Vissza (sosem lép ki)", redraw: "újrarajzolás", pageUpDown: "lapozás",
        firstLast: "első, utolsó", nextPreviousView: "következő, előző nézet", jumpInIndex: "ugrás a mutatóban",
        reloadCatalogs: "katalógusok újratöltése", moveCursor: "a kurzor mozgatása", startEnd: "elejére, végére",
        deleteCharacter: "egy karakter törlése", deleteToStart: "törlés az elejéig", deleteWord: "egy szó törlése",
        pickResult: "találat kiválasztása", identifier: "Azonosító", image: "Kép", offline: "offline",
        live: "élő", connecting: "kapcsolódás…", reconnecting: "újrakapcsolódás…",
        recordDeleted: "Ezt a tételt törölték.", catalogDeleted: "Ezt a katalógust törölték.",
        favoritesNeedServer: "A kedvencekhez szerver kell: ez egy offline másolat.",
        favoriteQueued: "Kedvenc félretéve: elküldjük, amint a szerver újra elérhető.",
        favoriteQueuedUntilSignIn: "Kedvenc félretéve: elküldjük, amint a szerver újra elérhető, és Ön bejelentkezett.",
        queuedFavoritesSent: "Félretett kedvencek elküldve:",
        serverFailed: "A szerver nem tudott válaszolni. Próbálja újra később.",
        serverBusy: "A szerver leterhelt. Próbálja újra egy perc múlva.",
        notFound: "Nem található: lehet, hogy törölték.", signInFirst: "Előbb jelentkezzen be.",
        requestRefused: "A szerver elutasította a kérést.")
}
