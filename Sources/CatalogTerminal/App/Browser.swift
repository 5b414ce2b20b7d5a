import CatalogClient
import Foundation

/// What happens to the app: keys, a resize, a stop signal, and answers to its requests.
enum BrowserEvent: Sendable {
    case key(Key)
    case resize
    case stop
    case inputEnded
    case answer(Answer)
}

/// An answer to one of the app's requests.
enum Answer: Sendable {
    /// Which list a page belongs to.
    enum Target: Sendable, Equatable {
        case list, hot, categoryItems, favorites
    }

    /// Where a page goes in its list.
    enum Placement: Sendable, Equatable {
        /// It replaces the list (a jump); `selectLast` for End.
        case replace(selectLast: Bool)
        case after
        case before
    }

    /// A catalog opened: its description, sections, categories and first page.
    struct Opened: Sendable {
        var detail: CatalogDetail
        var sections: [SectionCount]
        var categories: [CategoryCount]
        var hasFeatured: Bool
        var page: ItemsPage
        /// The catalog's change number before it was read (nil offline, or from a server without
        /// a change feed): changes are followed after it.
        var change: Int?
    }

    case catalogs(Result<[CatalogSummary], CatalogClientError>)
    case opened(Result<Opened, CatalogClientError>)
    case page(Target, generation: Int, Placement, Result<ItemsPage, CatalogClientError>)
    case searched(generation: Int, append: Bool, Result<SearchResponse, CatalogClientError>)
    case favorites(generation: Int, Result<[FavoriteEntry], CatalogClientError>)
    case signedIn(Result<SignInResponse, CatalogClientError>)
    /// A favorite marked or unmarked: true when the server has it, false when it is queued until
    /// the server can be reached.
    case favoriteSet(item: String, isFavorite: Bool, Result<Bool, CatalogClientError>)
    /// The queued favorites were sent (or not: the server is still away).
    case favoritesSynced(Result<OfflineFavorites.SyncReport, CatalogClientError>)
    /// A live change of catalog `catalog`.
    case change(catalog: String, CatalogChange)
    /// Whether the changes of `catalog` are heard of now.
    case live(catalog: String, ChangeFeedStatus)
    /// Following the changes of `catalog` ended with this error (a deleted catalog: `.notFound`).
    case followEnded(catalog: String, CatalogClientError)
    /// The record after a new `record` in the catalog's order (a page of one after its cursor), to
    /// place it in the list.
    case placed(catalog: String, record: Record, Result<ItemsPage, CatalogClientError>)
}

/// The terminal app's logic: turns events into state changes and requests, one event at a time
/// on the loop that owns it. Requests run as tasks of their own and come back as answers; the
/// search as you type waits a moment for more keys and cancels the request before it.
final class Browser {
    var state: BrowserState = {
        var state = BrowserState()
        state.userLocale = BrowserState.userLanguage(in: ProcessInfo.processInfo.environment)
        return state
    }()
    let source: any CatalogBrowsing
    /// The server, for sign-in and favorites (nil offline).
    let client: CatalogClient?
    /// Favorites marked while the server cannot be reached, kept until it can (nil: sent directly).
    let favoritesQueue: OfflineFavorites?
    let post: @Sendable (BrowserEvent) -> Void
    /// The terminal's size.
    var width = 80
    var height = 24
    /// Set when the app should end.
    var finished = false
    /// The request to repeat on Ctrl-R after a failure.
    var retry: (() -> Void)?
    var searchTask: Task<Void, Never>?
    /// Follows the open catalog's changes (online only).
    private var following: Task<Void, Never>?
    /// The screen and detail page to show again once a catalog read again for a reload is open.
    private var reopening: (screen: BrowserState.Screen, detail: BrowserState.Detail?)?
    /// Records per page.
    static let pageSize = 100
    /// How long search waits for the next key before it asks.
    static let debounce: Duration = .milliseconds(120)

    init(
        source: any CatalogBrowsing, client: CatalogClient?, offline: Bool, favoritesQueue: OfflineFavorites? = nil,
        post: @escaping @Sendable (BrowserEvent) -> Void
    ) {
        self.source = source
        self.client = client
        self.favoritesQueue = favoritesQueue
        self.post = post
        state.offline = offline
    }

    /// Rows for the list area of the screen.
    var bodyHeight: Int { BrowserView.bodyHeight(state: state, height: height) }

    // MARK: - Starting

    /// Shows the catalogs, or opens `catalog` at once.
    func start(catalog: String?) {
        if let catalog {
            open(catalog)
        } else {
            loadCatalogs()
        }
    }

    func loadCatalogs() {
        state.loading = true
        let source = source
        let post = post
        retry = { [weak self] in self?.loadCatalogs() }
        Task { post(.answer(.catalogs(await attempt { try await source.catalogs() }))) }
    }

    func open(_ id: String) {
        state.loading = true
        state.message = nil
        let source = source
        let post = post
        let limit = Self.pageSize
        let client = state.offline ? nil : client
        retry = { [weak self] in self?.open(id) }
        stopFollowing()
        Task {
            let result = await attempt { () async throws -> Answer.Opened in
                // The change number first: a change made while the rest is read is applied again,
                // which changes nothing; one made before it is in what is read.
                let change = try? await client?.changeLog(of: id, since: 0, limit: 1).change
                async let detail = source.catalog(id)
                async let sections = source.sections(of: id)
                async let categories = source.categories(of: id)
                async let featured = source.featured(of: id, limit: 1)
                async let page = source.items(of: id, section: nil, after: nil, before: nil, limit: limit)
                return Answer.Opened(
                    detail: try await detail, sections: try await sections, categories: try await categories,
                    hasFeatured: !(try await featured).isEmpty, page: try await page, change: change)
            }
            post(.answer(.opened(result)))
        }
    }

    // MARK: - Requests

    func switchTab(forward: Bool) {
        let tabs = state.tabs
        guard tabs.count > 1, let index = tabs.firstIndex(of: state.tab) else { return }
        state.tab = tabs[(index + (forward ? 1 : tabs.count - 1)) % tabs.count]
        switch state.tab {
        case .hot where !state.hot.loaded: loadPage(.hot, placement: .replace(selectLast: false))
        case .favorites where state.signedInAs != nil: loadFavorites()
        default: break
        }
    }

    /// An index jump: letters typed within a moment of each other spell a label (`c`, `s`: CS).
    func jump(typing character: Character) {
        let now = Date()
        if now.timeIntervalSince(state.lastJumpKey) > 0.8 { state.jumpLetters = "" }
        state.lastJumpKey = now
        state.jumpLetters.append(character)
        let labels = state.catalog?.sections ?? []
        var label = BrowserState.spelled(state.jumpLetters, labels: labels)
        if label == nil, state.jumpLetters.count > 1 {
            // The letters spell nothing together: the new one starts again.
            state.jumpLetters = String(character)
            label = BrowserState.spelled(state.jumpLetters, labels: labels)
        }
        guard let label = label ?? BrowserState.jumpTarget(String(character), labels: labels) else { return }
        loadPage(.list, placement: .replace(selectLast: false), startingAt: label)
    }

    func jumpToEnd() {
        guard let id = state.catalog?.id, let last = state.sections.last?.label else { return }
        state.list.generation += 1
        let generation = state.list.generation
        state.loading = true
        let source = source
        let post = post
        Task {
            let result = await attempt { () async throws -> ItemsPage in
                var page = try await source.items(of: id, startingAt: last, limit: CatalogLimits.maxPageSize)
                while let next = page.next {
                    let following = try await source.items(
                        of: id, section: nil, after: next, before: nil, limit: CatalogLimits.maxPageSize)
                    page = ItemsPage(items: following.items, next: following.next, previous: following.previous)
                }
                return page
            }
            post(.answer(.page(.list, generation: generation, .replace(selectLast: true), result)))
        }
    }

    /// Loads a page of a list: a new first page (`replace`), or the next or previous one.
    func loadPage(_ target: Answer.Target, placement: Answer.Placement, startingAt label: String? = nil) {
        guard let id = state.catalog?.id else { return }
        var list: RecordList
        switch target {
        case .list: list = state.list
        case .hot: list = state.hot
        case .categoryItems: list = state.categoryItems
        case .favorites: return loadFavorites()
        }
        var after: String?
        var before: String?
        switch placement {
        case .replace:
            list.generation += 1
            state.loading = true
        case .after:
            guard let cursor = list.after else { return }
            after = cursor
            list.loadingAfter = true
        case .before:
            guard let cursor = list.before else { return }
            before = cursor
            list.loadingBefore = true
        }
        let generation = list.generation
        switch target {
        case .list: state.list = list
        case .hot: state.hot = list
        case .categoryItems: state.categoryItems = list
        case .favorites: break
        }
        let source = source
        let post = post
        let category = state.openCategory
        let limit = Self.pageSize
        let (pageAfter, pageBefore) = (after, before)
        retry = { [weak self] in self?.loadPage(target, placement: placement, startingAt: label) }
        Task {
            let result = await attempt { () async throws -> ItemsPage in
                switch target {
                case .hot:
                    return ItemsPage(
                        items: try await source.featured(of: id, limit: CatalogLimits.maxFeatured), next: nil)
                case .categoryItems:
                    return try await source.items(
                        of: id, category: category ?? "", after: pageAfter, before: pageBefore, limit: limit)
                case .list, .favorites:
                    if let label { return try await source.items(of: id, startingAt: label, limit: limit) }
                    return try await source.items(
                        of: id, section: nil, after: pageAfter, before: pageBefore, limit: limit)
                }
            }
            post(.answer(.page(target, generation: generation, placement, result)))
        }
    }

    func loadMoreIfNeeded() {
        if var search = state.search {
            if search.results.wantsMoreAfter(height: bodyHeight), !search.searching {
                search.results.loadingAfter = true
                state.search = search
                runSearch(debounce: false, append: true)
            }
            return
        }
        guard let list = state.currentList else { return }
        let target: Answer.Target = state.tab == .list ? .list : state.tab == .hot ? .hot : .categoryItems
        guard state.tab != .favorites else { return }
        if list.wantsMoreAfter(height: bodyHeight) { loadPage(target, placement: .after) }
        if list.wantsMoreBefore(height: bodyHeight) { loadPage(target, placement: .before) }
    }

    /// Searches for the current query and scope, after a short pause for more keys, cancelling
    /// the search before.
    func runSearch(debounce: Bool, append: Bool = false) {
        guard var search = state.search, let catalog = state.catalog else { return }
        searchTask?.cancel()
        if !append { search.generation += 1 }
        search.searching = true
        state.search = search
        let generation = search.generation
        var request = SearchRequest(query: search.query, limit: 50)
        if catalog.scopes.indices.contains(search.scope), search.scope > 0 {
            request.scope = catalog.scopes[search.scope]
        }
        if append { request.after = search.results.after }
        let query = request
        let source = source
        let post = post
        let id = catalog.id
        let pause = debounce ? Self.debounce : nil
        retry = { [weak self] in self?.runSearch(debounce: false, append: append) }
        searchTask = Task {
            if let pause {
                try? await Task.sleep(for: pause)
                if Task.isCancelled { return }
            }
            let result = await attempt { try await source.search(query, in: id) }
            if case .failure(let error) = result, error.code == .cancelled { return }
            post(.answer(.searched(generation: generation, append: append, result)))
        }
    }

    func loadFavorites() {
        guard let client, client.token != nil else { return }
        state.favorites.generation += 1
        let generation = state.favorites.generation
        let post = post
        retry = { [weak self] in self?.loadFavorites() }
        Task { post(.answer(.favorites(generation: generation, await attempt { try await client.favorites() }))) }
    }

    func beginSignIn(returnTo: BrowserState.Screen, thenFavorite record: Record? = nil) {
        state.signIn = BrowserState.SignIn(returnTo: returnTo, favorite: record)
        state.screen = .signIn
    }

    func submitSignIn(name: String, password: String) {
        guard let client else { return }
        let post = post
        Task {
            post(.answer(.signedIn(await attempt { try await client.signIn(name: name, password: password) })))
        }
    }

    func signOut() {
        guard let client else { return }
        state.signedInAs = nil
        state.favoriteIDs = []
        Task { try? await client.signOut() }
    }

    func toggleFavorite(_ record: Record?) {
        guard let record, state.catalog != nil else { return }
        guard let client, !state.offline else {
            // A snapshot has no server to sign in to nor to send favorites to later.
            state.message = BrowserState.Message(
                text: state.phrases.favoritesNeedServer, isError: false, canRetry: false)
            return
        }
        guard client.token != nil else {
            if state.serverAway, favoritesQueue != nil {
                // Signing in cannot work now: the queue keeps it until the server is back.
                setFavorite(record, !state.favoriteIDs.contains(record.id))
                return
            }
            // Sign in first, then mark it.
            beginSignIn(returnTo: state.screen, thenFavorite: record)
            return
        }
        setFavorite(record, !state.favoriteIDs.contains(record.id))
    }

    /// Marks (or unmarks) `record` as a favorite on the server.
    func setFavorite(_ record: Record, _ isFavorite: Bool) {
        guard let client, let catalog = state.catalog?.id else { return }
        let post = post
        let queue = favoritesQueue
        Task {
            let result = await attempt { () async throws -> Bool in
                if let queue { return try await queue.set(isFavorite, catalog: catalog, item: record.id) == .sent }
                if isFavorite {
                    try await client.addFavorite(record.id, in: catalog)
                } else {
                    try await client.removeFavorite(record.id, in: catalog)
                }
                return true
            }
            post(.answer(.favoriteSet(item: record.id, isFavorite: isFavorite, result)))
        }
    }

    // MARK: - Answers

    func apply(_ answer: Answer) {
        state.loading = false
        switch answer {
        case .catalogs(.success(let catalogs)):
            state.catalogs = catalogs
            state.catalogsLoaded = true
            state.catalogSelection = min(state.catalogSelection, max(0, catalogs.count - 1))
            state.message = nil
            state.serverAway = false
        case .opened(.success(let opened)):
            state.catalog = opened.detail
            state.sections = opened.sections
            state.categories = opened.categories
            state.tabs =
                [.list] + (opened.hasFeatured ? [.hot] : []) + (opened.categories.isEmpty ? [] : [.categories])
                + (state.offline ? [] : [.favorites])
            state.tab = .list
            state.list = RecordList(sectioned: true)
            state.list.replace(with: opened.page.items, before: opened.page.previous, after: opened.page.next)
            state.hot = RecordList()
            state.favorites = RecordList()
            state.openCategory = nil
            state.search = nil
            state.lastSearch = nil
            state.screen = .catalog
            state.message = nil
            state.serverAway = false
            if state.signedInAs != nil { loadFavorites() }
            if let change = opened.change { startFollowing(opened.detail.id, after: change) }
            if let (screen, detail) = reopening, screen == .detail, let detail {
                state.detail = detail
                state.screen = .detail
            }
            reopening = nil
        case .change(let catalog, let change):
            guard catalog == state.catalog?.id else { return }
            applyChange(change, of: catalog)
        case .live(let catalog, let status):
            guard catalog == state.catalog?.id, state.live != .off else { return }
            state.live = status == .live ? .live : .disconnected
            state.serverAway = status != .live
            if status == .live { syncFavorites() }
        case .followEnded(let catalog, let error):
            guard catalog == state.catalog?.id else { return }
            state.live = .off
            if error.code == .notFound {
                state.message = BrowserState.Message(
                    text: state.phrases.catalogDeleted, isError: true, canRetry: false)
            } else {
                show(error)
            }
        case .placed(let catalog, let record, .success(let page)):
            guard catalog == state.catalog?.id else { return }
            state.place(record, before: page.items.first?.id, height: bodyHeight)
        case .placed(_, _, .failure):
            // The record shows once its page is loaded again.
            break
        case .page(let target, let generation, let placement, .success(let page)):
            applyPage(target, generation: generation, placement: placement, page: page)
        case .searched(let generation, let append, .success(let response)):
            guard var search = state.search ?? state.lastSearch, search.generation == generation else { return }
            search.results.similarHeader = state.phrases.similarSpelling
            if append {
                search.results.append(
                    response.items.map(\.record), matches: response.items.map(\.matches),
                    typos: response.items.map(\.typo))
                search.results.after = response.next
                search.results.loadingAfter = false
            } else {
                search.results.replace(
                    with: response.items.map(\.record), matches: response.items.map(\.matches),
                    typos: response.items.map(\.typo), before: nil, after: response.next)
                search.total = response.total
                search.totalCapped = response.totalCapped
                search.scopes = response.scopes
            }
            search.searching = false
            if state.search != nil { state.search = search } else { state.lastSearch = search }
            state.message = nil
            state.serverAway = false
        case .favorites(let generation, .success(let entries)):
            guard generation == state.favorites.generation else { return }
            let mine = entries.filter { $0.catalog == state.catalog?.id }
            state.favoriteIDs = Set(mine.map(\.item))
            let generationKept = state.favorites.generation
            state.favorites.replace(with: mine.compactMap(\.record), before: nil, after: nil)
            state.favorites.generation = generationKept
        case .signedIn(.success(let response)):
            state.signedInAs = response.user.name
            state.signIn.busy = false
            state.screen = state.signIn.returnTo
            syncFavorites()
            if let record = state.signIn.favorite {
                state.signIn.favorite = nil
                setFavorite(record, true)
            } else if state.catalog != nil {
                loadFavorites()
            }
        case .signedIn(.failure(let error)):
            state.signIn.busy = false
            state.signIn.failed = true
            if error.code != .unauthorized { show(error) }
        case .favoriteSet(let item, let isFavorite, .success(let sent)):
            if isFavorite { state.favoriteIDs.insert(item) } else { state.favoriteIDs.remove(item) }
            if sent {
                loadFavorites()
            } else {
                let phrases = state.phrases
                state.message = BrowserState.Message(
                    text: client?.token == nil ? phrases.favoriteQueuedUntilSignIn : phrases.favoriteQueued,
                    isError: false, canRetry: false)
            }
        case .favoritesSynced(.success(let report)):
            guard report.sent > 0 || report.superseded > 0 || report.dropped > 0 else { return }
            state.message = BrowserState.Message(
                text: "\(state.phrases.queuedFavoritesSent) \(report.sent)", isError: false, canRetry: false)
            loadFavorites()
        case .favoritesSynced(.failure):
            // Still away, or signed out: the queue keeps them for the next time.
            break
        case .searched(let generation, _, .failure(let error)):
            if var search = state.search, search.generation == generation {
                search.searching = false
                search.results.loadingAfter = false
                state.search = search
                show(error)
            }
        case .page(let target, _, _, .failure(let error)):
            switch target {
            case .list: (state.list.loadingAfter, state.list.loadingBefore) = (false, false)
            case .hot: (state.hot.loadingAfter, state.hot.loadingBefore) = (false, false)
            case .categoryItems: (state.categoryItems.loadingAfter, state.categoryItems.loadingBefore) = (false, false)
            case .favorites: break
            }
            show(error)
        case .catalogs(.failure(let error)), .opened(.failure(let error)), .favorites(_, .failure(let error)),
            .favoriteSet(_, _, .failure(let error)):
            if error.code == .unauthorized {
                state.signedInAs = nil
                state.message = BrowserState.Message(
                    text: state.phrases.signInForFavorites, isError: true, canRetry: false)
            } else {
                show(error)
            }
        }
    }

    // MARK: - Live changes

    /// Follows the changes of `catalog` after change number `since`, until another catalog opens
    /// or the app ends.
    private func startFollowing(_ catalog: String, after since: Int) {
        stopFollowing()
        guard let client, !state.offline else { return }
        state.live = .connecting
        let post = post
        var options = ChangeFeedOptions()
        options.onStatus = { status in post(.answer(.live(catalog: catalog, status))) }
        following = Task { [options] in
            var changes = client.changes(of: catalog, since: since, options: options).makeAsyncIterator()
            do throws(CatalogClientError) {
                while let change = try await changes.next() { post(.answer(.change(catalog: catalog, change))) }
            } catch {
                post(.answer(.followEnded(catalog: catalog, error)))
            }
        }
    }

    func stopFollowing() {
        following?.cancel()
        following = nil
        state.live = .off
    }

    /// One live change: records in place, a new record placed once the record after it is known,
    /// the catalog read again for a reload or a new definition (keeping the screen).
    private func applyChange(_ change: CatalogChange, of catalog: String) {
        switch change.kind {
        case .upsert, .delete:
            guard state.apply(change, height: bodyHeight), let record = change.record, let client else { return }
            guard let cursor = change.cursor else { return }
            let post = post
            Task {
                let result = await attempt { try await client.items(of: catalog, after: cursor, limit: 1) }
                post(.answer(.placed(catalog: catalog, record: record, result)))
            }
        case .definition, .reload:
            let screen = state.screen
            let detail = state.detail
            open(catalog)
            reopening = (screen, detail)
        }
    }

    private func applyPage(_ target: Answer.Target, generation: Int, placement: Answer.Placement, page: ItemsPage) {
        var list: RecordList
        switch target {
        case .list: list = state.list
        case .hot: list = state.hot
        case .categoryItems: list = state.categoryItems
        case .favorites: return
        }
        guard list.generation == generation else { return }
        switch placement {
        case .replace(let selectLast):
            list.replace(with: page.items, before: page.previous, after: page.next)
            list.generation = generation
            if selectLast { list.selectEdge(last: true, height: bodyHeight) }
        case .after:
            list.append(page.items)
            list.after = page.next
            list.loadingAfter = false
        case .before:
            list.prepend(page.items)
            list.before = page.previous
            list.loadingBefore = false
        }
        list.reveal(height: bodyHeight)
        switch target {
        case .list: state.list = list
        case .hot: state.hot = list
        case .categoryItems: state.categoryItems = list
        case .favorites: break
        }
        state.message = nil
        state.serverAway = false
    }

    /// Sends the favorites queued while the server was away (when there are any).
    func syncFavorites() {
        guard let queue = favoritesQueue, client?.token != nil else { return }
        let post = post
        Task {
            guard await !queue.pending.isEmpty else { return }
            post(.answer(.favoritesSynced(await attempt { try await queue.sync() })))
        }
    }

    /// A failure as the bottom line: one sentence in the catalog's language, and Ctrl-R to try
    /// again when it may help.
    private func show(_ error: CatalogClientError) {
        if error.isConnectivity { state.serverAway = true }
        state.message = BrowserState.Message(
            text: Self.sentence(for: error, in: state.phrases), isError: true,
            canRetry: error.isConnectivity || error.code == .unavailable || error.code == .server)
    }

    /// What the bottom line says for a failure: the server's own message is English, so each kind
    /// of failure has a sentence of ``CatalogPhrases``.
    static func sentence(for error: CatalogClientError, in phrases: CatalogPhrases) -> String {
        if error.isConnectivity { return phrases.unreachable }
        switch error.code {
        case .unauthorized where error.apiCode == "sign_in_failed": return phrases.wrongCredentials
        case .unauthorized: return phrases.signInFirst
        case .notFound: return phrases.notFound
        case .unavailable, .tooManyRequests: return phrases.serverBusy
        case .server, .http, .decoding: return phrases.serverFailed
        default: return phrases.requestRefused
        }
    }

    func clampScroll() {
        let height = bodyHeight
        state.list.reveal(height: height)
        state.hot.reveal(height: height)
        state.categoryItems.reveal(height: height)
        state.favorites.reveal(height: height)
        state.search?.results.reveal(height: height)
    }
}

/// Runs `body`, its error as a value (the client library throws nothing but client errors).
func attempt<T>(_ body: () async throws -> T) async -> Result<T, CatalogClientError> {
    do {
        return .success(try await body())
    } catch let error as CatalogClientError {
        return .failure(error)
    } catch {
        return .failure(CatalogClientError(.transport, "\(error)"))
    }
}
