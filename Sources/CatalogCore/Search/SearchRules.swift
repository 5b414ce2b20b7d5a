import CatalogModel

/// A catalog's search settings (``SearchSettings``) as a search applies them: every word folded
/// the way queries are, synonyms as a table from a word to the words it also matches. Made once
/// per search from the definition the search reads, so a search sees one version of the
/// settings, whole.
///
/// The rules live here, once, for every engine and for offline catalogs:
/// - stop words leave a query of more than one word; a query of stop words only stays whole;
/// - a word's synonyms match records as whole words, and rank as a typo does: in
///   ``SearchTier/titleTypos`` when every word matches the title, else in
///   ``SearchTier/otherFields`` (a synonym is no typo: such a hit is exact);
/// - typo rules decide each word's ``TypoMatcher/Allowance``;
/// - only searchable fields are highlighted (the index builder collects only their words).
struct SearchRules: Sendable {
    /// Folded stop words.
    let stopWords: Set<String>
    /// For a folded word, the folded words it also matches, in the order the rules name them.
    let synonyms: [String: [String]]
    /// The typo lengths.
    let typos: TypoSettings
    /// Folded words that never match with a typo.
    let exemptWords: Set<String>
    /// The settings the rules were made of (which fields are searched).
    let settings: SearchSettings
    /// The steps of rank order under the settings' field weights (``RankStep/steps(weights:)``),
    /// made once for the evaluations of every segment of a search.
    let steps: [RankStep]

    /// The rules of a catalog's settings.
    init(_ settings: SearchSettings) {
        func folded(_ word: String) -> String? { SearchQuery(word).words.first }
        stopWords = Set(settings.stopWords.compactMap(folded))
        exemptWords = Set(settings.typos.exemptWords.compactMap(folded))
        typos = settings.typos
        self.settings = settings
        steps = RankStep.steps(weights: settings.fieldWeights)
        var synonyms: [String: [String]] = [:]
        func add(_ word: String, finds others: [String]) {
            for other in others where other != word && !(synonyms[word]?.contains(other) ?? false) {
                synonyms[word, default: []].append(other)
            }
        }
        for rule in settings.synonyms {
            let words = rule.words.compactMap(folded)
            if rule.sources.isEmpty {
                for word in words { add(word, finds: words) }
            } else {
                for source in rule.sources.compactMap(folded) { add(source, finds: words) }
            }
        }
        self.synonyms = synonyms
    }

    /// The query `text` makes under these rules (stop words left out).
    func query(_ text: String) -> SearchQuery {
        SearchQuery(text).removing(stopWords: stopWords)
    }

    /// The typos a folded query word may have.
    func allowance(for word: String) -> TypoMatcher.Allowance? {
        guard !exemptWords.contains(word) else { return nil }
        return TypoMatcher.allowance(forLength: word.unicodeScalars.count, rules: typos)
    }
}
