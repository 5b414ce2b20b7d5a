#if canImport(Observation)
    import Foundation
    import Observation

    /// A catalog's records for a SwiftUI list: pages in index order while browsing, ranked hits
    /// while searching, loaded as rows come into view, searched as the person types (after a
    /// short pause, the previous search cancelled).
    ///
    /// ```swift
    /// struct ProductList: View {
    ///     @State var model = CatalogListModel(client: client, catalog: "products")
    ///     var body: some View {
    ///         List(model.records) { record in
    ///             Text(record.title).task { await model.loadMore(ifNeededAfter: record) }
    ///         }
    ///         .searchable(text: $model.query)
    ///         .task { await model.load() }
    ///     }
    /// }
    /// ```
    ///
    /// Answers that a newer query or scope replaced are dropped, so the rows always belong to
    /// what the field shows. A failure is kept in ``error`` (with the rows already shown).
    @MainActor
    @Observable
    public final class CatalogListModel {
        /// The catalog's id.
        public let catalog: String
        /// The rows: records in index order while browsing, hits best first while searching.
        public private(set) var records: [Record] = []
        /// How many records match a search (nil while browsing); see ``totalCapped``.
        public private(set) var total: Int?
        /// True when more than ``total`` records match.
        public private(set) var totalCapped = false
        /// The scopes of the last search, with their counts.
        public private(set) var scopes: [ScopeCount] = []
        /// True while a page is being fetched.
        public private(set) var isLoading = false
        /// The last failure, nil once a page loads.
        public private(set) var error: CatalogClientError?
        /// The search text; changing it searches once typing pauses (the `debounce` given to
        /// ``init(client:catalog:pageSize:debounce:)``; empty: the list in index order).
        public var query = "" {
            didSet { if query != oldValue { restart(after: debounce) } }
        }
        /// The scope searched in (nil: the catalog's first, all records); changing it searches at once.
        public var scope: String? {
            didSet { if scope != oldValue { restart(after: .zero) } }
        }

        @ObservationIgnored private let client: CatalogClient
        @ObservationIgnored private let pageSize: Int
        @ObservationIgnored private let debounce: Duration
        @ObservationIgnored private var next: String?
        @ObservationIgnored private var started = false
        @ObservationIgnored private var generation = 0
        @ObservationIgnored private var pending: Task<Void, Never>?

        /// Creates a model; nothing is fetched until ``load()``.
        ///
        /// - Parameters:
        ///   - client: the client to fetch with.
        ///   - catalog: the catalog's id.
        ///   - pageSize: records per page.
        ///   - debounce: how long typing must pause before a search is sent.
        public init(
            client: CatalogClient, catalog: String, pageSize: Int = 50, debounce: Duration = .milliseconds(200)
        ) {
            self.client = client
            self.catalog = catalog
            self.pageSize = pageSize
            self.debounce = debounce
        }

        /// Whether more rows follow the last one.
        public var hasMore: Bool { next != nil }

        /// Loads the first page (again): call it when the list appears, or to refresh.
        public func load() async {
            started = true
            pending?.cancel()
            generation += 1
            next = nil
            await fetch(first: true, generation: generation)
        }

        /// Loads the next page when `record` is one of the last few rows and more follow: call it
        /// as each row appears.
        public func loadMore(ifNeededAfter record: Record) async {
            guard hasMore, !isLoading else { return }
            guard let index = records.lastIndex(where: { $0.id == record.id }), index >= records.count - 5 else {
                return
            }
            await fetch(first: false, generation: generation)
        }

        /// Waits until the search the last change of ``query`` or ``scope`` started has been
        /// answered (or replaced): for tests, and for a pull-to-refresh that follows typing.
        public func settle() async {
            while let task = pending {
                await task.value
                if pending == task { break }
            }
        }

        private func restart(after delay: Duration) {
            guard started else { return }
            pending?.cancel()
            generation += 1
            let generation = generation
            pending = Task { [weak self] in
                if delay > .zero {
                    do { try await Task.sleep(for: delay) } catch { return }
                }
                guard let self, self.generation == generation else { return }
                self.next = nil
                await self.fetch(first: true, generation: generation)
            }
        }

        private func fetch(first: Bool, generation: Int) async {
            isLoading = true
            defer { if self.generation == generation { isLoading = false } }
            let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
            do {
                if trimmed.isEmpty && scope == nil {
                    let page = try await client.items(of: catalog, after: first ? nil : next, limit: pageSize)
                    guard self.generation == generation else { return }
                    records = first ? page.items : records + page.items
                    next = page.next
                    total = nil
                    totalCapped = false
                    scopes = []
                } else {
                    var request = SearchRequest(query: trimmed, scope: scope, limit: pageSize)
                    request.after = first ? nil : next
                    let response = try await client.search(request, in: catalog)
                    guard self.generation == generation else { return }
                    let hits = response.items.map(\.record)
                    records = first ? hits : records + hits
                    next = response.next
                    total = response.total
                    totalCapped = response.totalCapped
                    scopes = response.scopes
                }
                error = nil
            } catch {
                guard self.generation == generation, error.code != .cancelled else { return }
                self.error = error
            }
        }
    }
#endif
