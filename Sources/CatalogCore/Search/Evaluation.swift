import CatalogModel
import CatalogStorage

/// One search's working state: the bitmaps of its words, filters and tiers, chunk by chunk,
/// each computed once.
final class Evaluation {
    private let index: CatalogSearchIndex
    private let reader: any SearchIndexReading
    private let catalog: SearchCatalog
    private let query: SearchQuery
    private let words: [WordMatches]
    /// Whether a query word matches nothing in the segment: then no document matches, and the
    /// words after it were not looked up (they are left empty).
    let matchesNothing: Bool
    /// The query's words, those with the fewest documents first: intersections start with the
    /// rarest, so a chunk where it has none costs nothing of the others.
    private let rarestFirst: [WordMatches]
    /// For each word of the query's sequence, its index in `words`.
    private let sequence: [Int]
    private let chunkCount: Int
    /// The catalog's category numbers by name.
    private var categoryNumbers: [String: Int] { catalog.categoryNumbers }

    private let categoryFilters: [TermSet]
    private let countryFilter: TermSet?
    private let priceFilter: NumericRange?
    /// The filter on any fields (`filter=`), as this segment's sets.
    private let fieldFilter: FieldFilter?
    /// The requester's standing filter (an API key's), as this segment's sets.
    private let restriction: FieldFilter?
    private let scope: TermSet?
    /// Multi-word queries: the documents whose title is the query / starts with it, when few
    /// enough candidates to check.
    private var exactTitles: Set<Int> = []
    private var titleStarts: Set<Int> = []
    /// The documents one of whose own fields has the query as its whole value (rank as an exact title).
    private var exactValues = TermSet()
    /// The documents whose id is the query (`0041`, `p008`): they rank as an exact title too.
    private var exactIDs: Set<Int> = []

    /// Chunk visits the counts of this search may still make (``CatalogSearcher/countBudget``),
    /// shared by the evaluations of every segment of the search.
    private let countBudget: CountBudget
    /// The segment's deleted documents: no set, count or page includes them.
    private let deleted: DeletedDocuments
    /// How sort keys' values compare in this search (``SortKeyOrder``).
    let sortKeyOrder: SortKeyOrder
    /// The catalog's ranking field (``SearchSettings/rankingField``): within a tier, ranked pages
    /// follow its order instead of document order; nil without one.
    let rankingKey: SearchSort.Key?
    /// The steps of rank order (``RankStep``): the tiers, split by the catalog's field weights.
    private let steps: [RankStep]
    /// The place in `steps` of the whole ``SearchTier/synonyms`` tier: the documents before it
    /// match every word without a typo.
    private let synonymsStep: Int

    private var bases: [Int: ChunkBitmap] = [:]
    private var scopedBases: [Int: ChunkBitmap] = [:]
    private var wordsAll: [Int: ChunkBitmap] = [:]
    private var tierCache: [Int: ChunkBitmap] = [:]
    private var matchCache: [Int: ChunkBitmap] = [:]
    private var unscopedCache: [Int: ChunkBitmap] = [:]
    /// By chunk: the set words of the matches' bitmaps, scoped and unscoped, when they are few
    /// (``sparseWordLimit``); nil when they are not.
    private var sparseWords: [Int: [UInt16]?] = [:]
    private var unscopedSparseWords: [Int: [UInt16]?] = [:]
    /// A bitmap with at most this many set words (of 1,024) is counted against the scopes and
    /// facet values word by word: a rare query's matches are counted a dozen times or more.
    static let sparseWordLimit = 128
    /// The stored terms' posting chunks the matches have read so far (``TermSet/pendingReads(_:)``):
    /// what a count is charged beside its chunk visit.
    private var termReads = 0
    /// By chunk: the union of the tiers before `next` (``earlierTiers(before:_:)``).
    private var earlier: [Int: (next: Int, bitmap: ChunkBitmap)] = [:]

    init(
        segment: LoadedSegment, catalog: SearchCatalog, query: SearchQuery, rules: SearchRules,
        request: SearchRequest.Checked, scope: [String], budget: CountBudget, sortKeyOrder: SortKeyOrder
    ) throws {
        self.sortKeyOrder = sortKeyOrder
        rankingKey = rules.settings.rankingKey
        steps = rules.steps
        synonymsStep = steps.firstIndex(of: RankStep(tier: .synonyms, weight: nil))!
        index = segment.index
        reader = segment.reader
        deleted = segment.deleted
        self.catalog = catalog
        self.query = query
        let lexicon = segment.index.lexicon
        if query.words.isEmpty {
            words = query.symbols.map { WordMatches(symbol: $0, lexicon: lexicon) }
            sequence = []
        } else {
            // The last word first: the one being typed is the likeliest to match nothing in a
            // small segment, and then the others' terms (their typo walks) are never looked up.
            let last = query.sequence.last
            var found: [WordMatches] = []
            for word in query.words.reversed() {
                found.append(WordMatches(word: word, isLast: word == last, index: segment.index, rules: rules))
                if found[found.count - 1].matchesNothing { break }
            }
            let unread = query.words.count - found.count
            words = (unread > 0 ? Array(repeating: WordMatches(), count: unread) : []) + found.reversed()
            sequence = query.sequence.compactMap { word in query.words.firstIndex(of: word) }
        }
        matchesNothing = words.contains(where: \.matchesNothing)
        rarestFirst = words.sorted { $0.estimatedCount < $1.estimatedCount }
        chunkCount = (segment.index.count + PostingChunk.size - 1) / PostingChunk.size
        let categoryNumbers = catalog.categoryNumbers
        func categorySet(_ label: String) -> TermSet {
            guard let number = categoryNumbers[label],
                let term = lexicon.index(of: IndexTerms.category(number))
            else { return TermSet() }
            return TermSet([term], of: lexicon)
        }
        categoryFilters = request.categories.map(categorySet)
        if request.countries.isEmpty {
            countryFilter = nil
        } else {
            countryFilter = TermSet(
                request.countries.compactMap { lexicon.index(of: IndexTerms.country($0.text)) }, of: lexicon)
        }
        priceFilter = request.price
        fieldFilter = request.filter.map {
            FieldFilter($0, index: segment.index, reader: segment.reader, categoryNumbers: categoryNumbers)
        }
        restriction = request.restriction.map {
            FieldFilter($0, index: segment.index, reader: segment.reader, categoryNumbers: categoryNumbers)
        }
        countBudget = budget
        self.scope = scope.isEmpty ? nil : Self.intersection(scope.map(categorySet))
        if matchesNothing { return }
        if sequence.count >= 2 { try verifyTitles() }
        if !query.sequence.isEmpty {
            exactValues = Self.exactValues(of: query, in: lexicon)
            try findExactIDs()
        }
    }

    /// The value terms of every field whose value is the query's words (``IndexTerms/valueKey(_:)``),
    /// and the list item term of the query (an alternate name among others in one text).
    private static func exactValues(of query: SearchQuery, in lexicon: Lexicon) -> TermSet {
        let key = query.sequence.joined(separator: " ")
        var terms = lexicon.fieldNames().flatMap { lexicon.range(prefix: IndexTerms.fieldValuePrefix($0, folded: key)) }
        if let item = lexicon.index(of: IndexTerms.listItem(key)) { terms.append(item) }
        return TermSet(terms.sorted(), of: lexicon)
    }

    /// The intersection of sets, as one set when there is one; several become a chain the
    /// evaluation intersects chunk by chunk.
    private static func intersection(_ sets: [TermSet]) -> TermSet {
        sets.count == 1 ? sets[0] : IntersectionSet(sets)
    }

    /// The segment's loaded index and the engine's answers for it.
    var segmentIndex: CatalogSearchIndex { index }
    var segmentReader: any SearchIndexReading { reader }

    /// The set of the records carrying every one of `categories` (nil: every record).
    func scopeSet(_ categories: [String]) -> TermSet? {
        guard !categories.isEmpty else { return nil }
        let lexicon = index.lexicon
        return Self.intersection(
            categories.map { label in
                guard let number = categoryNumbers[label], let term = lexicon.index(of: IndexTerms.category(number))
                else { return TermSet() }
                return TermSet([term], of: lexicon)
            })
    }

    // MARK: - Chunks

    private func chunkSize(_ chunk: Int) -> Int {
        min(PostingChunk.size, index.count - (chunk << PostingChunk.shift))
    }

    /// The chunk's documents that pass the filters (not the scope).
    private func base(_ chunk: Int) throws -> ChunkBitmap {
        if let cached = bases[chunk] { return cached }
        var bitmap = ChunkBitmap(allBelow: chunkSize(chunk))
        if let gone = deleted.chunks[chunk] { bitmap.subtract(gone) }
        for filter in categoryFilters { bitmap.formIntersection(try filter.bitmap(chunk, index, reader)) }
        if let countryFilter { bitmap.formIntersection(try countryFilter.bitmap(chunk, index, reader)) }
        if let priceFilter, !bitmap.isEmpty {
            // Compared as doubles, bounds converted once; NaN (no price) is in no range.
            let (lower, upper) = priceFilter.doubleBounds
            bitmap.formIntersection(
                try index.priceBitmap(
                    chunk: chunk, size: chunkSize(chunk), lower: lower, lowerIncluded: true, upper: upper,
                    upperIncluded: true, reader))
        }
        if let fieldFilter, !bitmap.isEmpty {
            bitmap.formIntersection(try fieldFilter.bitmap(chunk, size: chunkSize(chunk)))
        }
        if let restriction, !bitmap.isEmpty {
            bitmap.formIntersection(try restriction.bitmap(chunk, size: chunkSize(chunk)))
        }
        bases[chunk] = bitmap
        return bitmap
    }

    /// The chunk's documents that pass the filters and the selected scope.
    private func scopedBase(_ chunk: Int) throws -> ChunkBitmap {
        if let cached = scopedBases[chunk] { return cached }
        var bitmap = try base(chunk)
        if let scope { bitmap = bitmap.intersection(try scope.bitmap(chunk, index, reader)) }
        scopedBases[chunk] = bitmap
        return bitmap
    }

    /// Documents every query word matches some way (all of them for an empty query).
    private func allWords(_ chunk: Int) throws -> ChunkBitmap {
        if let cached = wordsAll[chunk] { return cached }
        var bitmap = ChunkBitmap(allBelow: chunkSize(chunk))
        if let gone = deleted.chunks[chunk] { bitmap.subtract(gone) }
        for word in rarestFirst {
            termReads += word.inside.pendingReads(chunk)
            var any = [try word.inside.bitmap(chunk, index, reader)]
            for set in [word.typoTitle, word.field, word.typoField, word.synonymTitle, word.synonymField]
            where !set.isEmpty {
                termReads += set.pendingReads(chunk)
                any.append(try set.bitmap(chunk, index, reader))
            }
            bitmap.formIntersection(unionOf: any)
            if bitmap.isEmpty { break }
        }
        wordsAll[chunk] = bitmap
        return bitmap
    }

    /// The chunk's matches in the selected scope with the filters.
    func matches(_ chunk: Int) throws -> ChunkBitmap {
        if let cached = matchCache[chunk] { return cached }
        // The filters and scope first: they are a few bitmaps, the words may be hundreds of terms.
        var bitmap = try scopedBase(chunk)
        if !bitmap.isEmpty { bitmap = bitmap.intersection(try allWords(chunk)) }
        matchCache[chunk] = bitmap
        return bitmap
    }

    /// The chunk's matches with the filters, in every scope.
    func unscopedMatches(_ chunk: Int) throws -> ChunkBitmap {
        if scope == nil { return try matches(chunk) }
        if let cached = unscopedCache[chunk] { return cached }
        var bitmap = try allWords(chunk)
        if !bitmap.isEmpty { bitmap = bitmap.intersection(try base(chunk)) }
        unscopedCache[chunk] = bitmap
        return bitmap
    }

    /// How many of the chunk's matches (in every scope when `unscoped`) `other` holds: word by
    /// word over the matches' set words when they are few, which the scope counts and every facet
    /// value's count share.
    func matchesCount(in other: ChunkBitmap, chunk: Int, unscoped: Bool = false) throws -> Int {
        let bitmap = unscoped ? try unscopedMatches(chunk) : try matches(chunk)
        if unscoped && scope != nil {
            let words = unscopedSparseWords[chunk] ?? bitmap.setWords(limit: Self.sparseWordLimit)
            unscopedSparseWords[chunk] = .some(words)
            return words.map { bitmap.intersectionCount(other, words: $0) } ?? bitmap.intersectionCount(other)
        }
        let words = sparseWords[chunk] ?? bitmap.setWords(limit: Self.sparseWordLimit)
        sparseWords[chunk] = .some(words)
        return words.map { bitmap.intersectionCount(other, words: $0) } ?? bitmap.intersectionCount(other)
    }

    /// The chunk's documents of a step of rank order (a document may be in several; it ranks
    /// in the first). Each is worked out the first time it is needed.
    ///
    /// The step's own candidates come first, and the chunk's matches (every word's typos, fields
    /// and synonyms, the filters, the scope) only where they leave some: a page that fills from
    /// the first tiers never reads the typo terms of the chunks it passes over. At 10,000,000
    /// records a five-letter prefix's matches are hundreds of terms in each of 153 chunks.
    private func step(_ step: Int, _ chunk: Int) throws -> ChunkBitmap {
        let key = chunk * steps.count + step
        if let cached = tierCache[key] { return cached }
        var result: ChunkBitmap
        if var candidates = try candidates(of: step, chunk) {
            if !candidates.isEmpty { candidates = candidates.intersection(try scopedBase(chunk)) }
            if !candidates.isEmpty { candidates = candidates.intersection(try matches(chunk)) }
            result = candidates
        } else {
            result = try matches(chunk)
        }
        tierCache[key] = result
        return result
    }

    /// The chunk's documents a step of rank order would hold before the matches are applied (a
    /// superset of the step's documents); nil for a step that is the matches themselves.
    private func candidates(of step: Int, _ chunk: Int) throws -> ChunkBitmap? {
        let weight = steps[step].weight
        func all(_ part: (WordMatches) throws -> ChunkBitmap) throws -> ChunkBitmap {
            var bitmap: ChunkBitmap? = nil
            for word in rarestFirst {
                let next = try bitmap.map { try part(word).intersection($0) } ?? part(word)
                bitmap = next
                if next.isEmpty { break }
            }
            return bitmap ?? ChunkBitmap(allBelow: chunkSize(chunk))
        }
        func union(_ sets: [TermSet]) throws -> ChunkBitmap {
            var bitmap = ChunkBitmap.empty
            for set in sets where !set.isEmpty { bitmap.formUnion(try set.bitmap(chunk, index, reader)) }
            return bitmap
        }
        switch steps[step].tier {
        case .exactTitle where sequence.count == 1:
            // The first word is the query and the title is exactly as long.
            var result = try words[sequence[0]].firstWhole.bitmap(chunk, index, reader)
            if !result.isEmpty {
                let length = query.sequence[0].unicodeScalars.count
                let first = chunk << PostingChunk.shift
                let lower = index.attributes.firstDocument(atLeast: length) - first
                let upper = index.attributes.firstDocument(longerThan: length) - first
                var lengthMask = ChunkBitmap(allBelow: max(0, upper))
                lengthMask.subtract(ChunkBitmap(allBelow: max(0, lower)))
                result.formIntersection(lengthMask)
            }
            try addExactValues(chunk, to: &result)
            return result
        case .exactTitle:
            var result = Self.bitmap(of: exactTitles, chunk: chunk)
            try addExactValues(chunk, to: &result)
            return result
        case .titleStart where sequence.count == 1:
            return try words[sequence[0]].firstPrefix.bitmap(chunk, index, reader)
        case .titleStart:
            return Self.bitmap(of: titleStarts, chunk: chunk)
        case .wholeWords: return try all { try $0.whole.bitmap(chunk, index, reader) }
        case .wordStarts: return try all { try $0.prefix.bitmap(chunk, index, reader) }
        case .wholeWordsAnywhere:
            if let weight { return try all { try union([$0.whole] + $0.weightedWhole.prefix(weight)) } }
            return try all { try union([$0.whole, $0.fieldWhole]) }
        case .insideWords: return try all { try $0.inside.bitmap(chunk, index, reader) }
        case .otherFields:
            // A word's beginnings hold the word itself.
            if let weight { return try all { try union([$0.inside] + $0.weightedStart.prefix(weight)) } }
            return try all { try union([$0.inside, $0.field]) }
        case .synonyms: return try all { try union([$0.inside, $0.field, $0.synonymTitle, $0.synonymField]) }
        case .titleOneTypo: return try all { try union([$0.inside, $0.typoTitleNear, $0.synonymTitle]) }
        case .titleTypos: return try all { try union([$0.inside, $0.typoTitle, $0.synonymTitle]) }
        case .anyTypos: return nil
        }
    }

    /// Adds the chunk's documents whose id or one of whose own fields is the query.
    private func addExactValues(_ chunk: Int, to result: inout ChunkBitmap) throws {
        if !exactIDs.isEmpty {
            result.formUnion(Self.bitmap(of: exactIDs, chunk: chunk))
        }
        guard !exactValues.isEmpty else { return }
        result.formUnion(try exactValues.bitmap(chunk, index, reader))
    }

    /// Finds the records whose id is the query. An id's words are indexed as whole words of a
    /// field (when ids are searchable), so the candidates are the records with every query word
    /// whole in some field; when the rarest word has few enough (``CatalogSearcher/idCandidates``,
    /// as an id's words have), their ids are read and compared as folded words (``IndexTerms/valueKey(_:)``,
    /// so `P-008` is the query `p 008`).
    private func findExactIDs() throws {
        let sets = sequence.map { words[$0].fieldWhole }
        guard let rarest = sets.min(by: { $0.estimatedCount < $1.estimatedCount }), !rarest.isEmpty,
            rarest.estimatedCount <= CatalogSearcher.idCandidates
        else { return }
        var candidates: [Int] = []
        for chunk in 0..<chunkCount where rarest.covers(chunk) {
            var bitmap = try rarest.bitmap(chunk, index, reader)
            for set in sets where set !== rarest && !bitmap.isEmpty {
                bitmap.formIntersection(try set.bitmap(chunk, index, reader))
            }
            let base = chunk << PostingChunk.shift
            bitmap.forEach { offset in
                if !deleted.contains(base + offset) { candidates.append(base + offset) }
                return true
            }
        }
        guard !candidates.isEmpty else { return }
        let key = query.sequence.joined(separator: " ")
        for (document, id) in zip(candidates, try reader.ids(documents: candidates))
        where IndexTerms.valueKey(id) == key {
            exactIDs.insert(document)
        }
    }

    private static func bitmap(of documents: Set<Int>, chunk: Int) -> ChunkBitmap {
        var bitmap = ChunkBitmap()
        for document in documents where document >> PostingChunk.shift == chunk {
            bitmap.insert(document & (PostingChunk.size - 1))
        }
        return bitmap
    }

    // MARK: - Multi-word title checks

    /// Finds the titles that are, or start with, a multi-word query, reading the titles of the
    /// candidates when they are few (whether they are is decided by the query and the data
    /// alone, so every page of a search ranks the same way).
    private func verifyTitles() throws {
        let first = words[sequence[0]].firstWhole
        guard !first.isEmpty, first.estimatedCount <= CatalogSearcher.verificationCandidates else { return }
        var candidates: [Int] = []
        for chunk in 0..<chunkCount {
            var bitmap = try first.bitmap(chunk, index, reader)
            for position in sequence.dropFirst() where !bitmap.isEmpty {
                bitmap.formIntersection(try words[position].prefix.bitmap(chunk, index, reader))
            }
            let base = chunk << PostingChunk.shift
            bitmap.forEach { offset in
                if !deleted.contains(base + offset) { candidates.append(base + offset) }
                return candidates.count <= CatalogSearcher.verificationLimit
            }
            guard candidates.count <= CatalogSearcher.verificationLimit else { return }
        }
        guard !candidates.isEmpty else { return }
        let titles = try reader.titles(documents: candidates)
        var scanner = WordScanner(germanVariants: WordScanner.wantsGermanVariants(locale: catalog.definition.locale))
        let typed = query.sequence
        for (document, title) in zip(candidates, titles) {
            var spellings: [[String]] = []
            scanner.scan(title) { token, bytes in
                let word = String(decoding: bytes, as: UTF8.self)
                switch token {
                case .word: spellings.append([word])
                case .variant: if !spellings.isEmpty { spellings[spellings.count - 1].append(word) }
                case .symbol: break
                }
            }
            guard spellings.count >= typed.count else { continue }
            var starts = true
            for (position, word) in typed.enumerated() {
                let options = spellings[position]
                let fits =
                    position == typed.count - 1
                    ? options.contains { $0.hasPrefix(word) } : options.contains(word)
                if !fits {
                    starts = false
                    break
                }
            }
            guard starts else { continue }
            titleStarts.insert(document)
            if spellings.count == typed.count && zip(spellings, typed).allSatisfy({ $0.contains($1) }) {
                exactTitles.insert(document)
            }
        }
    }

    // MARK: - Counting

    /// Counts documents chunk by chunk up to the cap: (count, capped). `count` gives one
    /// chunk's count; `covers` says which chunks can count at all (the others cost nothing).
    ///
    /// Every chunk counted spends one visit of the search's budget, and one more for every
    /// ``CountBudget/readsPerVisit`` term postings its matches read there for the first time; once
    /// it is spent, counts stop where they are and say so (`capped`: at least this many), so that
    /// no request costs more than ``CatalogSearcher/countBudget`` visits however many counts it
    /// asks for, and however many terms its words' typos reach. A word that reaches hundreds of
    /// terms makes each new chunk cost a few dozen visits: in a catalog of 1,000,000 records its
    /// counts still see every chunk, in one of 10,000,000 they stop after a few million records.
    func count(covering covers: (Int) -> Bool = { _ in true }, _ count: (Int) throws -> Int) throws -> (Int, Bool) {
        let cap = SearchResponse.countCap
        var total = 0
        for chunk in 0..<chunkCount where covers(chunk) {
            guard countBudget.remaining > 0 else { return (min(total, cap), true) }
            let readsBefore = termReads
            total += try count(chunk)
            countBudget.remaining -= 1 + (termReads - readsBefore) / CountBudget.readsPerVisit
            if total > cap { return (cap, true) }
        }
        return (total, false)
    }

    /// The counts of a facet's values under the query, filters and scope, largest first: at
    /// most ``CatalogSearcher/maxFacetValues`` values, the most frequent in the catalog first;
    /// `valuePrefix`: of a field's facet, only the values that start with it (folded).
    func facetCounts(_ facet: SearchFacet, valuePrefix: String = "") throws -> [FacetCount] {
        let lexicon = index.lexicon
        var values: [(value: String, set: TermSet)] = []
        switch facet {
        case .field(let name):
            // The most frequent values, before any set is made of them.
            for group in index.topFieldValues(name, foldedPrefix: valuePrefix) {
                let set =
                    group.terms.count >= TermSet.sharedFrom
                    ? TermSet(group.terms, of: lexicon, word: .filter("\(group.terms)"))
                    : TermSet(group.terms, of: lexicon)
                values.append((group.spelling, set))
            }
        case .categories:
            for category in catalog.categories where category.count > 0 {
                guard let term = lexicon.index(of: IndexTerms.category(category.id)) else { continue }
                values.append((category.name, TermSet([term], of: lexicon)))
            }
        case .country:
            let range = lexicon.range(prefix: [IndexTermKind.country.rawValue])
            for term in range {
                let code = String(decoding: lexicon.term(at: term).dropFirst(), as: UTF8.self)
                values.append((code, TermSet([term], of: lexicon)))
            }
        }
        let order = Dictionary(
            values.enumerated().map { ($0.element.value, $0.offset) }, uniquingKeysWith: { a, _ in a })
        if values.count > CatalogSearcher.maxFacetValues {
            // The most frequent values; ties in the catalog's own order.
            values = Array(
                values.enumerated().sorted {
                    $0.element.set.estimatedCount != $1.element.set.estimatedCount
                        ? $0.element.set.estimatedCount > $1.element.set.estimatedCount : $0.offset < $1.offset
                }
                .prefix(CatalogSearcher.maxFacetValues).map(\.element))
        }
        var counts: [FacetCount] = []
        for (value, set) in values {
            let (count, capped) = try self.count(covering: set.covers) { chunk in
                try matches(chunk).isEmpty ? 0 : try matchesCount(in: set.bitmap(chunk, index, reader), chunk: chunk)
            }
            if count > 0 { counts.append(FacetCount(value: value, count: count, capped: capped)) }
        }
        if case .field = facet { return counts.sorted(by: FacetCount.fieldOrder) }
        return counts.sorted { $0.count != $1.count ? $0.count > $1.count : order[$0.value]! < order[$1.value]! }
    }

    // MARK: - Pages

    /// One result of a page.
    struct PageEntry {
        var document: Int
        var tier: SearchTier?
        /// The step of rank order it ranks in (``RankStep``, by its place in the search's steps):
        /// what cursors and the merge of segments compare; nil for sorted results.
        var step: Int? = nil
        var isExact: Bool
        /// Where a ranked page's cursor continues after it: its position in the ranking field's
        /// order (``rankingKey``); nil: its document number.
        var place: Int? = nil
    }

    /// Whether a matching document matches every word without a typo.
    private func isExact(_ document: Int) throws -> Bool {
        guard !words.isEmpty else { return true }
        return try step(synonymsStep, document >> PostingChunk.shift).contains(document & (PostingChunk.size - 1))
    }

    /// The chunk's documents of the steps before `step` (which rank there): kept per chunk and
    /// extended step by step, as a page walks the steps in order.
    private func earlierSteps(before step: Int, _ chunk: Int) throws -> ChunkBitmap {
        var (next, bitmap) = earlier[chunk] ?? (0, ChunkBitmap.empty)
        if next > step { (next, bitmap) = (0, .empty) }
        while next < step {
            bitmap.formUnion(try self.step(next, chunk))
            next += 1
        }
        earlier[chunk] = (next, bitmap)
        return bitmap
    }

    /// A page in rank order: tier by tier, each in document order.
    func rankedPage(after cursor: SearchCursor?, limit: Int) throws -> ([PageEntry], SearchCursor?) {
        var startTier = 0
        var startDocument = 0
        switch cursor {
        case .ranked(let tier, let document):
            startTier = tier
            startDocument = document + 1
        case .ordered(let position):
            // A cursor of a sorted search: continue from that position in the first tier.
            startDocument = position + 1
        case .rankedKey, .rankedValueKey, .orderedKey, .sortedKey, nil:
            break
        }
        let (page, more) = try rankedPage(fromTier: startTier, document: startDocument, limit: limit)
        guard more, let last = page.last else { return (page, nil) }
        return (page, .ranked(tier: last.step!, document: last.place ?? last.document))
    }

    /// Up to `limit` results in rank order from document `startDocument` of step `startTier`
    /// (``RankStep``) on (with a ranking field: from that position of its order), and whether
    /// there are more.
    func rankedPage(fromTier startTier: Int, document startDocument: Int, limit: Int) throws -> (
        [PageEntry], Bool
    ) {
        if let rankingKey {
            return try rankingPage(rankingKey, fromTier: startTier, position: startDocument, limit: limit)
        }
        var page: [PageEntry] = []
        for (step, tier) in steps.map(\.tier).enumerated() where step >= startTier {
            let from = step == startTier ? startDocument : 0
            var chunk = from >> PostingChunk.shift
            while chunk < chunkCount {
                var bitmap = try self.step(step, chunk)
                if !bitmap.isEmpty { bitmap.subtract(try earlierSteps(before: step, chunk)) }
                guard !bitmap.isEmpty else {
                    chunk += 1
                    continue
                }
                let base = chunk << PostingChunk.shift
                let start = chunk == from >> PostingChunk.shift ? from & (PostingChunk.size - 1) : 0
                let exact = try self.step(synonymsStep, chunk)
                bitmap.forEach(from: start) { offset in
                    page.append(
                        PageEntry(document: base + offset, tier: tier, step: step, isExact: exact.contains(offset)))
                    return page.count <= limit
                }
                if page.count > limit { return (Array(page.prefix(limit)), true) }
                chunk += 1
            }
        }
        return (page, false)
    }

    /// A page in a fixed order: index order (title), its reverse, or by prices and fields.
    func orderedPage(sort: SearchSort, after cursor: SearchCursor?, limit: Int) throws -> ([PageEntry], SearchCursor?) {
        var position = 0
        switch cursor {
        case .ordered(let last): position = last + 1
        // A cursor of a ranked search: its document number stands in for the position.
        case .ranked(_, let document): position = document + 1
        case .rankedKey, .rankedValueKey, .orderedKey, .sortedKey, nil: break
        }
        let (page, last, more) = try orderedPage(sort: sort, from: position, limit: limit)
        return (page, more ? .ordered(position: last) : nil)
    }

    /// The segment's documents in a fixed order: the document at each position. Title orders
    /// are the index's own; orders by prices and fields are made from the keys' columns
    /// (``SortColumn``) once per segment and kept.
    func order(_ sort: SearchSort) throws -> (count: Int, document: (Int) -> Int) {
        let (documents, reversed) = try orderDocuments(sort)
        let count = documents.count
        return reversed ? (count, { Int(documents[count - 1 - $0]) }) : (count, { Int(documents[$0]) })
    }

    /// The documents of ``order(_:)``: an order as the index or the caches keep it, read from
    /// its end when `reversed`.
    private func orderDocuments(_ sort: SearchSort) throws -> (documents: [UInt32], reversed: Bool) {
        switch sort {
        case .relevance, .title: return (try index.browseOrder(reader), false)
        case .titleDescending: return (try index.browseOrder(reader), true)
        default: return (try index.sortOrder(sort, reader, order: sortKeyOrder), false)
        }
    }

    /// A document's values of the sort's keys (nil for none and for a `.title` key), which
    /// every segment compares alike (``SortKeyOrder``).
    func sortValues(of document: Int, _ sort: SearchSort) throws -> [[UInt8]?] {
        try sort.keys.map { key in
            try index.sortColumn(key.field, reader, order: sortKeyOrder)?.value(
                of: document, descending: key.descending)
        }
    }

    /// Up to `limit` matches in a fixed order from position `start` of that order on, the
    /// position of the last, and whether there are more.
    func orderedPage(sort: SearchSort, from start: Int, limit: Int) throws -> ([PageEntry], Int, Bool) {
        let (order, reversed) = try orderDocuments(sort)
        guard start < order.count else { return ([], 0, false) }
        let positions = try firstPositions(
            of: allChunks { try matches($0) }, in: order, reversed: reversed, from: start, limit: limit
        ) { index.positions(of: .sort(sort), in: order, order: sortKeyOrder) }
        var page: [PageEntry] = []
        for position in positions.prefix(limit) {
            let document = Int(order[reversed ? order.count - 1 - position : position])
            page.append(PageEntry(document: document, tier: nil, isExact: try isExact(document)))
        }
        return (page, positions.prefix(limit).last ?? 0, positions.count > limit)
    }

    /// A ranked page of a catalog with a ranking field: tier by tier, each in the field's order
    /// (``CatalogSearchIndex/rankingOrder(_:_:order:)``: ties, and records without the field
    /// after them, in document order), from position `start` of tier `startTier` on.
    private func rankingPage(_ key: SearchSort.Key, fromTier startTier: Int, position start: Int, limit: Int) throws
        -> ([PageEntry], Bool)
    {
        let order = try index.rankingOrder(key, reader, order: sortKeyOrder)
        var page: [PageEntry] = []
        for (step, tier) in steps.map(\.tier).enumerated() where step >= startTier {
            let from = step == startTier ? start : 0
            guard from < order.count else { continue }
            let matching = try allChunks { chunk in
                var bitmap = try self.step(step, chunk)
                if !bitmap.isEmpty { bitmap.subtract(try earlierSteps(before: step, chunk)) }
                return bitmap
            }
            // Once the page is full, one more result (of any later tier) says there are more.
            let wanted = limit - page.count
            let positions = firstPositions(of: matching, in: order, reversed: false, from: from, limit: wanted) {
                index.positions(of: .ranking(key), in: order, order: sortKeyOrder)
            }
            for position in positions.prefix(wanted) {
                let document = Int(order[position])
                page.append(
                    PageEntry(
                        document: document, tier: tier, step: step, isExact: try isExact(document), place: position))
            }
            if positions.count > wanted { return (page, true) }
        }
        return (page, false)
    }

    /// The value a document ranks by within its tier (``rankingKey``), nil without one.
    func rankingValue(of document: Int) throws -> [UInt8]? {
        guard let rankingKey else { return nil }
        return try index.sortColumn(rankingKey.field, reader, order: sortKeyOrder)?.value(
            of: document, descending: rankingKey.descending)
    }

    /// The documents of ``rankingOrder`` in this segment (nil without a ranking field).
    func rankingOrder() throws -> [UInt32]? {
        guard let rankingKey else { return nil }
        return try index.rankingOrder(rankingKey, reader, order: sortKeyOrder)
    }

    /// Every chunk's documents of `part`, as one array of words (an order visits the chunks in
    /// no order of theirs, so a walk of a few hundred positions works them all out anyway).
    private func allChunks(_ part: (Int) throws -> ChunkBitmap) rethrows -> [UInt64] {
        var words = [UInt64](repeating: 0, count: chunkCount * ChunkBitmap.wordCount)
        for chunk in 0..<chunkCount {
            let chunkWords = try part(chunk).words
            let base = chunk * ChunkBitmap.wordCount
            words.replaceSubrange(base..<(base + chunkWords.count), with: chunkWords)
        }
        return words
    }

    /// Up to `limit + 1` positions of `order` (read from its end when `reversed`) from `start`
    /// on whose documents `matching` holds, ascending.
    ///
    /// Many matches fill a page within a short walk along the order; few, or matches the order
    /// puts far apart (a price range in a sort by price), are found at once by their positions
    /// in the order (`inOrder`: by document, its position): the walk is cut short at
    /// ``walkLimit`` positions and the positions of every match after it are compared, the
    /// smallest kept.
    private func firstPositions(
        of matching: [UInt64], in order: [UInt32], reversed: Bool, from start: Int, limit: Int,
        inOrder: () -> [UInt32]
    ) -> [Int] {
        let count = order.count
        var positions: [Int] = []
        guard start < count else { return positions }
        let walkEnd = min(count, start + Self.walkLimit)
        for position in start..<walkEnd {
            let candidate = Int(order[reversed ? count - 1 - position : position])
            if matching[candidate >> 6] & (1 << UInt64(candidate & 63)) != 0 {
                positions.append(position)
                if positions.count > limit { return positions }
            }
        }
        guard walkEnd < count else { return positions }
        let inOrder = inOrder()
        positions.reserveCapacity(limit + 1)
        matching.withUnsafeBufferPointer { words in
            inOrder.withUnsafeBufferPointer { inOrder in
                for (wordIndex, word) in words.enumerated() where word != 0 {
                    var rest = word
                    while rest != 0 {
                        let document = wordIndex << 6 + rest.trailingZeroBitCount
                        rest &= rest - 1
                        guard document < count else { break }
                        let stored = Int(inOrder[document])
                        let position = reversed ? count - 1 - stored : stored
                        guard position >= walkEnd, positions.count <= limit || position < positions[limit] else {
                            continue
                        }
                        // Kept in order, at most limit + 1 of them.
                        var low = 0
                        var high = positions.count
                        while low < high {
                            let middle = (low + high) / 2
                            if positions[middle] < position { low = middle + 1 } else { high = middle }
                        }
                        positions.insert(position, at: low)
                        if positions.count > limit + 1 { positions.removeLast() }
                    }
                }
            }
        }
        return positions
    }

    /// How far a sorted or ranking page walks along its order before it compares its matches'
    /// positions (``firstPositions(of:in:reversed:from:limit:inOrder:)``).
    static let walkLimit = 4_096
}
