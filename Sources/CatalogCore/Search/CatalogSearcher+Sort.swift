import CatalogModel
import CatalogStorage

extension CatalogSearcher {
    /// The most distinct texts a field may hold and still be sortable: a text sorts by the
    /// catalog's collation, value by value, which is quick for a field of few values (a country
    /// of origin, a make) and not for names (``sortableProblem(_:)``).
    public static let maxSortableTexts = 200

    /// Why the catalog cannot sort by the record field `name`, nil when it can: the one rule of
    /// which fields are sortable, for every engine and the offline catalog. With
    /// ``SearchSettings/sortableFields`` set, the fields it lists; otherwise, read from the data,
    /// a field some record has that holds at most ``maxSortableTexts`` distinct texts (numbers
    /// and dates do not count: every number and date field is sortable), counted over the
    /// index's terms without reading records.
    public func sortableProblem(_ name: String) -> String? {
        if let listed = catalog.definition.searchSettings.sortableFields {
            guard listed.contains(name) else {
                return "'sort': catalog \"\(catalog.definition.id)\" does not sort by \"\(name.prefix(80))\"; "
                    + (listed.isEmpty
                        ? "its settings name no sortable fields"
                        : "its sortable fields are "
                            + listed.joined(separator: ", "))
            }
            return nil
        }
        let presence = IndexTerms.fieldPrefix(.fieldPresent, name)
        let live = segments.filter { $0.liveCount > 0 }
        guard live.contains(where: { $0.index.lexicon.index(of: presence) != nil }) else {
            return "'sort': catalog \"\(catalog.definition.id)\" has no field \"\(name.prefix(80))\""
        }
        var texts: Set<[UInt8]> = []
        let prefix = IndexTerms.fieldPrefix(.fieldValue, name)
        for segment in live {
            let lexicon = segment.index.lexicon
            for term in lexicon.range(prefix: prefix) {
                let rest = lexicon.term(at: term).dropFirst(prefix.count)
                guard let zero = rest.firstIndex(of: 0) else { continue }
                let written = rest[(zero + 1)...]
                guard !written.isEmpty else { continue }
                let text = String(decoding: written, as: UTF8.self)
                guard FieldValueOrder.number(text) == nil, FieldValueOrder.date(text) == nil else { continue }
                texts.insert(Array(written))
                if texts.count > Self.maxSortableTexts {
                    return
                        "'sort': field \"\(name.prefix(80))\" holds more than \(Self.maxSortableTexts) distinct texts;"
                        + " numbers, dates and fields of at most \(Self.maxSortableTexts) texts sort"
                }
            }
        }
        return nil
    }

    /// The record fields the catalog sorts by (``sortableProblem(_:)``): its settings' list, or
    /// every field its records have that is sortable, in the definition's field order, then by
    /// name.
    public var sortableFields: [String] {
        if let listed = catalog.definition.searchSettings.sortableFields { return listed }
        var names: Set<String> = []
        let prefix = [IndexTermKind.fieldPresent.rawValue]
        for segment in segments where segment.liveCount > 0 {
            let lexicon = segment.index.lexicon
            for term in lexicon.range(prefix: prefix) {
                names.insert(String(decoding: lexicon.term(at: term).dropFirst(), as: UTF8.self))
            }
        }
        let order = Dictionary(
            catalog.definition.fieldOrder.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
        return names.filter { sortableProblem($0) == nil }.sorted { a, b in
            let (x, y) = (order[a] ?? Int.max, order[b] ?? Int.max)
            return x != y ? x < y : a < b
        }
    }

    /// Makes, for each live segment, what a catalog's searches need and the first one would
    /// otherwise make while its reader waits: the ranking field's column, order and positions
    /// (``SearchSettings/rankingField``; 300–400 ms at a million records). What the search caches
    /// hold already is not made again. Returns how many orders were made.
    public func prepare() throws -> Int {
        guard let key = catalog.definition.searchSettings.rankingKey else { return 0 }
        let live = segments.filter { $0.liveCount > 0 }
        // The order a ranked search compares values in, so that it finds what is made here.
        let order = try sortKeyOrder(for: .relevance, segments: live)
        var made = 0
        for segment in live {
            guard !segment.index.hasOrder(.ranking(key), order: order) else { continue }
            let documents = try segment.index.rankingOrder(key, segment.reader, order: order)
            _ = segment.index.positions(of: .ranking(key), in: documents, order: order)
            made += 1
        }
        return made
    }

    /// How this search compares sort keys' values: the catalog's locale for texts and, for a sort
    /// by price, the currency most of the live segments' priced records have (ties by code).
    ///
    /// - Throws: ``StorageError`` `.invalidArgument` (a 400) for a field the catalog cannot sort by.
    func sortKeyOrder(for sort: SearchSort, segments live: [LoadedSegment]) throws -> SortKeyOrder {
        for name in sort.fieldNames {
            if let problem = sortableProblem(name) { throw StorageError(.invalidArgument, problem) }
        }
        var mainCurrency = ""
        if sort.keys.contains(where: { $0.field == .price }) {
            var counts: [String: Int] = [:]
            for segment in live {
                let lexicon = segment.index.lexicon
                for term in lexicon.range(prefix: [IndexTermKind.currency.rawValue]) {
                    let code = String(decoding: lexicon.term(at: term).dropFirst(), as: UTF8.self)
                    counts[code, default: 0] += lexicon.documentCount(at: term)
                }
            }
            mainCurrency =
                counts.min { a, b in a.value != b.value ? a.value > b.value : a.key < b.key }?.key ?? ""
        }
        return SortKeyOrder(locale: catalog.definition.locale, mainCurrency: mainCurrency)
    }
}
