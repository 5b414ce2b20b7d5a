import CatalogModel
import CatalogStorage
import Foundation
import Synchronization

/// One sort key's values in one segment, made from the segment's terms without reading
/// records: the distinct values in ascending order (``SortKeyOrder``) and, by document, the
/// rank of its smallest and of its largest value. Made once per segment and key in one pass
/// over the key's postings, and kept in the shared caches (``CatalogSearchIndex/sortColumn(_:_:order:)``).
///
/// A field's values are its number terms (`N`, in lexicon order, which is numeric order), its
/// date terms (`D`) and its text terms (`V`, texts that read as neither; up to
/// ``FieldValueOrder/maxValueBytes`` bytes), sorted by the catalog's collation. A price's are
/// the prices with the currency terms (`$`) of the records.
final class SortColumn: Sendable {
    /// By document: the rank of its smallest value, ``none`` without one.
    let lowest: [UInt32]
    /// By document: the rank of its largest value, ``none`` without one.
    let highest: [UInt32]
    /// The distinct values in ascending order, one after the other (a million arrays of nine
    /// bytes would take four times the memory).
    private let arena: [UInt8]
    /// Where each value starts in ``arena``, and where the last ends.
    private let starts: [UInt32]
    /// By rank: the value's place in descending order (prices keep their currencies' order).
    let descendingPlaces: [UInt32]

    /// A document without a value.
    static let none = UInt32.max

    convenience init(lowest: [UInt32], highest: [UInt32], values: [[UInt8]], descendingPlaces: [UInt32]) {
        var starts: [UInt32] = [0]
        starts.reserveCapacity(values.count + 1)
        var arena: [UInt8] = []
        arena.reserveCapacity(values.reduce(0) { $0 + $1.count })
        for value in values {
            arena.append(contentsOf: value)
            starts.append(UInt32(arena.count))
        }
        self.init(lowest: lowest, highest: highest, arena: arena, starts: starts, descendingPlaces: descendingPlaces)
    }

    /// A column of values already laid out: value `rank` is `arena[starts[rank]..<starts[rank + 1]]`.
    init(lowest: [UInt32], highest: [UInt32], arena: [UInt8], starts: [UInt32], descendingPlaces: [UInt32]) {
        self.lowest = lowest
        self.highest = highest
        self.arena = arena
        self.starts = starts
        self.descendingPlaces = descendingPlaces
    }

    /// The bytes it takes, about.
    var bytes: Int { 8 * lowest.count + 8 * descendingPlaces.count + arena.count + 64 }

    /// How many distinct values there are.
    var valueCount: Int { starts.count - 1 }

    /// The value a document sorts by in a direction: its smallest ascending, its largest
    /// descending; nil without one.
    func value(of document: Int, descending: Bool) -> [UInt8]? {
        let rank = descending ? highest[document] : lowest[document]
        guard rank != Self.none else { return nil }
        return Array(arena[Int(starts[Int(rank)])..<Int(starts[Int(rank) + 1])])
    }

    /// The document's place among the values in a direction: 0 first, ``valueCount`` without one.
    func bucket(of document: Int, descending: Bool) -> Int {
        withBuckets(descending: descending) { $0(UInt32(truncatingIfNeeded: document)) }
    }

    /// Calls `body` with the bucket of a document in a direction (``bucket(of:descending:)``),
    /// read through raw buffers: a sort asks it for a million documents at random.
    private func withBuckets<Result>(descending: Bool, _ body: ((UInt32) -> Int) -> Result) -> Result {
        let valueCount = self.valueCount
        return (descending ? highest : lowest).withUnsafeBufferPointer { ranks in
            descendingPlaces.withUnsafeBufferPointer { places in
                body { document in
                    guard Int(document) < ranks.count else { return valueCount }
                    let rank = ranks[Int(document)]
                    guard rank != Self.none, Int(rank) < valueCount else { return valueCount }
                    return descending ? Int(places[Int(rank)]) : Int(rank)
                }
            }
        }
    }

    // MARK: - Making

    /// The column of a record field in one segment.
    static func field(
        _ name: String, index: CatalogSearchIndex, reader: any SearchIndexReading, order: SortKeyOrder
    ) throws -> SortColumn {
        let lexicon = index.lexicon
        var ordered: [(term: Int, value: [UInt8])] = []
        for (kind, kindClass) in [
            (IndexTermKind.fieldNumber, SortKeyOrder.numberClass), (.fieldDate, SortKeyOrder.dateClass),
        ] {
            let prefix = IndexTerms.fieldPrefix(kind, name)
            for term in lexicon.range(prefix: prefix) {
                ordered.append((term, [kindClass] + lexicon.term(at: term).dropFirst(prefix.count)))
            }
        }
        var texts: [(term: Int, value: [UInt8])] = []
        let prefix = IndexTerms.fieldPrefix(.fieldValue, name)
        for term in lexicon.range(prefix: prefix) {
            let rest = lexicon.term(at: term).dropFirst(prefix.count)
            guard let zero = rest.firstIndex(of: 0) else { continue }
            let written = String(decoding: rest[(zero + 1)...], as: UTF8.self)
            // Numbers and dates sort by their own terms; an empty value is none.
            guard !written.isEmpty, FieldValueOrder.number(written) == nil, FieldValueOrder.date(written) == nil
            else { continue }
            texts.append((term, [SortKeyOrder.textClass] + Array(written.utf8)))
        }
        texts.sort { order.compareFields($0.value, $1.value) < 0 }
        ordered += texts
        var lowest = [UInt32](repeating: none, count: index.count)
        var highest = [UInt32](repeating: none, count: index.count)
        // Through the arrays' buffers: a closure that captured the arrays themselves would check
        // each access, which made this loop most of the cost of a column of a million values.
        try lowest.withUnsafeMutableBufferPointer { lowest in
            try highest.withUnsafeMutableBufferPointer { highest in
                try forEachDocument(of: ordered.map(\.term), index: index, reader: reader) { document, rank in
                    let rank = UInt32(rank)
                    let low = lowest[document]
                    if low == none || rank < low { lowest[document] = rank }
                    let high = highest[document]
                    if high == none || rank > high { highest[document] = rank }
                }
            }
        }
        let count = UInt32(ordered.count)
        return SortColumn(
            lowest: lowest, highest: highest, values: ordered.map(\.value),
            descendingPlaces: (0..<count).map { count - 1 - $0 })
    }

    /// The column of prices in one segment (``SearchSort/priceRule``).
    static func price(index: CatalogSearchIndex, reader: any SearchIndexReading, order: SortKeyOrder) throws
        -> SortColumn
    {
        let lexicon = index.lexicon
        let prices = try index.prices(reader)
        let currencyTerms = Array(lexicon.range(prefix: [IndexTermKind.currency.rawValue]))
        // Currency 0 is none; the others by their terms.
        let codes = [""] + currencyTerms.map { String(decoding: lexicon.term(at: $0).dropFirst(), as: UTF8.self) }
        var currencyOf = [UInt32](repeating: 0, count: index.count)
        try currencyOf.withUnsafeMutableBufferPointer { currencyOf in
            try forEachDocument(of: currencyTerms, index: index, reader: reader) { document, position in
                currencyOf[document] = UInt32(position + 1)
            }
        }
        // The currencies in the rule's order, each a group.
        let groups = codes.indices.sorted { a, b in
            let (zeroA, zeroB) = (SortKeyOrder.price(0, currency: codes[a]), SortKeyOrder.price(0, currency: codes[b]))
            return order.compare(zeroA, zeroB, SearchSort.Key(.price)) < 0
        }
        var group = [Int](repeating: 0, count: codes.count)
        for (place, currency) in groups.enumerated() { group[currency] = place }
        // The priced documents by price, then by currency group, keeping the price order within
        // each: in the order the index keeps by price when it has one, else by a radix sort of
        // the prices' ordered bits.
        var entries =
            try pricedInStoredOrder(prices, index.priceOrder(reader), currencyOf)
            ?? pricedInDocumentOrder(prices, currencyOf)
        RadixOrder.sortByTag(&entries, place: group)
        // Each currency's code once, as the start of its values, which are laid out in one
        // arena as they are found (``SortKeyOrder/price(_:currency:)``).
        let heads = codes.map { Array($0.uppercased().utf8) + [0] }
        var lowest = [UInt32](repeating: none, count: index.count)
        var arena: [UInt8] = []
        var valueStarts: [UInt32] = [0]
        var groupRuns: [Int] = []  // where each group's run of values starts
        var last: (tag: UInt32, key: UInt64)?
        lowest.withUnsafeMutableBufferPointer { lowest in
            for entry in entries {
                if last.map({ $0.tag != entry.tag || $0.key != entry.key }) ?? true {
                    if last?.tag != entry.tag { groupRuns.append(valueStarts.count - 1) }
                    arena.append(contentsOf: heads[Int(entry.tag)])
                    withUnsafeBytes(of: entry.key.bigEndian) { arena.append(contentsOf: $0) }
                    valueStarts.append(UInt32(arena.count))
                    last = (entry.tag, entry.key)
                }
                // Documents of the index only (the entries are its own: a check, not a branch taken).
                if Int(entry.document) < lowest.count { lowest[Int(entry.document)] = UInt32(valueStarts.count - 2) }
            }
        }
        // Descending: each currency's prices reversed, the currencies in the same order.
        let valueCount = valueStarts.count - 1
        var descendingPlaces = [UInt32](repeating: 0, count: valueCount)
        for (number, start) in groupRuns.enumerated() {
            let end = number + 1 < groupRuns.count ? groupRuns[number + 1] : valueCount
            for rank in start..<end { descendingPlaces[rank] = UInt32(start + (end - 1 - rank)) }
        }
        return SortColumn(
            lowest: lowest, highest: lowest, arena: arena, starts: valueStarts, descendingPlaces: descendingPlaces)
    }

    /// The priced documents by price, from the documents in price order the index keeps; nil
    /// without one, or when it does not run in ascending price (a blob of another build, or
    /// prices 0 and -0, which compare equal there and not here).
    static func pricedInStoredOrder(
        _ prices: PriceColumn, _ order: IndexBytes.Numbers?, _ currencyOf: [UInt32]
    ) -> [KeyedDocument]? {
        guard let order, order.count == prices.count, currencyOf.count >= prices.count else { return nil }
        var ascending = true
        // Through raw buffers, the entries written in place: a million documents read in price
        // order reach their prices and currencies at random, which is most of this loop's time.
        let entries = order.withUnsafeBytes { order in
            prices.withUnsafeBufferPointer { prices in
                currencyOf.withUnsafeBufferPointer { currencyOf in
                    [KeyedDocument](unsafeUninitializedCapacity: prices.count) { entries, initialized in
                        var previous: UInt64 = 0
                        for position in 0..<prices.count {
                            let document = order.loadUnaligned(fromByteOffset: 4 * position, as: UInt32.self)
                                .littleEndian
                            guard Int(document) < prices.count else {
                                ascending = false
                                break
                            }
                            let price = prices[Int(document)]
                            // Those without a price come last.
                            if price.isNaN { break }
                            let key = FieldValueOrder.sortableBits(price)
                            guard key >= previous else {
                                ascending = false
                                break
                            }
                            previous = key
                            let tag = currencyOf[Int(document)]
                            entries[position] = KeyedDocument(key: key, document: document, tag: tag)
                            initialized = position + 1
                        }
                    }
                }
            }
        }
        return ascending ? entries : nil
    }

    /// The priced documents by price: a radix sort of their prices' ordered bits.
    private static func pricedInDocumentOrder(_ prices: PriceColumn, _ currencyOf: [UInt32]) -> [KeyedDocument] {
        var entries = [KeyedDocument](unsafeUninitializedCapacity: prices.count) { buffer, initialized in
            var next = buffer.baseAddress!
            prices.withUnsafeBufferPointer { prices in
                for (document, price) in prices.enumerated() where !price.isNaN {
                    next.initialize(
                        to: KeyedDocument(
                            key: FieldValueOrder.sortableBits(price), document: UInt32(document),
                            tag: currencyOf[document]))
                    next += 1
                }
            }
            initialized = next - buffer.baseAddress!
        }
        RadixOrder.sortByKey(&entries)
        return entries
    }

    /// Calls `body` with every document of each term and the term's place in `terms`, reading
    /// stored postings one chunk number at a time, every term's chunks of it together.
    private static func forEachDocument(
        of terms: [Int], index: CatalogSearchIndex, reader: any SearchIndexReading, _ body: (Int, Int) -> Void
    ) throws {
        let lexicon = index.lexicon
        var storedByChunk: [Int: [(term: UInt32, place: Int)]] = [:]
        for (place, term) in terms.enumerated() {
            switch lexicon.postings(at: term) {
            case .inline(let documents):
                for document in documents where Int(document) < index.count { body(Int(document), place) }
            case .stored(let stored, let chunks):
                for chunk in chunks { storedByChunk[chunk, default: []].append((stored, place)) }
            }
        }
        for chunk in storedByChunk.keys.sorted() {
            let entries = storedByChunk[chunk]!
            let places = Dictionary(entries.map { ($0.term, $0.place) }, uniquingKeysWith: { a, _ in a })
            let base = chunk << PostingChunk.shift
            for (term, bytes) in try reader.postingChunks(terms: entries.map(\.term), chunk: chunk) {
                guard let place = places[term] else { continue }
                var bitmap = ChunkBitmap()
                bytes.withUnsafeBytes { PostingChunk.merge($0, into: &bitmap) }
                bitmap.forEach { offset in
                    if base + offset < index.count { body(base + offset, place) }
                    return true
                }
            }
        }
    }

    // MARK: - Orders

    /// The documents of a segment in the order of `keys` (a `.title` key's column is nil), ties
    /// in index order: sorted by the last key first, then by each key before it, each sort a
    /// stable counting sort over the key's places, so a whole order costs a few passes.
    static func order(keys: [SearchSort.Key], columns: [SortColumn?], browseOrder: [UInt32]) -> [UInt32] {
        var order = browseOrder
        var used = keys.count
        if let title = keys.firstIndex(where: { $0.field == .title }) {
            // The title decides every tie (no two records share a place in index order).
            if keys[title].descending { order.reverse() }
            used = title
        }
        for position in (0..<used).reversed() {
            guard let column = columns[position] else { continue }
            order = column.sorted(order, descending: keys[position].descending)
        }
        return order
    }

    /// `documents` in the order of their buckets in a direction (``bucket(of:descending:)``),
    /// equal ones keeping their order: one counting sort, through raw buffers (a million
    /// documents reach their ranks at random; a checked access each was a third of the time).
    func sorted(_ documents: [UInt32], descending: Bool) -> [UInt32] {
        withBuckets(descending: descending) { bucket in
            documents.withUnsafeBufferPointer { documents in
                var starts = [Int](repeating: 0, count: valueCount + 2)
                starts.withUnsafeMutableBufferPointer { starts in
                    for document in documents { starts[bucket(document) + 1] += 1 }
                    for place in 1..<starts.count { starts[place] += starts[place - 1] }
                }
                // Every place is written: each document goes to exactly one.
                return [UInt32](unsafeUninitializedCapacity: documents.count) { sorted, initialized in
                    starts.withUnsafeMutableBufferPointer { starts in
                        for document in documents {
                            let place = bucket(document)
                            sorted[starts[place]] = document
                            starts[place] += 1
                        }
                    }
                    initialized = documents.count
                }
            }
        }
    }
}

extension CatalogSearchIndex {
    /// The column of a sort key's field (not `.title`), from the shared caches or made now.
    func sortColumn(_ field: SearchSort.Field, _ reader: any SearchIndexReading, order: SortKeyOrder) throws
        -> SortColumn?
    {
        let name: String
        switch field {
        case .title: return nil
        case .price: name = "p\0" + order.mainCurrency
        case .field(let field): name = "f\0" + order.locale.identifier + "\0" + field
        }
        let key = SearchCaches.SortKey(index: cacheID, name: name)
        if case .column(let column)? = SearchCaches.shared.sorts.withLock({ $0.value(for: key, cost: \.bytes) }) {
            return column
        }
        let column =
            switch field {
            case .price: try SortColumn.price(index: self, reader: reader, order: order)
            case .field(let name): try SortColumn.field(name, index: self, reader: reader, order: order)
            case .title: nil as SortColumn?
            }
        if let column {
            SearchCaches.shared.sorts.withLock { $0.insert(.column(column), for: key, cost: column.bytes) }
        }
        return column
    }

    /// What an order the shared caches keep is of: the results of a sort, or the documents by a
    /// catalog's ranking field with ties in document order (search order: ``SearchTier``'s order
    /// within a tier), which ranked pages walk tier by tier (``SearchSettings/rankingField``).
    enum OrderKind {
        case sort(SearchSort)
        case ranking(SearchSort.Key)
    }

    /// The name the shared caches keep an order of `kind` under: title orders are the index's
    /// own (one order, read either way); the others depend on the catalog's main currency and
    /// locale.
    private static func orderName(_ kind: OrderKind, order: SortKeyOrder) -> String {
        switch kind {
        case .sort(.relevance), .sort(.title), .sort(.titleDescending): "title"
        case .sort(let sort): order.mainCurrency + "\0" + order.locale.identifier + "\0" + sort.rawValue
        case .ranking(let key): "r\0" + order.locale.identifier + "\0" + key.text
        }
    }

    /// The documents in the order of `sort` (keys other than relevance), from the shared caches
    /// or made now from the keys' columns.
    func sortOrder(_ sort: SearchSort, _ reader: any SearchIndexReading, order: SortKeyOrder) throws -> [UInt32] {
        try cachedOrder(.sort(sort), order: order) {
            let columns = try sort.keys.map { try sortColumn($0.field, reader, order: order) }
            return SortColumn.order(keys: sort.keys, columns: columns, browseOrder: try browseOrder(reader))
        }
    }

    /// The documents by the ranking field's `key`, records without it last, ties in document
    /// order; from the shared caches or made now from the field's column.
    func rankingOrder(_ key: SearchSort.Key, _ reader: any SearchIndexReading, order: SortKeyOrder) throws -> [UInt32] {
        try cachedOrder(.ranking(key), order: order) {
            let column = try sortColumn(key.field, reader, order: order)
            return SortColumn.order(keys: [key], columns: [column], browseOrder: (0..<UInt32(count)).map { $0 })
        }
    }

    /// Whether the shared caches keep the order of `kind` (``prepare()``'s check).
    func hasOrder(_ kind: OrderKind, order: SortKeyOrder) -> Bool {
        let key = SearchCaches.SortKey(index: cacheID, name: "o\0" + Self.orderName(kind, order: order))
        return SearchCaches.shared.sorts.withLock { $0.value(for: key, cost: \.bytes) } != nil
    }

    private func cachedOrder(_ kind: OrderKind, order: SortKeyOrder, make: () throws -> [UInt32]) rethrows
        -> [UInt32]
    {
        let key = SearchCaches.SortKey(index: cacheID, name: "o\0" + Self.orderName(kind, order: order))
        if case .order(let documents)? = SearchCaches.shared.sorts.withLock({ $0.value(for: key, cost: \.bytes) }) {
            return documents
        }
        let documents = try make()
        SearchCaches.shared.sorts.withLock { $0.insert(.order(documents), for: key, cost: 4 * documents.count) }
        return documents
    }

    /// By document: its position in `documents`, the order of `kind` (``sortOrder(_:_:order:)``,
    /// ``rankingOrder(_:_:order:)``, or the browse order for title orders); from the shared
    /// caches or made now.
    func positions(of kind: OrderKind, in documents: [UInt32], order: SortKeyOrder) -> [UInt32] {
        let key = SearchCaches.SortKey(index: cacheID, name: "i\0" + Self.orderName(kind, order: order))
        if case .order(let positions)? = SearchCaches.shared.sorts.withLock({ $0.value(for: key, cost: \.bytes) }) {
            return positions
        }
        var positions = [UInt32](repeating: 0, count: count)
        positions.withUnsafeMutableBufferPointer { positions in
            documents.withUnsafeBufferPointer { documents in
                for position in 0..<documents.count where Int(documents[position]) < positions.count {
                    positions[Int(documents[position])] = UInt32(position)
                }
            }
        }
        SearchCaches.shared.sorts.withLock { $0.insert(.order(positions), for: key, cost: 4 * positions.count) }
        return positions
    }
}
