import CatalogClient
import Foundation
import Testing

@testable import CatalogTerminal

/// Every word `catalog browse` shows on a catalog's screens is in the catalog's language: the
/// bottom line's hints, the help, a record page, the search, and the status messages, all from
/// ``CatalogPhrases``. Key names (Enter, Esc, Tab, q, ?, /) stay keys.
@Suite struct ScreenLanguageTests {
    /// The English words the screens of a German or Hungarian catalog used to show, as whole words
    /// (`live`, `offline` and `Server` are German words too; `End` is a key).
    static let english: Set<String> = [
        "help", "quit", "open", "move", "reload", "scope", "edit", "close", "jump", "view", "scroll", "next",
        "field", "cancel", "more", "any", "key", "keys", "closes", "everywhere", "lists", "record", "this", "never",
        "quits", "redraw", "page", "first", "last", "previous", "index", "catalogs", "start", "delete", "character",
        "word", "pick", "result", "image", "id", "connecting", "reconnecting", "deleted", "was", "favorite",
        "favorites", "queued", "sent", "snapshot", "need", "found", "the", "cannot", "please",
    ]

    /// The English words in `text`.
    static func englishWords(in text: String) -> [String] {
        text.split { !$0.isLetter }.map { $0.lowercased() }.filter { english.contains($0) }
    }

    /// The test catalog (its records German words or names) in `locale`.
    static func state(_ locale: String) -> BrowserState {
        var state = BrowserViewTests.state()
        state.catalog?.locale = locale
        state.catalog?.fields = ["Gewicht"]
        state.tabs = [.list, .hot, .categories, .favorites]
        state.live = .live
        return state
    }

    /// Each main screen of the catalog, at a size where everything on it shows.
    static func screens(_ locale: String) -> [(String, String)] {
        var screens: [(String, String)] = []
        func add(_ name: String, _ state: BrowserState, width: Int = 120, height: Int = 40) {
            screens.append((name, BrowserView.frame(state, width: width, height: height).text))
        }
        let list = state(locale)
        add("list", list)
        var connecting = list
        connecting.live = .connecting
        add("list connecting", connecting)
        var away = list
        away.live = .disconnected
        add("list reconnecting", away)
        var help = list
        help.showingHelp = true
        add("help", help)
        add("help scrolled", help, width: 60, height: 12)
        screens.append(("help lines", BrowserView.helpLines(help).map(\.text).joined(separator: "\n")))
        var detail = list
        detail.detail = BrowserState.Detail(
            record: Record(
                id: "x1", title: "Kräutertee", categories: ["Tee"], price: 2, currency: "EUR", quantity: 7,
                country: "AT", image: "/bilder/tee.png", featured: 1, fields: ["Gewicht": .text("100 g")]),
            returnTo: .catalog, deleted: true)
        detail.screen = .detail
        detail.favoriteIDs = ["x1"]
        add("record", detail)
        var results = RecordList()
        results.similarHeader = list.phrases.similarSpelling
        results.replace(
            with: [Record(id: "1", title: "Apfeltee"), Record(id: "4", title: "Tea")], typos: [false, true],
            before: nil, after: nil)
        var search = list
        search.search = BrowserState.Search(line: LineEditor("tee"), results: results, total: 3)
        add("search", search)
        var signIn = list
        signIn.screen = .signIn
        add("sign-in", signIn)
        var offline = list
        offline.offline = true
        offline.live = .off
        add("offline", offline)
        return screens
    }

    @Test(arguments: ["de", "hu"])
    func theMainScreensShowNoEnglish(_ locale: String) {
        for (name, text) in Self.screens(locale) {
            #expect(Self.englishWords(in: text).isEmpty, "\(locale) \(name): \(Self.englishWords(in: text))\n\(text)")
        }
        // The bottom line keeps its priorities at 60 columns in every language.
        let line = BrowserView.status(Self.state(locale), width: 60).text
        let phrases = CatalogPhrases.forLocale(locale)
        #expect(TextWidth.of(line) <= 60 && !line.contains("…"), "\(line)")
        #expect(line.contains("? \(phrases.keyHelp)") && line.contains("/ \(phrases.search.lowercased())"), "\(line)")
    }

    /// Before a catalog is open, the screens speak the user's language, as the environment asks
    /// for it (POSIX's order), English without one.
    @Test func theCatalogsScreenSpeaksTheUsersLanguage() {
        #expect(BrowserState.userLanguage(in: ["LANG": "de_DE.UTF-8"]) == "de")
        #expect(BrowserState.userLanguage(in: ["LC_ALL": "hu_HU.UTF-8", "LANG": "de_DE.UTF-8"]) == "hu")
        #expect(BrowserState.userLanguage(in: ["LC_MESSAGES": "hu", "LANG": "en_US.UTF-8"]) == "hu")
        #expect(BrowserState.userLanguage(in: ["LANG": "C.UTF-8"]) == "en")
        #expect(BrowserState.userLanguage(in: ["LC_ALL": "POSIX"]) == "en")
        #expect(BrowserState.userLanguage(in: [:]) == "en")
        var state = BrowserState()
        state.userLocale = "de"
        state.catalogsLoaded = true
        let text = BrowserView.frame(state, width: 100, height: 20).text
        #expect(text.contains("Kataloge"), "\(text)")
        #expect(Self.englishWords(in: text).isEmpty, "\(Self.englishWords(in: text))\n\(text)")
    }

    /// The screens of an English catalog keep their English words, and the test would see them.
    @Test func anEnglishCatalogIsInEnglish() {
        let screens = Dictionary(uniqueKeysWithValues: Self.screens("en"))
        let help = screens["help"] ?? ""
        #expect(help.contains("delete a word") && help.contains("any key closes"))
        #expect(!Self.englishWords(in: help).isEmpty)
        let record = screens["record"] ?? ""
        #expect(record.contains("This record was deleted.") && record.contains("id: x1"))
        #expect(Self.messages("en").allSatisfy { !Self.englishWords(in: $0.1).isEmpty })
    }

    /// A record page labels a field as the catalog does in its language (as the web app does),
    /// else with the app's word, else with the field's name.
    @Test func fieldsTakeTheCatalogsOwnLabels() {
        var state = Self.state("de-AT")
        state.catalog?.fields = ["origin", "note"]
        state.catalog?.labels = ["origin": ["de": "Herkunft", "hu": "Származás"], "price": ["de": "Kaufpreis"]]
        let record = Record(
            id: "x", title: "Grüner Tee", price: 4, fields: ["origin": .text("Japan"), "note": .text("mild")])
        let lines = BrowserView.detailLines(record, state: state, width: 80).map(\.text)
        for expected in ["Herkunft: Japan", "Kaufpreis: 4", "note: mild", "Kennung: x"] {
            #expect(lines.contains { $0.contains(expected) }, "\(expected) in \(lines)")
        }
    }

    /// What the bottom line says after an answer: every status message and failure.
    static func messages(_ locale: String) -> [(String, String)] {
        func browser(offline: Bool = false) -> Browser {
            let browser = Browser(source: BrowserKeysTests.NoSource(), client: nil, offline: offline) { _ in }
            browser.state = state(locale)
            browser.state.offline = offline
            return browser
        }
        var messages: [(String, String)] = []
        func add(_ name: String, _ browser: Browser) {
            messages.append((name, browser.state.message?.text ?? "(none)"))
        }
        let snapshot = browser(offline: true)
        snapshot.handle(.key(.character("*")))
        add("favorite offline", snapshot)
        let deleted = browser()
        deleted.handle(.answer(.followEnded(catalog: "shop", CatalogClientError(.notFound, "no catalog \"shop\""))))
        add("catalog deleted", deleted)
        let queued = browser()
        queued.handle(.answer(.favoriteSet(item: "1", isFavorite: true, .success(false))))
        add("favorite queued", queued)
        let synced = browser()
        synced.handle(.answer(.favoritesSynced(.success(OfflineFavorites.SyncReport(sent: 2)))))
        add("favorites sent", synced)
        let failures: [(String, CatalogClientError)] = [
            ("unreachable", CatalogClientError(.offline, "Could not connect to the server")),
            ("server failed", CatalogClientError(.server, "internal error")),
            ("busy", CatalogClientError(.unavailable, "the server is stopping")),
            ("not found", CatalogClientError(.notFound, "no such section")),
            ("refused", CatalogClientError(.badRequest, "bad cursor")),
            ("undecodable", CatalogClientError(.decoding, "the answer is not JSON")),
        ]
        for (name, error) in failures {
            let failed = browser()
            failed.handle(.answer(.page(.list, generation: 0, .after, .failure(error))))
            add(name, failed)
        }
        return messages
    }

    @Test(arguments: ["de", "hu"])
    func statusMessagesAreInTheCatalogsLanguage(_ locale: String) {
        let phrases = CatalogPhrases.forLocale(locale)
        let messages = Dictionary(uniqueKeysWithValues: Self.messages(locale))
        #expect(messages["favorite offline"] == phrases.favoritesNeedServer)
        #expect(messages["catalog deleted"] == phrases.catalogDeleted)
        #expect(messages["favorite queued"] == phrases.favoriteQueuedUntilSignIn)
        #expect(messages["favorites sent"] == "\(phrases.queuedFavoritesSent) 2")
        #expect(messages["unreachable"] == phrases.unreachable)
        #expect(messages["server failed"] == phrases.serverFailed)
        #expect(messages["busy"] == phrases.serverBusy)
        #expect(messages["not found"] == phrases.notFound)
        #expect(messages["refused"] == phrases.requestRefused)
        #expect(messages["undecodable"] == phrases.serverFailed)
        for (name, text) in messages {
            #expect(Self.englishWords(in: text).isEmpty, "\(locale) \(name): \(text)")
        }
        // Each message on the bottom line, with Ctrl-R where a retry may help.
        let browser = Browser(source: BrowserKeysTests.NoSource(), client: nil, offline: false) { _ in }
        browser.state = Self.state(locale)
        browser.handle(.answer(.page(.list, generation: 0, .after, .failure(CatalogClientError(.offline, "x")))))
        let line = BrowserView.status(browser.state, width: 120).text
        #expect(line.contains(phrases.unreachable) && line.contains("Ctrl-R: \(phrases.retry)"), "\(line)")
        #expect(Self.englishWords(in: line).isEmpty, "\(line)")
    }

    /// Every locale of the table has every terminal phrase, none left empty or in English.
    @Test(arguments: [CatalogPhrases.german, CatalogPhrases.hungarian])
    func everyPhraseIsTranslated(_ phrases: CatalogPhrases) {
        let english = Mirror(reflecting: CatalogPhrases.english).children.map { ($0.label!, "\($0.value)") }
        let translated = Dictionary(
            uniqueKeysWithValues: Mirror(reflecting: phrases).children.map { ($0.label!, "\($0.value)") })
        // The same in every language: a name, a number, or words both languages borrowed.
        let shared: Set<String> = ["name", "live", "offline"]
        for (label, text) in english where !shared.contains(label) {
            #expect(translated[label]?.isEmpty == false, "\(phrases.language) \(label)")
            #expect(translated[label] != text, "\(phrases.language) \(label) is English: \(text)")
        }
    }
}
