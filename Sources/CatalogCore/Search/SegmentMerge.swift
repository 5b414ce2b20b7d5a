import CatalogModel
import CatalogStorage

/// The page of a search over several segments: each segment gives its first results after the
/// cursor's place, and they are merged in the one order every segment keeps (``SearchTier``:
/// step of rank order (``RankStep``), rank length, collation key, id; or the requested sort),
/// so the answer is the one a
/// catalog of a single segment would give.
///
/// Cursors name the last result's place in that order (``SearchCursor/rankedKey(tier:length:sortKey:id:)``,
/// ``SearchCursor/orderedKey(price:key:)``, ``SearchCursor/sortedKey(values:key:)``); in each segment the next page starts after it,
/// found by a binary search of the segment's order. A cursor of a document number (a catalog
/// that had one segment when the page was made) is read in the first segment.
struct SegmentMerge {
    let segments: [LoadedSegment]
    let evaluations: [Evaluation]
    let limit: Int

    typealias Result = (page: [(hit: StoredHit, entry: Evaluation.PageEntry)], next: SearchCursor?)

    // MARK: - Rank order

    /// A place in rank order: the step (``RankStep``, which the cursor calls its tier), the ranking field's value (a catalog with one,
    /// ``SearchSettings/rankingField``; nil for none), the rank length, the collation key and the id.
    private struct RankPlace {
        var tier: Int
        var value: [UInt8]?
        var length: Int
        var sortKey: [UInt8]
        var id: String
    }

    /// One candidate of a ranked page with its place in rank order.
    private struct Ranked {
        var hit: StoredHit
        var entry: Evaluation.PageEntry
        var place: RankPlace
    }

    /// The catalog's ranking field (every segment's evaluation has the same).
    private var rankingKey: SearchSort.Key? { evaluations[0].rankingKey }

    /// Whether `a` comes before `b` in rank order: tier, ranking value, then ``rankPrecedes(_:_:)``.
    private func precedes(_ a: RankPlace, _ b: RankPlace) -> Bool {
        if a.tier != b.tier { return a.tier < b.tier }
        if let rankingKey {
            let order = keyOrder.compare(a.value, b.value, rankingKey)
            if order != 0 { return order < 0 }
        }
        return Self.rankPrecedes((a.length, a.sortKey, a.id), (b.length, b.sortKey, b.id))
    }

    static func rankPrecedes(_ a: (Int, [UInt8], String), _ b: (Int, [UInt8], String)) -> Bool {
        if a.0 != b.0 { return a.0 < b.0 }
        if a.1 != b.1 { return a.1.lexicographicallyPrecedes(b.1) }
        return Array(a.2.utf8).lexicographicallyPrecedes(Array(b.2.utf8))
    }

    mutating func rankedPage(after cursor: SearchCursor?) throws -> Result {
        let place = try rankedPlace(of: cursor)
        var candidates: [Ranked] = []
        var more = false
        // Each segment's first results, ordered first by what is known without reading records
        // (tier, ranking value, rank length): only those up to the page's last such group are read.
        typealias Found = (segment: Int, entry: Evaluation.PageEntry, value: [UInt8]?, length: Int)
        var found: [Found] = []
        for (index, (segment, evaluation)) in zip(segments, evaluations).enumerated() {
            var startTier = 0
            var start = 0
            if let place {
                startTier = place.tier
                start =
                    rankingKey == nil
                    ? try firstDocument(after: (place.length, place.sortKey, place.id), in: segment)
                    : try firstRankingPosition(after: place, in: segment, evaluation)
            }
            let (entries, segmentMore) = try evaluation.rankedPage(fromTier: startTier, document: start, limit: limit)
            more = more || segmentMore
            for entry in entries {
                found.append(
                    (
                        index, entry, try evaluation.rankingValue(of: entry.document),
                        segment.index.attributes.length(of: entry.document)
                    ))
            }
        }
        // Negative, zero or positive as `a`'s group comes before, with or after `b`'s.
        func group(_ a: Found, _ b: Found) -> Int {
            if a.entry.step != b.entry.step { return a.entry.step! < b.entry.step! ? -1 : 1 }
            if let rankingKey {
                let order = keyOrder.compare(a.value, b.value, rankingKey)
                if order != 0 { return order }
            }
            return a.length == b.length ? 0 : a.length < b.length ? -1 : 1
        }
        found.sort { group($0, $1) < 0 }
        more = more || found.count > limit
        if found.count > limit {
            let last = found[limit - 1]
            found.removeAll { group($0, last) > 0 }
        }
        for (index, segment) in segments.enumerated() {
            let mine = found.filter { $0.segment == index }
            let byDocument = Dictionary(mine.map { ($0.entry.document, $0) }, uniquingKeysWith: { first, _ in first })
            for (hit, entry) in try Self.hits(mine.map(\.entry), segment) {
                guard let key = hit.key, let item = byDocument[entry.document] else {
                    throw StorageError(.engine, "a search hit came without its key")
                }
                candidates.append(
                    Ranked(
                        hit: hit, entry: entry,
                        place: RankPlace(
                            tier: entry.step!, value: item.value, length: item.length, sortKey: key.sortKey,
                            id: hit.id)))
            }
        }
        candidates.sort { precedes($0.place, $1.place) }
        let page = candidates.prefix(limit)
        let next =
            more
            ? page.last.map { last in
                let place = last.place
                return rankingKey == nil
                    ? SearchCursor.rankedKey(
                        tier: place.tier, length: place.length, sortKey: place.sortKey, id: place.id)
                    : SearchCursor.rankedValueKey(
                        tier: place.tier, value: place.value, length: place.length, sortKey: place.sortKey, id: place.id
                    )
            } : nil
        return (page.map { ($0.hit, $0.entry) }, next)
    }

    /// The place a ranked page continues after: the cursor's, or the one a document-number
    /// cursor names in the first segment (with a ranking field, a position in its order). A
    /// cursor made before the catalog had a ranking field starts again from the top.
    private func rankedPlace(of cursor: SearchCursor?) throws -> RankPlace? {
        switch cursor {
        case nil: return nil
        case .rankedKey(let tier, let length, let sortKey, let id):
            guard rankingKey == nil else { return nil }
            return RankPlace(tier: tier, value: nil, length: length, sortKey: sortKey, id: id)
        case .rankedValueKey(let tier, let value, let length, let sortKey, let id):
            return RankPlace(tier: tier, value: value, length: length, sortKey: sortKey, id: id)
        case .ranked(let tier, let number):
            let first = segments[0]
            var document = number
            if let order = try evaluations[0].rankingOrder() {
                guard number < order.count else {
                    return RankPlace(tier: tier + 1, value: nil, length: 0, sortKey: [], id: "")
                }
                document = Int(order[number])
            }
            guard document < first.index.count, let key = try first.reader.hits(documents: [document]).first?.key
            else { return RankPlace(tier: tier, value: nil, length: Int.max, sortKey: [], id: "") }
            return RankPlace(
                tier: tier, value: try evaluations[0].rankingValue(of: document),
                length: first.index.attributes.length(of: document), sortKey: key.sortKey, id: key.id)
        case .ordered, .orderedKey, .sortedKey:
            // A cursor of a sorted search: start again from the top.
            return nil
        }
    }

    /// The first document of `segment` whose place in rank order (rank length, collation key,
    /// id) comes after `place`.
    private func firstDocument(after place: (Int, [UInt8], String), in segment: LoadedSegment) throws -> Int {
        let attributes = segment.index.attributes
        var low = attributes.firstDocument(atLeast: place.0)
        var high = attributes.firstDocument(longerThan: place.0)
        guard low < high, attributes.length(of: low) == place.0 else { return low }
        while low < high {
            let middle = (low + high) / 2
            guard let key = try segment.reader.hits(documents: [middle]).first?.key else {
                throw StorageError(.engine, "the search index names a missing record")
            }
            if Self.rankPrecedes(place, (place.0, key.sortKey, key.id)) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The first position of the segment's ranking order (ranking value, then rank length,
    /// collation key and id) whose document comes after `place` within a tier.
    private func firstRankingPosition(after place: RankPlace, in segment: LoadedSegment, _ evaluation: Evaluation)
        throws -> Int
    {
        guard let order = try evaluation.rankingOrder() else { return 0 }
        var low = 0
        var high = order.count
        while low < high {
            let middle = (low + high) / 2
            let document = Int(order[middle])
            guard let key = try segment.reader.hits(documents: [document]).first?.key else {
                throw StorageError(.engine, "the search index names a missing record")
            }
            let other = RankPlace(
                tier: place.tier, value: try evaluation.rankingValue(of: document),
                length: segment.index.attributes.length(of: document), sortKey: key.sortKey, id: key.id)
            if precedes(place, other) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    // MARK: - Fixed orders

    /// A place in a fixed order: the values of the sort's keys (``SortKeyOrder``; nil for none
    /// and for a title key) and the browse key.
    private struct Place {
        var values: [[UInt8]?]
        var key: BrowseKey
    }

    /// How the search compares sort keys' values (every segment's evaluation has the same).
    private var keyOrder: SortKeyOrder { evaluations[0].sortKeyOrder }

    /// Whether `a` comes before `b` in `sort`'s order: key by key, a title key by index order
    /// (which decides), and ties after the last key in index order.
    private func precedes(_ a: Place, _ b: Place, _ sort: SearchSort) -> Bool {
        for (position, key) in sort.keys.enumerated() {
            if key.field == .title { return key.descending ? b.key < a.key : a.key < b.key }
            let order = keyOrder.compare(a.values[position], b.values[position], key)
            if order != 0 { return order < 0 }
        }
        return a.key < b.key
    }

    /// Whether the sort's cursors carry key values (a sort by prices or fields).
    private static func hasValues(_ sort: SearchSort) -> Bool {
        sort.keys.contains { $0.field != .title }
    }

    mutating func orderedPage(sort: SearchSort, after cursor: SearchCursor?) throws -> Result {
        let place = try orderedPlace(of: cursor, sort: sort)
        var candidates: [(place: Place, hit: StoredHit, entry: Evaluation.PageEntry)] = []
        var more = false
        for (segment, evaluation) in zip(segments, evaluations) {
            let start = try place.map { try firstPosition(after: $0, sort: sort, in: segment, evaluation) } ?? 0
            let (entries, _, segmentMore) = try evaluation.orderedPage(sort: sort, from: start, limit: limit)
            more = more || segmentMore
            for (hit, entry) in try Self.hits(entries, segment) {
                guard let key = hit.key else { throw StorageError(.engine, "a search hit came without its key") }
                let values = try evaluation.sortValues(of: entry.document, sort)
                candidates.append((Place(values: values, key: key), hit, entry))
            }
        }
        candidates.sort { precedes($0.place, $1.place, sort) }
        more = more || candidates.count > limit
        let page = candidates.prefix(limit)
        let next =
            more
            ? page.last.map {
                Self.hasValues(sort)
                    ? SearchCursor.sortedKey(values: $0.place.values, key: $0.place.key)
                    : SearchCursor.orderedKey(price: nil, key: $0.place.key)
            } : nil
        return (page.map { ($0.hit, $0.entry) }, next)
    }

    /// The place a sorted page continues after.
    private func orderedPlace(of cursor: SearchCursor?, sort: SearchSort) throws -> Place? {
        switch cursor {
        case nil, .ranked, .rankedKey, .rankedValueKey: return nil
        case .orderedKey(let price, let key):
            // Title orders carry no values; a price cursor of before currencies is a price of
            // the catalog's most common currency.
            let values = sort.keys.map { sortKey in
                sortKey.field == .price ? price.map { SortKeyOrder.price($0, currency: keyOrder.mainCurrency) } : nil
            }
            return Place(values: values, key: key)
        case .sortedKey(let values, let key):
            guard values.count == sort.keys.count else {
                throw StorageError(.invalidArgument, "the cursor is of a search in another order")
            }
            return Place(values: values, key: key)
        case .ordered(let position):
            let first = segments[0]
            let (count, document) = try evaluations[0].order(sort)
            guard position < count else { return nil }
            let at = document(position)
            guard let key = try first.reader.hits(documents: [at]).first?.key else { return nil }
            return Place(values: try evaluations[0].sortValues(of: at, sort), key: key)
        }
    }

    /// The first position of `segment`'s order whose record comes after `place`.
    private func firstPosition(
        after place: Place, sort: SearchSort, in segment: LoadedSegment, _ evaluation: Evaluation
    )
        throws -> Int
    {
        let (count, document) = try evaluation.order(sort)
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            let at = document(middle)
            guard let key = try segment.reader.hits(documents: [at]).first?.key else {
                throw StorageError(.engine, "the search index names a missing record")
            }
            let here = Place(values: try evaluation.sortValues(of: at, sort), key: key)
            if precedes(place, here, sort) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The stored records of a segment's page entries, in their order.
    private static func hits(_ entries: [Evaluation.PageEntry], _ segment: LoadedSegment) throws -> [(
        StoredHit, Evaluation.PageEntry
    )] {
        guard !entries.isEmpty else { return [] }
        let byDocument = Dictionary(entries.map { ($0.document, $0) }, uniquingKeysWith: { first, _ in first })
        return try segment.reader.hits(documents: entries.map(\.document)).compactMap { hit in
            byDocument[hit.document].map { (hit, $0) }
        }
    }
}
