import CatalogModel
import CatalogStorage

/// A list in index order addressed by position: the whole catalog, or one category's records.
/// A client that knows the outline lays the whole list out (a header per section, a row per
/// record) and asks for the rows at any position, so a scroll bar or an index rail reaches every
/// row of a million without reading the ones before it.
public struct ListOutline: Sendable, Equatable {
    /// How many records the list holds.
    public var count: Int
    /// Its non-empty sections in order, each with the position of its first record.
    public var sections: [OutlineSection]

    /// Creates an outline.
    public init(count: Int, sections: [OutlineSection]) {
        self.count = count
        self.sections = sections
    }

    /// The position of the first record at or after section `label` (the index rail's jump: an
    /// empty section leads to the next non-empty one; past the last, the end of the list), or
    /// nil when the locale has no such label.
    public func start(ofLabel label: String, labels: [String]) -> Int? {
        guard let index = labels.firstIndex(of: label) else { return nil }
        return sections.first { $0.labelIndex >= index }?.start ?? count
    }
}

/// A non-empty section of a ``ListOutline``.
public struct OutlineSection: Sendable, Equatable {
    /// The section's label (`A`, `CS`, `#`).
    public var label: String
    /// Its index among the locale's labels.
    public var labelIndex: Int
    /// The position of its first record in the list.
    public var start: Int
    /// How many records it holds.
    public var count: Int

    /// Creates a section.
    public init(label: String, labelIndex: Int, start: Int, count: Int) {
        self.label = label
        self.labelIndex = labelIndex
        self.start = start
        self.count = count
    }
}

/// Rows of a list by position, with the cursor of each (``BrowseCursor``), so a client can keep
/// the place of any row in a link that outlives re-imports.
public struct PositionedPage: Sendable {
    /// The records from ``position`` on, in index order.
    public var items: [StoredHit]
    /// The position of the first record.
    public var position: Int
    /// How many records the whole list holds.
    public var count: Int
    /// The cursor of each record.
    public var cursors: [String]

    /// The cursor of the page after this one, nil at the end.
    public var next: String? { position + items.count < count ? cursors.last : nil }
    /// The cursor of the page before this one, nil at the start.
    public var previous: String? { position > 0 ? cursors.first : nil }

    /// The records, decoded.
    public func records() throws -> [Record] {
        try items.map { try $0.record() }
    }
}

extension CatalogReader {
    /// The outline of the catalog, or of one category's records (by its number).
    ///
    /// - Throws: `.nameNotFound` for a category number the catalog does not have.
    public func outline(of catalog: StoredCatalog, category: Int? = nil) throws -> ListOutline {
        let labels = catalog.sectionLabels
        guard let category else {
            var start = 0
            var sections: [OutlineSection] = []
            for section in try self.sections(of: catalog) {
                let index = labels.firstIndex(of: section.label) ?? labels.count
                sections.append(
                    OutlineSection(label: section.label, labelIndex: index, start: start, count: section.count))
                start += section.count
            }
            return ListOutline(count: start, sections: sections)
        }
        guard let list = try categoryList(of: catalog, category: category) else {
            // An index of several segments: the engine counts the category's records by section.
            var start = 0
            var sections: [OutlineSection] = []
            for (position, count) in try sectionCounts(of: catalog, selection: .category(category)) {
                let label = labels.indices.contains(position) ? labels[position] : "#"
                sections.append(OutlineSection(label: label, labelIndex: position, start: start, count: count))
                start += count
            }
            return ListOutline(count: start, sections: sections)
        }
        let whole = try outline(of: catalog)
        // A category's positions are positions of the whole list: the sections of the whole list
        // split them.
        var sections: [OutlineSection] = []
        var cursor = 0
        for section in whole.sections {
            let end = section.start + section.count
            var count = 0
            while cursor + count < list.count, Int(list[cursor + count]) < end { count += 1 }
            if count > 0 {
                sections.append(
                    OutlineSection(label: section.label, labelIndex: section.labelIndex, start: cursor, count: count))
            }
            cursor += count
        }
        return ListOutline(count: list.count, sections: sections)
    }

    /// Up to `limit` records of the catalog (or of a category) from `position` on.
    ///
    /// - Throws: `.invalidArgument` for a negative position or a limit outside 1…``CatalogLimits/maxPageSize``,
    ///   `.nameNotFound` for an unknown category number.
    public func items(of catalog: StoredCatalog, category: Int? = nil, position: Int, limit: Int) throws
        -> PositionedPage
    {
        let limit = try Self.checked(limit)
        guard position >= 0 else { throw StorageError(.invalidArgument, "position must not be negative") }
        guard let order = try BrowseOrder(reader: self, catalog: catalog, category: category) else {
            let selection = try selection(of: catalog, category: category)
            let count = try listCount(of: catalog, selection: selection)
            let start = min(position, count)
            let items = try keyed(
                page(of: catalog, selection: selection, position: start, limit: limit).items, of: catalog)
            return PositionedPage(
                items: items, position: start, count: count,
                cursors: items.map { $0.key.map(BrowseCursor.encode) ?? "" })
        }
        let start = min(position, order.count)
        let end = min(order.count, start + limit)
        let documents = (start..<end).map { order.document(at: $0) }
        let items = try keyed(order.indexReader.hits(documents: documents), of: catalog)
        return PositionedPage(
            items: items, position: start, count: order.count,
            cursors: items.map { $0.key.map(BrowseCursor.encode) ?? "" })
    }

    /// Where a cursor's place is in the catalog (or a category): the position of the first record
    /// at or after it, and whether that record is the one the cursor names.
    ///
    /// - Throws: `.invalidArgument` for a malformed cursor.
    public func place(of catalog: StoredCatalog, category: Int? = nil, cursor: String) throws -> (
        position: Int, exact: Bool
    ) {
        let key = try BrowseCursor.decode(cursor)
        guard let order = try BrowseOrder(reader: self, catalog: catalog, category: category) else {
            let selection = try selection(of: catalog, category: category)
            let position = try count(of: catalog, selection: selection, before: key)
            let at = try page(of: catalog, selection: selection, from: .from(key), limit: 1).items.first?.key
            return (position, at == key)
        }
        // Binary search by key: about 20 single-record reads for a million records.
        var low = 0
        var high = order.count
        var found: BrowseKey?
        while low < high {
            let middle = (low + high) / 2
            guard
                let hit = try keyed(order.indexReader.hits(documents: [order.document(at: middle)]), of: catalog).first,
                let hitKey = hit.key
            else {
                throw StorageError(.engine, "the browse order names a missing record")
            }
            if hitKey < key {
                low = middle + 1
            } else {
                high = middle
                found = hitKey
            }
        }
        return (low, found == key)
    }

    /// The hits with their browse keys: an engine whose index reads leave them out is asked for
    /// each record by id.
    fileprivate func keyed(_ hits: [StoredHit], of catalog: StoredCatalog) throws -> [StoredHit] {
        guard hits.contains(where: { $0.key == nil }) else { return hits }
        return try hits.map { hit in
            guard hit.key == nil else { return hit }
            var keyed = hit
            keyed.key = try item(of: catalog, id: hit.id)?.key
            return keyed
        }
    }

    /// The selection of a list: the whole catalog or a category's records.
    fileprivate func selection(of catalog: StoredCatalog, category: Int?) throws -> BrowseSelection {
        guard let category else { return .all }
        guard catalog.categories.contains(where: { $0.id == category }) else {
            throw StorageError(.nameNotFound, "catalog \"\(catalog.id)\" has no category \(category)")
        }
        return .category(category)
    }

    /// How many records a list holds.
    fileprivate func listCount(of catalog: StoredCatalog, selection: BrowseSelection) throws -> Int {
        if case .all = selection { return catalog.summary.count }
        return try sectionCounts(of: catalog, selection: selection).reduce(0) { $0 + $1.count }
    }

    /// The catalog's index when it is one segment without deletions (its orders answer lists by
    /// position in memory), nil otherwise; nil for a filtered reader too, as the index's orders
    /// hold every record.
    fileprivate func singleSegment(of catalog: StoredCatalog) throws -> LoadedSegment? {
        guard !isFiltered else { return nil }
        let segments = try loadedSegments(of: catalog)
        guard segments.count == 1, segments[0].deleted.count == 0 else { return nil }
        return segments[0]
    }

    /// The positions (in the whole catalog's index order) of a category's records; nil when the
    /// index has several segments (the engine's tables answer then).
    fileprivate func categoryList(of catalog: StoredCatalog, category: Int) throws -> [UInt32]? {
        _ = try selection(of: catalog, category: category)
        guard let segment = try singleSegment(of: catalog) else { return nil }
        let indexReader = segment.reader
        let index = segment.index
        return try indexCache.categoryPositions(of: catalog, category: category) {
            let order = try index.browseOrder(indexReader)
            guard let term = index.lexicon.index(of: IndexTerms.category(category)) else { return [] }
            let set = TermSet([term], of: index.lexicon)
            var positions: [UInt32] = []
            var bitmaps: [Int: ChunkBitmap] = [:]
            for (position, document) in order.enumerated() {
                let chunk = Int(document) >> PostingChunk.shift
                let bitmap: ChunkBitmap
                if let known = bitmaps[chunk] {
                    bitmap = known
                } else {
                    bitmap = try set.bitmap(chunk, index, indexReader)
                    bitmaps[chunk] = bitmap
                }
                if bitmap.contains(Int(document) & (PostingChunk.size - 1)) { positions.append(UInt32(position)) }
            }
            return positions
        }
    }
}

/// The documents of a list in index order: the catalog's browse order, or a category's part of it.
private struct BrowseOrder {
    let indexReader: any SearchIndexReading
    let order: [UInt32]
    let category: [UInt32]?

    /// The order of a list, nil when the catalog's index has several segments.
    init?(reader: any CatalogReader, catalog: StoredCatalog, category: Int?) throws {
        guard let segment = try reader.singleSegment(of: catalog) else {
            if let category { _ = try reader.selection(of: catalog, category: category) }
            return nil
        }
        indexReader = segment.reader
        let index = segment.index
        order = index.count == 0 ? [] : try index.browseOrder(indexReader)
        if let category {
            guard let list = try reader.categoryList(of: catalog, category: category) else { return nil }
            self.category = list
        } else {
            self.category = nil
        }
    }

    var count: Int { category?.count ?? order.count }

    func document(at position: Int) -> Int {
        Int(order[category.map { Int($0[position]) } ?? position])
    }
}
