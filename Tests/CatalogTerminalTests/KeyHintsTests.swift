import CatalogClient
import Foundation
import Testing

@testable import CatalogTerminal

/// The bottom line shows the keys that apply where the user is, whole, shortened by priority;
/// `?` shows every key; Esc goes back a level and never quits; `q` quits.
@Suite struct KeyHintsTests {
    /// Every place the bottom line can be: the catalogs, a catalog's list, its search, a record,
    /// the help, signed in or not.
    static func places() -> [(String, BrowserState)] {
        var places: [(String, BrowserState)] = []
        var catalogs = BrowserState()
        catalogs.catalogsLoaded = true
        places.append(("catalogs", catalogs))
        catalogs.signedInAs = "mari"
        places.append(("catalogs signed in", catalogs))
        let list = BrowserViewTests.state()
        places.append(("list", list))
        var search = list
        search.search = BrowserState.Search(line: LineEditor("tee"), total: 1234)
        places.append(("search", search))
        var detail = list
        detail.detail = BrowserState.Detail(record: Record(id: "1", title: "Apfeltee"), returnTo: .catalog)
        detail.screen = .detail
        detail.signedInAs = "mari"
        places.append(("detail signed in", detail))
        var help = list
        help.showingHelp = true
        places.append(("help", help))
        return places
    }

    @Test(arguments: [100, 60, 40, 20])
    func theBottomLineFitsWholeHints(_ width: Int) {
        for (name, state) in Self.places() {
            let line = BrowserView.status(state, width: width).text
            #expect(TextWidth.of(line) <= width, "\(name) at \(width): \(line)")
            #expect(!line.contains("…"), "\(name) at \(width) is cut: \(line)")
            if width >= 40, name != "help" {
                #expect(line.contains("?") || name == "search", "\(name) at \(width) lost help: \(line)")
            }
        }
    }

    @Test func narrowLinesKeepTheImportantKeys() {
        let list = BrowserViewTests.state()
        let wide = BrowserView.status(list, width: 120).text
        for hint in ["a–z", "/ suchen", "Tab", "Enter", "* merken", "Esc zurück", "? Hilfe", "q beenden"] {
            #expect(wide.contains(hint), "\(hint) in \(wide)")
        }
        let at60 = BrowserView.status(list, width: 60).text
        #expect(at60.contains("/ suchen") && at60.contains("? Hilfe") && at60.contains("Esc zurück"))
        let at40 = BrowserView.status(list, width: 40).text
        #expect(at40.contains("? Hilfe") && at40.contains("/ suchen") && !at40.contains("a–z"))
        var search = list
        search.search = BrowserState.Search(line: LineEditor("tee"), total: 7)
        let searching = BrowserView.status(search, width: 40).text
        #expect(searching.contains("7 Treffer") && searching.contains("Esc schließen"))
        #expect(!searching.contains("? Hilfe"))  // `?` is typed into the search
    }

    @Test func signOutShowsWhenSignedIn() {
        var catalogs = BrowserState()
        #expect(!BrowserView.status(catalogs, width: 80).text.contains("sign out"))
        #expect(BrowserView.status(catalogs, width: 80).text.contains("s sign in"))
        catalogs.signedInAs = "mari"
        #expect(BrowserView.status(catalogs, width: 60).text.contains("o sign out"))
        var list = BrowserViewTests.state()
        list.signedInAs = "mari"
        list.tab = .favorites
        #expect(BrowserView.status(list, width: 80).text.contains("o abmelden"))
    }

    @Test(arguments: [0, 3, 5])
    func theScopeBarKeepsTheSelectedScopeInViewAndCutsNoButton(_ selected: Int) {
        let catalog = CatalogDetail(
            id: "shop", title: "Shop", locale: "de", count: 3,
            scopes: ["Alle", "Windows", "Apple", "Apple&Win", "Linux", "Hardware"], fields: [], sections: [])
        var search = BrowserState.Search()
        search.scope = selected
        search.scopes = catalog.scopes.map { ScopeCount(label: $0, count: 12, capped: false) }
        let wide = BrowserView.scopeBar(search, catalog: catalog, width: 120).text
        #expect(!wide.contains("‹") && !wide.contains("›") && wide.contains("Hardware 12"))
        let bar = BrowserView.scopeBar(search, catalog: catalog, width: 40)
        #expect(TextWidth.of(bar.text) <= 40)
        #expect(!bar.text.contains("…"))
        #expect(bar.spans.contains { $0.style.reverse && $0.text == " \(catalog.scopes[selected]) 12 " })
        #expect(bar.text.contains("›") == (selected < 5))
        #expect(bar.text.contains("‹") == (selected > 0))
    }

    @Test(arguments: [(80, 24), (60, 20), (40, 30), (120, 40)])
    func theHelpListsEveryKeyAndFits(_ width: Int, _ height: Int) {
        var state = BrowserViewTests.state()
        state.showingHelp = true
        let frame = BrowserView.frame(state, width: width, height: height)
        #expect(frame.rows.count == height)
        for row in frame.rows { #expect(TextWidth.of(row.text) <= width, "\(row.text)") }
        if width >= 80 {
            for key in ["Ctrl-W", "Ctrl-U", "Esc", "PgUp PgDn", "/", "q", "Ctrl-R", "Abmelden", "Suchen"] {
                #expect(frame.text.contains(key), "\(key) at \(width)×\(height)")
            }
        }
    }
}

/// Keys through the app's logic, with a source that answers nothing.
@Suite struct BrowserKeysTests {
    struct NoSource: CatalogBrowsing {
        static let error = CatalogClientError(.notFound, "nothing here")
        func catalogs() async throws(CatalogClientError) -> [CatalogSummary] { [] }
        func catalog(_ id: String) async throws(CatalogClientError) -> CatalogDetail { throw Self.error }
        func sections(of catalog: String) async throws(CatalogClientError) -> [SectionCount] { [] }
        func items(of catalog: String, section: String?, after: String?, before: String?, limit: Int)
            async throws(CatalogClientError) -> ItemsPage
        { ItemsPage(items: [], next: nil) }
        func items(of catalog: String, startingAt label: String, limit: Int) async throws(CatalogClientError)
            -> ItemsPage
        { ItemsPage(items: [], next: nil) }
        func item(_ id: String, of catalog: String) async throws(CatalogClientError) -> Record { throw Self.error }
        func search(_ request: SearchRequest, in catalog: String) async throws(CatalogClientError) -> SearchResponse {
            throw Self.error
        }
        func facetValues(
            _ field: String, startingWith prefix: String, for request: SearchRequest, in catalog: String, limit: Int
        ) async throws(CatalogClientError) -> [FacetCount] { [] }
        func categories(of catalog: String) async throws(CatalogClientError) -> [CategoryCount] { [] }
        func items(of catalog: String, category: String, after: String?, before: String?, limit: Int)
            async throws(CatalogClientError) -> ItemsPage
        { ItemsPage(items: [], next: nil) }
        func featured(of catalog: String, limit: Int) async throws(CatalogClientError) -> [Record] { [] }
    }

    static func browser(offline: Bool = false) -> Browser {
        let browser = Browser(source: NoSource(), client: nil, offline: offline) { _ in }
        browser.state = BrowserViewTests.state()
        browser.state.offline = offline
        return browser
    }

    static func press(_ browser: Browser, _ keys: Key...) {
        for key in keys { browser.handle(.key(key)) }
    }

    @Test func escGoesBackALevelAndNeverQuits() {
        let browser = Self.browser()
        Self.press(browser, .enter)
        #expect(browser.state.screen == .detail)
        Self.press(browser, .escape)
        #expect(browser.state.screen == .catalog && browser.state.detail == nil)
        Self.press(browser, .character("/"), .character("t"))
        #expect(browser.state.search?.query == "t")
        Self.press(browser, .escape)
        #expect(browser.state.search == nil && browser.state.screen == .catalog)
        Self.press(browser, .escape)
        #expect(browser.state.screen == .catalogs)
        Self.press(browser, .escape, .escape)
        #expect(browser.state.screen == .catalogs && !browser.finished)
        let offline = Self.browser(offline: true)
        Self.press(offline, .escape, .escape)
        #expect(offline.state.screen == .catalog && !offline.finished)
    }

    @Test func helpOpensWithAQuestionMarkAndAnyKeyClosesIt() {
        let browser = Self.browser()
        Self.press(browser, .enter, .character("?"))
        #expect(browser.state.showingHelp && browser.state.screen == .detail)
        Self.press(browser, .escape)
        #expect(!browser.state.showingHelp && browser.state.screen == .detail)
        Self.press(browser, .character("?"), .character("q"))
        #expect(!browser.state.showingHelp && !browser.finished)
        // In the search `?` is typed.
        Self.press(browser, .escape, .character("/"), .character("?"))
        #expect(browser.state.search?.query == "?" && !browser.state.showingHelp)
    }

    @Test func aHelpLongerThanTheScreenScrollsWithTheArrows() {
        let browser = Self.browser()
        (browser.width, browser.height) = (40, 12)
        Self.press(browser, .character("?"))
        let all = BrowserView.helpLines(browser.state).map(\.text).joined(separator: "\n")
        var seen = Set(BrowserView.frame(browser.state, width: 40, height: 12).rows.map(\.text))
        #expect(!seen.contains { $0.contains("abbrechen") })
        for _ in 0..<60 {
            Self.press(browser, .down)
            seen.formUnion(BrowserView.frame(browser.state, width: 40, height: 12).rows.map(\.text))
        }
        #expect(browser.state.showingHelp)
        for key in ["Ctrl-W", "abbrechen", "Ctrl-R", "Kataloge neu laden"] {
            #expect(all.contains(key) && seen.contains { $0.contains(key) }, "\(key)")
        }
        Self.press(browser, .pageUp, .up)
        #expect(browser.state.showingHelp)
        Self.press(browser, .character("x"))
        #expect(!browser.state.showingHelp && browser.state.helpScroll == 0)
    }

    @Test func qQuitsExceptWhileTyping() {
        let browser = Self.browser()
        Self.press(browser, .character("/"), .character("q"))
        #expect(browser.state.search?.query == "q" && !browser.finished)
        Self.press(browser, .escape, .enter, .character("q"))
        #expect(browser.finished)
    }

    @Test func aClickSelectsAClickOnTheSelectionOpensTheWheelScrolls() throws {
        let browser = Self.browser()
        browser.width = 80
        browser.height = 24
        // Row 1 is the title, row 2 the tabs, row 3 the header A, rows 4 and 5 the A records.
        let second = try #require(Mouse(sgr: "<0;10;5", pressed: true))
        Self.press(browser, .mouse(second))
        #expect(browser.state.list.selectedRecord?.id == "2" && browser.state.screen == .catalog)
        Self.press(browser, .mouse(second))
        #expect(browser.state.screen == .detail && browser.state.detail?.record.id == "2")
        Self.press(browser, .escape, .mouse(try #require(Mouse(sgr: "<0;10;3", pressed: true))))
        #expect(browser.state.list.selectedRecord?.id == "2")  // a header is not a record
        Self.press(browser, .mouse(try #require(Mouse(sgr: "<64;10;10", pressed: true))))
        #expect(browser.state.list.selectedRecord?.id == "1")
        Self.press(browser, .mouse(try #require(Mouse(sgr: "<65;10;10", pressed: true))))
        #expect(browser.state.list.selectedRecord?.id == "3")
    }

    @Test func starWhileSignedOutSignsInFirstAndOfflineSaysWhy() {
        let offline = Self.browser(offline: true)
        Self.press(offline, .character("*"))
        #expect(offline.state.message?.text.contains("Offline-Kopie") == true)
        #expect(offline.state.screen == .catalog)
        let client = CatalogClient(baseURL: URL(string: "http://127.0.0.1:9")!, token: nil, timeout: 1)
        let online = Browser(source: NoSource(), client: client, offline: false) { _ in }
        online.state = BrowserViewTests.state()
        let record = online.state.list.selectedRecord
        Self.press(online, .character("*"))
        #expect(online.state.screen == .signIn && online.state.signIn.favorite == record)
        online.handle(
            .answer(
                .signedIn(
                    .success(SignInResponse(token: "t", user: .init(name: "mari", admin: false), expires: "never")))))
        #expect(online.state.screen == .catalog && online.state.signIn.favorite == nil)
        #expect(online.state.signedInAs == "mari")
    }

    @Test func aFavoriteMarkedWhileTheServerIsAwayIsQueuedNotASignIn() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-terminal-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = CatalogClient(baseURL: URL(string: "http://127.0.0.1:9")!, token: nil, timeout: 5)
        let queue = OfflineFavorites(client: client, file: folder.appendingPathComponent("favorites.json"))
        let (events, continuation) = AsyncStream.makeStream(of: BrowserEvent.self)
        let browser = Browser(source: NoSource(), client: client, offline: false, favoritesQueue: queue) {
            continuation.yield($0)
        }
        browser.state = BrowserViewTests.state()
        browser.state.serverAway = true
        let record = try #require(browser.state.list.selectedRecord)
        Self.press(browser, .character("*"))
        #expect(browser.state.screen == .catalog)  // no sign-in page
        var iterator = events.makeAsyncIterator()
        let answer = try #require(await iterator.next())
        browser.handle(answer)
        #expect(browser.state.message?.text.contains("Favorit vorgemerkt") == true)
        #expect(browser.state.favoriteIDs.contains(record.id))
        let pending = await queue.pending
        #expect(pending.map(\.item) == [record.id] && pending.first?.isFavorite == true)
    }

    @Test func theQueueFileIsOnePerServer() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-state-\(UUID())")
        defer { try? FileManager.default.removeItem(at: state) }
        let environment = ["XDG_STATE_HOME": state.path, "HOME": "/nonexistent"]
        let first = try #require(
            CatalogTerminal.favoritesFile(server: URL(string: "http://127.0.0.1:8080")!, environment))
        let second = try #require(
            CatalogTerminal.favoritesFile(server: URL(string: "http://127.0.0.1:9090")!, environment))
        #expect(first.lastPathComponent == "favorites-127.0.0.1-8080.json" && first != second)
        #expect(first.deletingLastPathComponent().path == state.appendingPathComponent("catalog").path)
        let chosen = ["CATALOG_FAVORITES_QUEUE": "/tmp/q.json"]
        #expect(CatalogTerminal.favoritesFile(server: URL(string: "http://h")!, chosen)?.path == "/tmp/q.json")
        #expect(CatalogTerminal.favoritesFile(server: URL(string: "http://h")!, [:]) == nil)
    }

    @Test func searchReopensWithItsTextSelected() {
        let browser = Self.browser()
        Self.press(browser, .character("/"), .character("t"), .character("e"), .left, .character("X"))
        #expect(browser.state.search?.query == "tXe")
        Self.press(browser, .escape, .character("/"))
        #expect(browser.state.search?.line.selected == true)
        Self.press(browser, .character("k"))
        #expect(browser.state.search?.query == "k")
        Self.press(browser, .escape, .character("/"), .right, .character("s"))
        #expect(browser.state.search?.query == "ks")
    }
}
