import CatalogClient
import CatalogModel
import Foundation

/// Everything `catalog browse` shows: which screen, what is loaded, what is selected. Changed only
/// by ``Browser`` on its one loop, one event at a time.
struct BrowserState: Sendable {
    /// The app's list of records (CatalogClient has a type of that name too).
    typealias List = RecordList

    /// The screens.
    enum Screen: Equatable, Sendable {
        /// The server's catalogs.
        case catalogs
        /// One catalog: its tabs (the list, hot, categories, favorites) and search.
        case catalog
        /// One record's every field.
        case detail
        /// Name and password.
        case signIn
    }

    /// A catalog's views.
    enum Tab: Equatable, Sendable {
        case list, hot, categories, favorites
    }

    /// Search as you type: the query, the scope, the results.
    struct Search: Equatable, Sendable {
        /// The query as it is being typed.
        var line = LineEditor()
        /// The selected scope (an index into the catalog's scopes).
        var scope = 0
        var results = RecordList()
        var total = 0
        var totalCapped = false
        var scopes: [ScopeCount] = []
        /// Bumped for every new query, so late answers to old ones are dropped.
        var generation = 0
        var searching = false

        /// The query's text.
        var query: String { line.text }
    }

    /// A record being shown, and where Esc goes back to.
    struct Detail: Equatable, Sendable {
        var record: Record
        var scroll = 0
        var returnTo: Screen
        /// The record was deleted while it was shown.
        var deleted = false
    }

    /// The sign-in form.
    struct SignIn: Equatable, Sendable {
        var name = ""
        var password = ""
        var onPassword = false
        var failed = false
        var busy = false
        var returnTo: Screen = .catalogs
        /// The record `*` was pressed on while signed out: marked as a favorite once signed in.
        var favorite: Record?
    }

    /// A line at the bottom: a note, or an error that can be retried.
    struct Message: Equatable, Sendable {
        var text: String
        var isError: Bool
        var canRetry: Bool
    }

    var screen: Screen = .catalogs
    var catalogs: [CatalogSummary] = []
    var catalogSelection = 0
    var catalogsLoaded = false
    /// The open catalog.
    var catalog: CatalogDetail?
    var sections: [SectionCount] = []
    var categories: [CategoryCount] = []
    var tabs: [Tab] = [.list]
    var tab: Tab = .list
    var list = RecordList(sectioned: true)
    var hot = RecordList()
    var categorySelection = 0
    var categoryTop = 0
    /// The category whose records are shown in the categories tab, nil for the categories.
    var openCategory: String?
    var categoryItems = RecordList()
    var favorites = RecordList()
    var favoriteIDs: Set<String> = []
    /// Non-nil while the search is open.
    var search: Search?
    /// The last search, kept for when `/` opens it again.
    var lastSearch: Search?
    var detail: Detail?
    var signIn = SignIn()
    var signedInAs: String?
    /// Whether the help screen is shown over the current screen (any key closes it).
    var showingHelp = false
    /// The first line of the help shown, when it is longer than the screen.
    var helpScroll = 0
    var message: Message?
    /// Letters typed for an index jump, and when the last one was.
    var jumpLetters = ""
    var lastJumpKey = Date.distantPast
    var loading = false
    var offline = false
    /// The server could not be reached at the last try (a connectivity failure, cleared when the
    /// change feed is live again).
    var serverAway = false
    /// Whether the open catalog's changes are followed live.
    var live = Live.off

    /// The user's language (``userLanguage(in:)``), for the screens before a catalog is open.
    var userLocale = "en"

    /// The words of the open catalog's language; before one is open, the user's.
    var phrases: CatalogPhrases { CatalogPhrases.forLocale(catalog?.locale ?? userLocale) }

    /// The language the environment asks for messages in (`LC_ALL`, then `LC_MESSAGES`, then
    /// `LANG`, as POSIX orders them: `de_DE.UTF-8` is `de`); English for `C`, `POSIX` or none.
    static func userLanguage(in environment: [String: String]) -> String {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            let language = value.prefix { $0.isLetter }.lowercased()
            return language.isEmpty || language == "c" || language == "posix" ? "en" : language
        }
        return "en"
    }

    /// The list of the current tab (the search results while searching).
    var currentList: RecordList? {
        get {
            if search != nil { return search?.results }
            switch tab {
            case .list: return list
            case .hot: return hot
            case .favorites: return favorites
            case .categories: return openCategory == nil ? nil : categoryItems
            }
        }
        set {
            guard let newValue else { return }
            if search != nil {
                search?.results = newValue
                return
            }
            switch tab {
            case .list: list = newValue
            case .hot: hot = newValue
            case .favorites: favorites = newValue
            case .categories: categoryItems = newValue
            }
        }
    }

    /// The label the letters typed spell (`CS`), or the first one they start; nil for none.
    static func spelled(_ typed: String, labels: [String]) -> String? {
        let upper = typed.uppercased()
        return labels.first { $0.uppercased() == upper } ?? labels.first { $0.uppercased().hasPrefix(upper) }
    }

    /// The label to jump to for the letters typed: the label spelled so (`CS`), else the first
    /// label they start (`C` for `c`), else the label of the letter's base (`A` for `ä` in English),
    /// else the last one ("#") for digits and other scripts.
    static func jumpTarget(_ typed: String, labels: [String]) -> String? {
        if let label = spelled(typed, labels: labels) { return label }
        if typed.count == 1, let first = typed.first, first.isLetter {
            let base = TextFolding.fold(String(first)).uppercased()
            if let match = labels.first(where: { $0.uppercased() == base }) { return match }
        }
        return labels.last == "#" ? "#" : nil
    }
}
