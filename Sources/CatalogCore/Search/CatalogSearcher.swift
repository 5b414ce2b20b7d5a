import CatalogModel
import CatalogStorage

/// What a search knows about a catalog besides its index: its definition and categories.
public struct SearchCatalog: Sendable {
    /// The catalog's definition (scopes, locale).
    public var definition: CatalogDefinition
    /// Its categories with numbers and counts, in display order.
    public var categories: [CategoryCount] {
        didSet { categoryNumbers = Self.numbers(of: categories) }
    }
    /// The categories' numbers by name (the first of a name), made once for the evaluations of
    /// every segment of a search.
    private(set) var categoryNumbers: [String: Int]

    /// Creates the description.
    public init(definition: CatalogDefinition, categories: [CategoryCount]) {
        self.definition = definition
        self.categories = categories
        categoryNumbers = Self.numbers(of: categories)
    }

    private static func numbers(of categories: [CategoryCount]) -> [String: Int] {
        Dictionary(categories.map { ($0.name, $0.id) }, uniquingKeysWith: { first, _ in first })
    }

    /// The scopes search offers (``CatalogScopes``).
    public var scopes: [ScopeDefinition] { CatalogScopes.scopes(of: definition, categories: categories) }
}

/// A search's answer, before it is written as JSON: the stored records with their highlights.
public struct SearchResult: Sendable {
    /// The hits, best first (or in the requested order).
    public var hits: [RankedHit]
    /// Matching records in the selected scope with the filters, at most ``SearchResponse/countCap``.
    public var total: Int
    /// True when there are more than ``total``.
    public var totalCapped: Bool
    /// The scope searched, nil for all records.
    public var scope: String?
    /// Every scope with its count under the query and filters.
    public var scopes: [ScopeCount]
    /// The cursor of the next page, nil on the last.
    public var next: String?
    /// Facet counts, when asked for.
    public var facets: [SearchFacet: [FacetCount]]
    /// When nothing was found: a query that finds something (``SearchResponse/suggestion``).
    public var suggestion: String? = nil
}

/// One result: the stored record, where the query matched, and in which tier.
public struct RankedHit: Sendable {
    /// The record as stored.
    public var stored: StoredHit
    /// Ranges of the list fields (title, subtitle, categories) that matched.
    public var matches: [MatchRange]
    /// For a match outside the list fields: a short piece of the field that matched.
    public var snippet: MatchSnippet?
    /// The tier it was ranked in (nil for sorted results).
    public var tier: SearchTier?
    /// Whether every query word matched without a typo.
    public var isExact: Bool
}

/// Searches one catalog: parses the query, asks the engine for the posting chunks of its words,
/// and ranks, counts, filters, facets, sorts and pages, all engine-neutral (see ``SearchTier``).
///
/// Work is bounded per chunk of 65,536 documents: each query word's matches of each kind are one
/// bitmap per chunk, tiers are a few word operations over them, a page stops as soon as it is
/// full, and counts stop at ``SearchResponse/countCap``. One search's counts (its total, the
/// scope buttons', every facet value's) visit at most ``countBudget`` chunks in all, and a facet
/// counts at most ``maxFacetValues`` values: past either bound counts are lower bounds, marked
/// `capped`, so no request costs more than a bounded amount whatever it asks for.
public struct CatalogSearcher {
    /// The segments of the catalog's index, each with its deletions.
    let segments: [LoadedSegment]
    /// The catalog's definition and categories.
    public let catalog: SearchCatalog

    /// Titles of candidates for "the whole title is the query" and "the title starts with the
    /// query" are read for checking only when there are at most this many.
    static let verificationLimit = 400
    /// …and only when the query's first word starts the titles of at most this many records.
    static let verificationCandidates = 20_000
    /// The most records whose ids are read to find the one whose id is the query (an id's words
    /// are in a few records; a query whose words are in more is not an id).
    static let idCandidates = 64

    /// Chunk visits all the counts of one search may make together: 512 is 32 counts over every
    /// record of a 1,000,000-record catalog (a count of a few values stops at
    /// ``SearchResponse/countCap`` much sooner); a visit that reads many terms' postings costs
    /// more (``CountBudget/readsPerVisit``). Past it, counts are lower bounds, marked capped.
    public static let defaultCountBudget = 512
    /// The most values one facet counts: the most frequent in the catalog.
    public static let maxFacetValues = 100

    /// The chunk visits this searcher's counts may make per search (``defaultCountBudget``).
    public var countBudget: Int

    /// Creates a searcher of an index of one segment without deletions.
    public init(
        index: CatalogSearchIndex, reader: any SearchIndexReading, catalog: SearchCatalog,
        countBudget: Int = CatalogSearcher.defaultCountBudget
    ) {
        self.init(
            segments: [LoadedSegment(index: index, reader: reader, deleted: .none, key: "")], catalog: catalog,
            countBudget: countBudget)
    }

    /// Creates a searcher of the segments of a catalog's index.
    init(segments: [LoadedSegment], catalog: SearchCatalog, countBudget: Int = CatalogSearcher.defaultCountBudget) {
        self.segments = segments
        self.catalog = catalog
        self.countBudget = countBudget
    }

    /// The first segment's loaded index (the whole index of a catalog of one segment).
    public var index: CatalogSearchIndex { segments[0].index }

    /// Whether the index is one segment without deletions: pages are walked in document order
    /// and cursors name document numbers (``SearchCursor/ranked(tier:document:)``). Otherwise
    /// they name places, whichever segments match: the answer (its cursor too) is the same
    /// whatever segments the records lie in, as the offline copy's must be.
    var isSingle: Bool { segments.count == 1 && segments[0].deleted.count == 0 }

    /// Runs a checked search (``SearchRequest/Checked``: its limit and filters are valid).
    ///
    /// - Throws: ``StorageError`` `.invalidArgument` for a cursor that does not decode or a sort
    ///   by a field the catalog cannot sort by (``sortableProblem(_:)``), `.nameNotFound` for an
    ///   unknown scope.
    public func search(_ request: SearchRequest.Checked) throws -> SearchResult {
        try search(request, suggesting: true)
    }

    /// Runs a checked search; `suggesting`: when it finds nothing on its first page, look for a
    /// query that finds something (``suggestion(for:words:)``, which searches without).
    func search(_ request: SearchRequest.Checked, suggesting: Bool) throws -> SearchResult {
        let cursor = try request.after.map { try SearchCursor(parsing: $0) }
        let rules = SearchRules(catalog.definition.searchSettings)
        let query = rules.query(request.query)
        let scopes = catalog.scopes
        let selected = try scope(named: request.scope, in: scopes)
        try checkFields(request)
        let (live, evaluations) = try self.evaluations(of: query, request, rules: rules, scope: selected)
        func count(_ each: (Evaluation) throws -> (Int, Bool)) rethrows -> (Int, Bool) {
            var total = 0
            var capped = false
            for evaluation in evaluations {
                let (count, partial) = try each(evaluation)
                total += count
                capped = capped || partial
            }
            return total > SearchResponse.countCap ? (SearchResponse.countCap, true) : (total, capped)
        }

        let (total, totalCapped) = try count { evaluation in try evaluation.count { try evaluation.matches($0).count } }
        var scopeCounts: [ScopeCount] = []
        for scope in scopes {
            if scope.categories == (selected?.categories ?? []) {
                scopeCounts.append(ScopeCount(label: scope.label, count: total, capped: totalCapped))
                continue
            }
            let (scopeCount, capped) = try count { evaluation in
                let filter = evaluation.scopeSet(scope.categories)
                return try evaluation.count { chunk in
                    let bitmap = try evaluation.unscopedMatches(chunk)
                    guard let filter, !bitmap.isEmpty else { return bitmap.count }
                    return try evaluation.matchesCount(
                        in: filter.bitmap(chunk, evaluation.segmentIndex, evaluation.segmentReader), chunk: chunk,
                        unscoped: true)
                }
            }
            scopeCounts.append(ScopeCount(label: scope.label, count: scopeCount, capped: capped))
        }

        let ranked = !query.isEmpty && request.sort == .relevance
        let page: [(hit: StoredHit, entry: Evaluation.PageEntry)]
        let next: SearchCursor?
        // A cursor that names a place (made while the index had several segments) is followed by
        // place also in one segment, so that a merge between two pages skips or repeats nothing.
        let keyed =
            switch cursor {
            case .rankedKey, .rankedValueKey, .orderedKey, .sortedKey: true
            case .ranked, .ordered, nil: false
            }
        if isSingle, !keyed, let evaluation = evaluations.first {
            let entries: [Evaluation.PageEntry]
            (entries, next) =
                ranked
                ? try evaluation.rankedPage(after: cursor, limit: request.limit)
                : try evaluation.orderedPage(sort: request.sort, after: cursor, limit: request.limit)
            let stored = try segments[0].reader.hits(documents: entries.map(\.document))
            let byDocument = Dictionary(entries.map { ($0.document, $0) }, uniquingKeysWith: { first, _ in first })
            page = stored.map {
                ($0, byDocument[$0.document] ?? Evaluation.PageEntry(document: $0.document, tier: nil, isExact: true))
            }
        } else {
            var merge = SegmentMerge(segments: live, evaluations: evaluations, limit: request.limit)
            (page, next) =
                ranked
                ? try merge.rankedPage(after: cursor) : try merge.orderedPage(sort: request.sort, after: cursor)
        }
        let highlighter = MatchHighlighter(query: query, rules: rules)
        let hits = page.map { hit, entry in
            let (matches, snippet) = highlighter.highlight(hit)
            return RankedHit(stored: hit, matches: matches, snippet: snippet, tier: entry.tier, isExact: entry.isExact)
        }

        var facets: [SearchFacet: [FacetCount]] = [:]
        for facet in request.facets where facets[facet] == nil {
            facets[facet] = try mergedFacetCounts(facet, evaluations)
        }
        let suggestion =
            suggesting && total == 0 && cursor == nil ? try self.suggestion(for: request, words: query.words) : nil
        return SearchResult(
            hits: hits, total: total, totalCapped: totalCapped, scope: selected?.label, scopes: scopeCounts,
            next: next?.text, facets: facets, suggestion: suggestion)
    }

    /// The scope a request names, nil for all records (or a scope of every record).
    ///
    /// - Throws: ``StorageError`` `.nameNotFound` for a scope the catalog does not have.
    private func scope(named label: String?, in scopes: [ScopeDefinition]) throws -> ScopeDefinition? {
        guard let label, !label.isEmpty else { return nil }
        guard let match = scopes.first(where: { $0.label == label }) else {
            throw StorageError(
                .nameNotFound, "catalog \"\(catalog.definition.id)\" has no scope \"\(label.prefix(80))\"")
        }
        return match.categories.isEmpty ? nil : match
    }

    /// The values of a facet that start with `request.query` (case and accents aside), with their
    /// counts among the records of the request's scope that pass its filters and match `search`
    /// (the query of the search whose facet it is; empty: every record): a search inside a long
    /// list of values (`GET /api/v1/catalogs/{id}/facets/{field}?q=…&search=…`). At most `limit`
    /// values (and ``maxFacetValues``), the most common first, then by value.
    ///
    /// - Throws: ``StorageError`` `.invalidArgument` for a field the catalog does not have or
    ///   may not filter on, or a bad filter; `.nameNotFound` for an unknown scope.
    public func facetValues(
        of facet: SearchFacet, _ request: SearchRequest.Checked, matching search: String = "", limit: Int
    ) throws -> [FacetCount] {
        try checkFields(request)
        if case .field(let name) = facet {
            try FieldFilter.checkFacet(
                name, lexicons: segments.map(\.index.lexicon), settings: catalog.definition.searchSettings)
        }
        let rules = SearchRules(catalog.definition.searchSettings)
        let selected = try scope(named: request.scope, in: catalog.scopes)
        let (_, evaluations) = try self.evaluations(of: rules.query(search), request, rules: rules, scope: selected)
        let prefix = IndexTerms.valueKey(request.query)
        var counts: [FacetCount]
        if case .field = facet {
            counts = try mergedFacetCounts(facet, evaluations, valuePrefix: prefix)
        } else {
            counts = try mergedFacetCounts(facet, evaluations).filter {
                IndexTerms.valueKey($0.value).hasPrefix(prefix)
            }
        }
        return Array(counts.prefix(max(0, min(limit, Self.maxFacetValues))))
    }

    /// The evaluations of `query` under `request`, one per segment with live records, with the
    /// segments they evaluate, sharing one count budget. A segment where a query word matches
    /// nothing adds nothing to a count, a page or a facet (most of the small segments records'
    /// changes leave) and is left out; the first stays: a cursor of a document number names a
    /// place in it.
    private func evaluations(
        of query: SearchQuery, _ request: SearchRequest.Checked, rules: SearchRules, scope: ScopeDefinition?
    ) throws -> (segments: [LoadedSegment], evaluations: [Evaluation]) {
        let budget = CountBudget(countBudget)
        let live = isSingle ? segments : segments.filter { $0.liveCount > 0 }
        let sortKeyOrder = try self.sortKeyOrder(for: request.sort, segments: live)
        let evaluations = try live.map { segment in
            try Evaluation(
                segment: segment, catalog: catalog, query: query, rules: rules, request: request,
                scope: scope?.categories ?? [], budget: budget, sortKeyOrder: sortKeyOrder)
        }
        guard evaluations.count > 1 else { return (live, evaluations) }
        let matching = evaluations.indices.filter { $0 == 0 || !evaluations[$0].matchesNothing }
        return (matching.map { live[$0] }, matching.map { evaluations[$0] })
    }

    /// Checks the fields a request's filter and facets name against the catalog's
    /// (``FieldFilter/check(_:lexicons:settings:)``).
    func checkFields(_ request: SearchRequest.Checked) throws {
        let lexicons = segments.map(\.index.lexicon)
        let settings = catalog.definition.searchSettings
        if let filter = request.filter { try FieldFilter.check(filter, lexicons: lexicons, settings: settings) }
        for case .field(let name) in request.facets {
            try FieldFilter.checkFacet(name, lexicons: lexicons, settings: settings)
        }
    }

    /// A facet's counts over every segment: each value's counts added up, largest first, at most
    /// ``maxFacetValues`` values. A field's values are one value case and accents aside, shown
    /// in the spelling of the segment that counts most of them.
    private func mergedFacetCounts(_ facet: SearchFacet, _ evaluations: [Evaluation], valuePrefix: String = "")
        throws -> [FacetCount]
    {
        if evaluations.count == 1 { return try evaluations[0].facetCounts(facet, valuePrefix: valuePrefix) }
        var merged: [String: FacetCount] = [:]
        var spellingCounts: [String: Int] = [:]
        for evaluation in evaluations {
            for count in try evaluation.facetCounts(facet, valuePrefix: valuePrefix) {
                var key = count.value
                if case .field = facet { key = IndexTerms.valueKey(count.value) }
                var sum = merged[key] ?? FacetCount(value: count.value, count: 0, capped: false)
                if count.count > spellingCounts[key, default: 0] {
                    sum.value = count.value
                    spellingCounts[key] = count.count
                }
                sum.count += count.count
                sum.capped = sum.capped || count.capped
                if sum.count > SearchResponse.countCap { (sum.count, sum.capped) = (SearchResponse.countCap, true) }
                merged[key] = sum
            }
        }
        if case .field = facet {
            return Array(merged.values.sorted(by: FacetCount.fieldOrder).prefix(Self.maxFacetValues))
        }
        let order = Dictionary(
            catalog.categories.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { a, _ in a })
        let sorted = merged.values.sorted { a, b in
            if a.count != b.count { return a.count > b.count }
            if facet == .categories, let x = order[a.value], let y = order[b.value] { return x < y }
            return Array(a.value.utf8).lexicographicallyPrecedes(Array(b.value.utf8))
        }
        return Array(sorted.prefix(Self.maxFacetValues))
    }
}

/// One query word's matches, by kind.
struct WordMatches {
    var whole = TermSet()
    var prefix = TermSet()
    var inside = TermSet()
    var field = TermSet()
    var typoTitle = TermSet()
    var typoTitleNear = TermSet()
    var typoField = TermSet()
    var fieldWhole = TermSet()
    var firstWhole = TermSet()
    var firstPrefix = TermSet()
    /// The word's synonyms (``SearchRules``) as whole words of the title, and of other fields.
    var synonymTitle = TermSet()
    var synonymField = TermSet()
    /// By weight, from 1 (``WordTerms/weightedWhole``, ``WordTerms/weightedStart``).
    var weightedWhole: [TermSet] = []
    var weightedStart: [TermSet] = []

    init() {}

    /// The matches of a folded word in `index` under `rules` (its terms from
    /// ``CatalogSearchIndex/wordTerms(_:isLast:typos:)``, its synonyms' whole words).
    init(word: String, isLast: Bool, index: CatalogSearchIndex, rules: SearchRules) {
        let typos = rules.allowance(for: word)
        let terms = index.wordTerms(word, isLast: isLast, typos: typos)
        let lexicon = index.lexicon
        let key = index.wordKey(word, isLast: isLast, typos: typos)
        if let synonyms = rules.synonyms[word] {
            func terms(_ kind: IndexTermKind) -> [Int] {
                synonyms.compactMap { lexicon.index(of: IndexTerms.term(kind, Array($0.utf8))) }.sorted()
            }
            synonymTitle = TermSet(terms(.titleWord), of: lexicon)
            synonymField = TermSet((terms(.fieldWord) + terms(.exactFieldWord)).sorted(), of: lexicon)
        }
        func set(_ indexes: [Int], _ kind: UInt8) -> TermSet {
            TermSet(indexes, of: lexicon, word: .word(key, kind: kind))
        }
        whole = set(terms.whole, 0)
        prefix = set(terms.prefix, 1)
        inside = set(terms.inside, 2)
        field = set(terms.field, 3)
        typoTitle = set(terms.typoTitle, 4)
        typoField = set(terms.typoField, 5)
        firstWhole = set(terms.firstWhole, 6)
        firstPrefix = set(terms.firstPrefix, 7)
        typoTitleNear = set(terms.typoTitleNear, 8)
        fieldWhole = set(terms.fieldWhole, 9)
        weightedWhole = terms.weightedWhole.enumerated().map { set($0.element, UInt8(10 + 2 * $0.offset)) }
        weightedStart = terms.weightedStart.enumerated().map { set($0.element, UInt8(11 + 2 * $0.offset)) }
    }

    /// Whether the word matches no document in any way (no term of any kind, no synonym): the
    /// sets ``Evaluation``'s matches unite.
    var matchesNothing: Bool {
        inside.isEmpty && field.isEmpty && typoTitle.isEmpty && typoField.isEmpty && synonymTitle.isEmpty
            && synonymField.isEmpty
    }

    /// At most how many documents the word matches in any way (the sum of its sets' sizes).
    var estimatedCount: Int {
        [inside, field, typoTitle, typoField, synonymTitle, synonymField].reduce(0) { $0 + $1.estimatedCount }
    }

    /// The matches of a symbol: literally, in the title or another field.
    init(symbol: String, lexicon: Lexicon) {
        let bytes = Array(symbol.utf8)
        inside = TermSet(lexicon.index(of: IndexTerms.term(.titleSymbol, bytes)).map { [$0] } ?? [], of: lexicon)
        field = TermSet(lexicon.index(of: IndexTerms.term(.fieldSymbol, bytes)).map { [$0] } ?? [], of: lexicon)
    }
}

extension SearchResult {
    /// The answer as model values, records decoded (what the command line and the client
    /// library work with; the server writes the stored JSON directly).
    public func response() throws -> SearchResponse {
        SearchResponse(
            items: try hits.map {
                SearchHit(
                    record: try $0.stored.record(), matches: $0.matches, snippet: $0.snippet, typo: !$0.isExact)
            },
            total: total, totalCapped: totalCapped, scope: scope, scopes: scopes, next: next,
            facets: facets.isEmpty ? nil : Dictionary(uniqueKeysWithValues: facets.map { ($0.key.rawValue, $0.value) }),
            suggestion: suggestion)
    }
}
