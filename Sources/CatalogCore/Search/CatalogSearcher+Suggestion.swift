import CatalogModel

extension CatalogSearcher {
    /// The most words a query may have for a suggestion to be looked for: past it, finding one
    /// would cost a search per word.
    static let suggestionWords = 4

    /// What to search instead of a query that finds nothing (the empty state's "did you mean"),
    /// with the same scope and filters: each word that finds nothing on its own becomes the indexed
    /// word nearest to it that most records carry, and the result is offered only when it finds
    /// something.
    ///
    /// Nearest means within two edits for a word of five letters or more and one edit from three
    /// letters, further than search's own typo tolerance goes (a title or another field's word,
    /// never an id or a URL). Queries of more than ``suggestionWords`` words, and words of one or
    /// two letters, get none. Every engine and the offline catalog run this one rule.
    ///
    /// - Returns: the suggested query (its words folded, as the index keeps them), or nil.
    func suggestion(for request: SearchRequest.Checked, words: [String]) throws -> String? {
        guard !words.isEmpty, words.count <= Self.suggestionWords else { return nil }
        var suggested: [String] = []
        var changed = false
        for word in words {
            if try finds(word, like: request) {
                suggested.append(word)
            } else if let nearest = try nearestWord(to: word), nearest != word {
                suggested.append(nearest)
                changed = true
            } else {
                return nil
            }
        }
        let query = suggested.joined(separator: " ")
        guard changed, try finds(query, like: request) else { return nil }
        return query
    }

    /// Whether `query` finds a record under `request`'s scope and filters.
    private func finds(_ query: String, like request: SearchRequest.Checked) throws -> Bool {
        var probe = SearchRequest(
            query: query, scope: request.scope, categories: request.categories,
            countries: request.countries.map(\.text), price: request.price, filter: request.filter, limit: 1)
        // A standing filter (an API key's) holds too: a suggestion never tells of records it hides.
        probe.restriction = request.restriction
        return try search(SearchRequest.Checked(probe), suggesting: false).total > 0
    }

    /// The title or field word nearest to `word` that most live records carry, over every
    /// segment, or nil.
    private func nearestWord(to word: String) throws -> String? {
        let scalars = Array(word.unicodeScalars)
        let allowance: TypoMatcher.Allowance
        switch scalars.count {
        case 5...: allowance = TypoMatcher.Allowance(maxDistance: 2, editCost: 1)
        case 3...: allowance = TypoMatcher.Allowance(maxDistance: 1, editCost: 1)
        default: return nil
        }
        var carried: [String: Int] = [:]
        for segment in segments where segment.liveCount > 0 {
            let lexicon = segment.index.lexicon
            for kind in [IndexTermKind.titleWord, .fieldWord] {
                let range = lexicon.range(prefix: [kind.rawValue])
                for term in TypoMatcher.matches(scalars, allowance: allowance, prefix: false, in: range, of: lexicon) {
                    let text = String(decoding: lexicon.term(at: term).dropFirst(), as: UTF8.self)
                    carried[text, default: 0] += try liveCount(of: term, in: segment)
                }
            }
        }
        return carried.max { a, b in a.value != b.value ? a.value < b.value : a.key > b.key }?.key
    }

    /// How many live records of `segment` carry lexicon term `term`: its document count, less the
    /// deleted records a segment keeps until it is merged. Counted either way the answer would
    /// follow how changes happened to be merged, and differ between the server and an offline
    /// copy of the same records.
    private func liveCount(of term: Int, in segment: LoadedSegment) throws -> Int {
        let count = segment.index.lexicon.documentCount(at: term)
        guard segment.deleted.count > 0 else { return count }
        let set = TermSet([term], of: segment.index.lexicon)
        var deleted = 0
        for (chunk, gone) in segment.deleted.chunks where set.covers(chunk) {
            deleted += try set.bitmap(chunk, segment.index, segment.reader).intersectionCount(gone)
        }
        return count - deleted
    }
}
