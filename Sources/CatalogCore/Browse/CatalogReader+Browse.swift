import CatalogModel
import CatalogStorage

/// A browse page with its cursors.
public struct BrowsePage: Sendable {
    /// The records, in index order.
    public var items: [StoredHit]
    /// The cursor of the page after this one, nil at the end.
    public var next: String?
    /// The cursor of the page before this one, nil at the start.
    public var previous: String?

    /// The records, decoded.
    public func records() throws -> [Record] {
        try items.map { try $0.record() }
    }
}

/// Browsing, the same on every engine: pages in index order with cursors that survive
/// re-imports (``BrowseCursor``), sections, categories, jumps to a letter.
extension CatalogReader {
    /// The catalog with id `id`.
    ///
    /// - Throws: ``StorageError`` `.catalogNotFound`.
    public func requireCatalog(_ id: String) throws -> StoredCatalog {
        guard let catalog = try catalog(id) else {
            throw StorageError(.catalogNotFound, "no catalog named \"\(id.prefix(80))\"")
        }
        return catalog
    }

    /// The scopes search offers for the catalog.
    public func scopes(of catalog: StoredCatalog) -> [ScopeDefinition] {
        CatalogScopes.scopes(of: catalog.definition, categories: catalog.categories)
    }

    /// A page in index order, optionally of one section; `after` continues a page, `before`
    /// goes back one.
    ///
    /// - Throws: `.nameNotFound` for a label the locale does not have, `.invalidArgument` for a
    ///   bad cursor or limit.
    public func items(
        of catalog: StoredCatalog, section: String? = nil, after: String? = nil, before: String? = nil, limit: Int
    ) throws -> BrowsePage {
        var selection = BrowseSelection.all
        if let section {
            guard let position = catalog.sectionLabels.firstIndex(of: section) else {
                throw StorageError(.nameNotFound, "catalog \"\(catalog.id)\" has no section \"\(section.prefix(64))\"")
            }
            selection = .section(position)
        }
        return try page(of: catalog, selection: selection, after: after, before: before, limit: limit)
    }

    /// The records of a category in index order.
    ///
    /// - Throws: `.nameNotFound` for a category the catalog does not have.
    public func items(
        of catalog: StoredCatalog, category: String, after: String? = nil, before: String? = nil, limit: Int
    ) throws -> BrowsePage {
        guard let number = catalog.categories.first(where: { $0.name == category })?.id else {
            throw StorageError(.nameNotFound, "catalog \"\(catalog.id)\" has no category \"\(category.prefix(80))\"")
        }
        return try page(of: catalog, selection: .category(number), after: after, before: before, limit: limit)
    }

    /// A page in index order starting at section `label` and going on into the following ones
    /// (the index rail's jump); an empty section starts at the next non-empty one. The page's
    /// `previous` cursor reaches everything before.
    ///
    /// - Throws: `.nameNotFound` when the locale has no such label.
    public func items(of catalog: StoredCatalog, startingAt label: String, limit: Int) throws -> BrowsePage {
        guard let position = catalog.sectionLabels.firstIndex(of: label) else {
            throw StorageError(.nameNotFound, "catalog \"\(catalog.id)\" has no section \"\(label.prefix(64))\"")
        }
        return try page(
            of: catalog, selection: .all, bound: .from(.start(ofSection: position)), limit: try Self.checked(limit))
    }

    /// How many records come before a cursor's place in index order.
    public func position(of catalog: StoredCatalog, cursor: String) throws -> Int {
        try count(of: catalog, selection: .all, before: BrowseCursor.decode(cursor))
    }

    private func page(
        of catalog: StoredCatalog, selection: BrowseSelection, after: String?, before: String?, limit: Int
    ) throws -> BrowsePage {
        let limit = try Self.checked(limit)
        // With both cursors, `after` wins: a page continues forward.
        let bound: BrowseBound? =
            if let after { .after(try BrowseCursor.decode(after)) } else if let before {
                .before(try BrowseCursor.decode(before))
            } else { nil }
        return try page(of: catalog, selection: selection, bound: bound, limit: limit)
    }

    private func page(of catalog: StoredCatalog, selection: BrowseSelection, bound: BrowseBound?, limit: Int) throws
        -> BrowsePage
    {
        let stored = try page(of: catalog, selection: selection, from: bound, limit: limit)
        let firstKey = stored.items.first?.key
        let lastKey = stored.items.last?.key
        var next: String?
        var previous: String?
        switch bound {
        case .before:
            // Read backwards: there is more before when the engine says so, and the page ends
            // right before the given key, so there is always something after.
            if stored.hasMore, let firstKey { previous = BrowseCursor.encode(firstKey) }
            if let lastKey { next = BrowseCursor.encode(lastKey) }
        case .after, .from:
            if stored.hasMore, let lastKey { next = BrowseCursor.encode(lastKey) }
            if let firstKey,
                try !page(of: catalog, selection: selection, from: .before(firstKey), limit: 1).items.isEmpty
            {
                previous = BrowseCursor.encode(firstKey)
            }
        case nil:
            if stored.hasMore, let lastKey { next = BrowseCursor.encode(lastKey) }
        }
        return BrowsePage(items: stored.items, next: next, previous: previous)
    }

    /// `limit` when it is a page size, 1 to ``CatalogLimits/maxPageSize``.
    static func checked(_ limit: Int) throws(StorageError) -> Int {
        guard (1...CatalogLimits.maxPageSize).contains(limit) else {
            throw StorageError(
                .invalidArgument, "'limit' must be a whole number from 1 to \(CatalogLimits.maxPageSize)")
        }
        return limit
    }

    /// The record fields the catalog's results may be sorted by (``CatalogSearcher/sortableFields``).
    public func sortableFields(of catalog: StoredCatalog) throws -> [String] {
        CatalogSearcher(
            segments: try loadedSegments(of: catalog),
            catalog: SearchCatalog(definition: catalog.definition, categories: catalog.categories)
        ).sortableFields
    }

    /// Makes what the first search of `catalog` would otherwise make and the search caches then
    /// keep (``CatalogSearcher/prepare()``); a server calls it after a change, off the request
    /// path. Returns how many orders it made.
    @discardableResult
    public func prepareSearch(of catalog: StoredCatalog) throws -> Int {
        try CatalogSearcher(
            segments: try loadedSegments(of: catalog),
            catalog: SearchCatalog(definition: catalog.definition, categories: catalog.categories)
        ).prepare()
    }

    /// Runs a checked search (``CatalogSearcher``).
    public func search(_ request: SearchRequest.Checked, in catalog: StoredCatalog) throws -> SearchResult {
        let searcher = CatalogSearcher(
            segments: try loadedSegments(of: catalog),
            catalog: SearchCatalog(definition: catalog.definition, categories: catalog.categories))
        return try searcher.search(request)
    }
}
