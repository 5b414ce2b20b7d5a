import CatalogModel
import CatalogStorage

/// A reader that sees only the records a ``RecordFilter`` passes (an API key's), on every engine:
/// it answers the engine's narrow questions from another reader's, so every rule built on them
/// (browse pages, cursors, positions, outlines, sections, categories, featured, a record by id,
/// its history and image) sees the filtered catalog and nothing else.
///
/// A catalog read through it counts only the records that pass: its ``CatalogSummary/count``,
/// the counts of its categories (a category none of them carries is not there), its sections.
/// A record that does not pass does not exist: ``item(of:id:)`` is nil, as for a missing id.
///
/// ```swift
/// let filter = try RecordFilter(parsing: "country = DE")
/// let page = try database.read(narrowedBy: filter) { reader in
///     try reader.items(of: reader.requireCatalog("products"), limit: 20)
/// }
/// ```
///
/// Answers walk the underlying reader's pages in index order and test each record, so they cost
/// in proportion to the part of the catalog they pass over (the index's in-memory orders, which
/// know no filter, are not used: ``CatalogReader/isFiltered``). The catalog's filtered counts
/// (in all, by category, by section) are worked out once per catalog version and filter, and kept
/// in the database's ``SearchIndexCache``. Search narrows its request instead
/// (``RecordFilter/narrowing(_:)``).
public final class FilteredCatalogReader: CatalogReader {
    /// The reader that sees every record.
    public let base: any CatalogReader
    /// What a record must pass to be seen.
    public let filter: RecordFilter
    /// The catalogs as seen through the filter, by the underlying version key.
    private var narrowed: [String: StoredCatalog] = [:]

    /// How many records one underlying page read takes.
    static let batch = CatalogLimits.maxPageSize

    /// A reader of `base` that sees only what `filter` passes.
    public init(_ base: any CatalogReader, filter: RecordFilter) {
        self.base = base
        self.filter = filter
    }

    public var indexCache: SearchIndexCache { base.indexCache }

    public func catalogs() throws -> [CatalogSummary] {
        try base.catalogs().map { summary in
            var summary = summary
            summary.count = try catalog(summary.id)?.summary.count ?? 0
            return summary
        }
    }

    public func catalog(_ id: String) throws -> StoredCatalog? {
        guard let stored = try base.catalog(id) else { return nil }
        if let known = narrowed[stored.versionKey] { return known }
        let counts = try passing(stored)
        var catalog = stored
        catalog.summary.count = counts.count
        catalog.categories = stored.categories.compactMap { category in
            guard let passing = counts.categories[category.name], passing > 0 else { return nil }
            var counted = category
            counted.count = passing
            return counted
        }
        // Whatever is cached by version key keeps the filtered catalog apart from the whole one.
        catalog.versionKey = Self.versionKey(stored.versionKey, filter)
        narrowed[stored.versionKey] = catalog
        return catalog
    }

    /// How many records of a catalog version pass the filter, in all, by category and by
    /// section: worked out by one walk over the catalog, then kept in the database's cache until
    /// the catalog changes.
    struct Counts: Sendable {
        var count = 0
        var categories: [String: Int] = [:]
        var sections: [Int: Int] = [:]
    }

    /// The counts of the records of `catalog` (the underlying reader's) the filter passes.
    private func passing(_ catalog: StoredCatalog) throws -> Counts {
        try indexCache.listValue(for: Self.versionKey(catalog.versionKey, filter) + "/counts") {
            var counts = Counts()
            try scan(catalog, .all, from: nil) { hit in
                counts.count += 1
                for label in Set(hit.categories) { counts.categories[label, default: 0] += 1 }
                if let section = hit.key?.section { counts.sections[section, default: 0] += 1 }
                return true
            }
            return counts
        }
    }

    /// The version key of a catalog version seen through `filter`.
    static func versionKey(_ key: String, _ filter: RecordFilter) -> String {
        key + "|filter " + filter.description
    }

    /// The underlying reader's catalog of a catalog this reader gave.
    ///
    /// - Throws: `.catalogNotFound` when the catalog changed since (as engines do).
    private func original(_ catalog: StoredCatalog) throws -> StoredCatalog {
        guard let stored = try base.catalog(catalog.id),
            Self.versionKey(stored.versionKey, filter) == catalog.versionKey || stored.versionKey == catalog.versionKey
        else {
            throw StorageError(.catalogNotFound, "catalog \"\(catalog.id)\" changed or no longer exists")
        }
        return stored
    }

    /// Calls `body` with each record of `selection` that passes the filter, in index order from
    /// `bound` (backwards from a `.before` bound), until it returns false or the records end.
    private func scan(
        _ catalog: StoredCatalog, _ selection: BrowseSelection, from bound: BrowseBound?,
        _ body: (StoredHit) throws -> Bool
    ) throws {
        var bound = bound
        var backwards = false
        if case .before = bound { backwards = true }
        while true {
            let page = try base.page(of: catalog, selection: selection, from: bound, limit: Self.batch)
            for hit in backwards ? Array(page.items.reversed()) : page.items where filter.passes(hit) {
                guard try body(hit) else { return }
            }
            guard page.hasMore, let edge = (backwards ? page.items.first : page.items.last)?.key else { return }
            bound = backwards ? .before(edge) : .after(edge)
        }
    }

    public func sections(of catalog: StoredCatalog) throws -> [SectionCount] {
        let labels = catalog.sectionLabels
        return try sectionCounts(of: catalog, selection: .all).map { position, count in
            SectionCount(label: labels.indices.contains(position) ? labels[position] : "#", count: count)
        }
    }

    public func page(of catalog: StoredCatalog, selection: BrowseSelection, from bound: BrowseBound?, limit: Int) throws
        -> StoredPage
    {
        var items: [StoredHit] = []
        var more = false
        try scan(original(catalog), selection, from: bound) { hit in
            guard items.count < limit else {
                more = true
                return false
            }
            items.append(hit)
            return true
        }
        if case .before = bound { items.reverse() }
        return StoredPage(items: items, hasMore: more)
    }

    public func count(of catalog: StoredCatalog, selection: BrowseSelection, before key: BrowseKey) throws -> Int {
        var count = 0
        try scan(original(catalog), selection, from: .before(key)) { _ in
            count += 1
            return true
        }
        return count
    }

    public func item(of catalog: StoredCatalog, id: String) throws -> StoredHit? {
        guard let hit = try base.item(of: original(catalog), id: id), filter.passes(hit) else { return nil }
        return hit
    }

    public func featured(of catalog: StoredCatalog, limit: Int) throws -> [StoredHit] {
        let stored = try original(catalog)
        // Featured records are few: the engine's whole list, then the ones that pass.
        let all = try base.featured(of: stored, limit: max(limit, stored.summary.count))
        return Array(all.filter(filter.passes).prefix(limit))
    }

    public func forEachItem(of catalog: StoredCatalog, _ body: (StoredHit) throws -> Void) throws {
        try base.forEachItem(of: original(catalog)) { hit in
            if filter.passes(hit) { try body(hit) }
        }
    }

    public func itemHashes(of catalog: StoredCatalog) throws -> [String: UInt64] {
        let stored = try original(catalog)
        var seen = Set<String>()
        try scan(stored, .all, from: nil) { hit in
            seen.insert(hit.id)
            return true
        }
        return try base.itemHashes(of: stored).filter { seen.contains($0.key) }
    }

    /// The whole catalog's index: searches through this reader narrow their request by the filter
    /// (``RecordFilter/narrowing(_:)``); browsing does not use the index's orders here.
    public func searchSegments(of catalog: StoredCatalog) throws -> [SearchSegment] {
        try base.searchSegments(of: original(catalog))
    }

    public func page(of catalog: StoredCatalog, selection: BrowseSelection, position: Int, limit: Int) throws
        -> StoredPage
    {
        var skipped = 0
        var items: [StoredHit] = []
        var more = false
        try scan(original(catalog), selection, from: nil) { hit in
            guard skipped == position else {
                skipped += 1
                return true
            }
            guard items.count < limit else {
                more = true
                return false
            }
            items.append(hit)
            return true
        }
        return StoredPage(items: items, hasMore: more)
    }

    public func sectionCounts(of catalog: StoredCatalog, selection: BrowseSelection) throws -> [(
        position: Int, count: Int
    )] {
        let stored = try original(catalog)
        var counts: [Int: Int] = [:]
        switch selection {
        case .all:
            counts = try passing(stored).sections
        case .section(let position):
            counts = try passing(stored).sections.filter { $0.key == position }
        case .category:
            try scan(stored, selection, from: nil) { hit in
                if let section = hit.key?.section { counts[section, default: 0] += 1 }
                return true
            }
        }
        return counts.sorted { $0.key < $1.key }.map { (position: $0.key, count: $0.value) }
    }

    /// The changes the filter lets be seen (``RecordFilter/seen(_:)``): some numbers are missing.
    /// A reader of pages of the log reads the underlying one, whose numbers have no gaps, and
    /// applies ``RecordFilter/seen(_:)`` to what it read.
    public func changes(of catalog: StoredCatalog, since: Int, limit: Int) throws -> [StoredChange] {
        try base.changes(of: original(catalog), since: since, limit: limit).compactMap(filter.seen)
    }

    /// The record's changes when the record passes the filter (or, deleted, passed it last);
    /// none otherwise, as for a record that never was.
    public func history(of catalog: StoredCatalog, item: String, limit: Int) throws -> [StoredChange] {
        let stored = try original(catalog)
        guard try isSeen(stored, item: item) else { return [] }
        return try base.history(of: stored, item: item, limit: limit)
    }

    /// Whether record `item` is one the filter lets be seen: it passes now, or, deleted, it
    /// passed before its deletion.
    private func isSeen(_ catalog: StoredCatalog, item: String) throws -> Bool {
        if let hit = try base.item(of: catalog, id: item) { return filter.passes(hit) }
        guard let last = try base.history(of: catalog, item: item, limit: 1).first,
            let json = last.record ?? last.previous
        else { return false }
        return filter.passes(json: json)
    }

    public func oldestChange(of catalog: StoredCatalog) throws -> Int? {
        try base.oldestChange(of: original(catalog))
    }

    /// The image of a record the filter passes; nil for any other record, as for one without.
    public func storedImage(of catalog: String, item: String) throws -> StoredImage? {
        guard let stored = try base.catalog(catalog), let hit = try base.item(of: stored, id: item),
            filter.passes(hit)
        else { return nil }
        return try base.storedImage(of: catalog, item: item)
    }

    public func forEachStoredImage(of catalog: String, _ body: (StoredImage) throws -> Void) throws {
        guard let stored = try base.catalog(catalog) else { return }
        var seen = Set<String>()
        try scan(stored, .all, from: nil) { hit in
            seen.insert(hit.id)
            return true
        }
        try base.forEachStoredImage(of: catalog) { image in
            if seen.contains(image.item) { try body(image) }
        }
    }
}

extension CatalogReader {
    /// Whether this reader sees only some records (``FilteredCatalogReader``): answers that the
    /// index's in-memory orders give of the whole catalog are then worked out from its reads.
    var isFiltered: Bool { self is FilteredCatalogReader }
}

extension CatalogDatabase {
    /// Runs `body` in one snapshot as ``read(_:)`` does, with a reader that sees only the records
    /// `filter` passes (``FilteredCatalogReader``); every record when `filter` is nil.
    public func read<T>(narrowedBy filter: RecordFilter?, _ body: (any CatalogReader) throws -> T) throws -> T {
        try read { reader in
            try body(filter.map { FilteredCatalogReader(reader, filter: $0) } ?? reader)
        }
    }
}
