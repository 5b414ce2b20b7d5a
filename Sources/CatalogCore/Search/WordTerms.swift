import CatalogModel

/// The lexicon terms one folded query word matches, kind by kind: what ``WordMatches`` reads
/// the documents of. Worked out once per segment and word (``CatalogSearchIndex/wordTerms(_:isLast:typos:)``
/// keeps them), since as-you-type queries repeat their words keystroke after keystroke.
///
/// The work of one word is bounded: a word that expands to more terms than a person could mean
/// (a five-letter beginning of thousands of description words, a typo'd beginning that reaches
/// every word near it) keeps the terms that most records carry, at most ``Limits``' many of each
/// kind. The exact title matches (the whole word, its beginning, a run inside a title word)
/// are never cut: only the derived ones, whose records rank in the last tiers anyway.
struct WordTerms: Sendable {
    var whole: [Int] = []
    var prefix: [Int] = []
    var inside: [Int] = []
    var field: [Int] = []
    var typoTitle: [Int] = []
    /// The title words within one typo of the word, when it may have two (else ``typoTitle``).
    var typoTitleNear: [Int] = []
    var typoField: [Int] = []
    /// Whole words of other fields (exact and typo-exempt ones): the word exactly.
    var fieldWhole: [Int] = []
    var firstWhole: [Int] = []
    var firstPrefix: [Int] = []
    /// By weight (``SearchSettings/weight(of:)``, index 0 for weight 1): the word exactly, and
    /// the words that start with it, in fields of that weight; empty when no field has one.
    var weightedWhole: [[Int]] = []
    var weightedStart: [[Int]] = []
    /// Every title word and every field word within the typos (before ``Limits`` keeps the most
    /// frequent), when there are at most ``Limits/reusedWalk`` of them: the next keystroke's
    /// walks visit these alone (``TypoMatcher/narrows(_:to:allowance:)``).
    private(set) var typoWalks: (title: [Int], field: [Int])?

    /// How many terms a word's derived matches keep, the most frequent first (the figures
    /// Meilisearch documents for its own derivations: 1,000 beginnings, 150 words one typo away,
    /// 50 two typos away).
    enum Limits {
        /// Words of other fields that start with the query word.
        static let fieldPrefixes = 1_000
        /// Words within one typo.
        static let oneTypo = 150
        /// Words within two typos.
        static let twoTypos = 50
        /// The most terms a word's typo walks keep for the next keystroke's.
        static let reusedWalk = 4_096
    }

    /// The terms of a folded word; `isLast`: the word being typed (matched as a beginning);
    /// `typos`: the typos it may have (``SearchRules/allowance(for:)``), nil for none;
    /// `typed`: the terms of a word matched as a beginning with the same typos, whose typo walks
    /// this word's may start from: the word one keystroke before (the same but its last
    /// character), or, for a word no longer the last, the same word while it was.
    init(
        word: String, isLast: Bool, typos: TypoMatcher.Allowance?, lexicon: Lexicon, infix: InfixIndex,
        typed: (word: String, terms: WordTerms)? = nil
    ) {
        let bytes = Array(word.utf8)
        let scalars = Array(word.unicodeScalars)
        func exact(_ kind: IndexTermKind) -> [Int] {
            lexicon.index(of: IndexTerms.term(kind, bytes)).map { [$0] } ?? []
        }
        func beginning(_ kind: IndexTermKind) -> Range<Int> {
            lexicon.range(prefix: IndexTerms.term(kind, bytes))
        }
        whole = exact(.titleWord)
        let startsTitleWord = beginning(.titleWord)
        prefix = scalars.count <= IndexTerms.prefixLength ? exact(.titlePrefix) : Array(startsTitleWord)
        if scalars.count <= IndexTerms.gramLength {
            inside = exact(.titleGram)
        } else {
            var words = Set(infix.words(containing: bytes, in: lexicon))
            words.formUnion(startsTitleWord)
            inside = words.sorted()
        }
        field =
            scalars.count <= IndexTerms.fieldPrefixLength
            ? exact(.fieldPrefix)
            : Self.mostFrequent(
                Array(beginning(.exactFieldWord)) + Array(beginning(.fieldWord)), limit: Limits.fieldPrefixes,
                in: lexicon)
        fieldWhole = (exact(.fieldWord) + exact(.exactFieldWord)).sorted()
        if !lexicon.range(prefix: [IndexTermKind.weightedFieldWord.rawValue]).isEmpty {
            for weight in 1...SearchSettings.maxFieldWeights {
                let word = IndexTerms.weighted(.weightedFieldWord, weight: weight, bytes)
                let start = IndexTerms.weighted(.weightedFieldPrefix, weight: weight, bytes)
                weightedWhole.append(lexicon.index(of: word).map { [$0] } ?? [])
                if scalars.count <= IndexTerms.fieldPrefixLength {
                    weightedStart.append(lexicon.index(of: start).map { [$0] } ?? [])
                } else {
                    weightedStart.append(
                        Self.mostFrequent(lexicon.range(prefix: word), limit: Limits.fieldPrefixes, in: lexicon))
                }
            }
        }
        firstWhole = exact(.firstWord)
        firstPrefix = scalars.count <= IndexTerms.prefixLength ? exact(.firstPrefix) : Array(beginning(.firstWord))
        if let typos {
            let limit = typos.maxDistance >= 2 ? Limits.twoTypos : Limits.oneTypo
            // The walks of the word as it was typed, when they hold every candidate of this one's:
            // a whole word within the typos is a beginning within them too.
            let earlier = typed.flatMap { typed in
                let before = Array(typed.word.unicodeScalars)
                let holds =
                    isLast ? TypoMatcher.narrows(before, to: scalars, allowance: typos) : before == scalars
                return holds ? typed.terms.typoWalks : nil
            }
            var walks: [[Int]] = []
            for kind in [IndexTermKind.titleWord, .fieldWord] {
                let range = lexicon.range(prefix: [kind.rawValue])
                let found = TypoMatcher.matches(
                    scalars, allowance: typos, prefix: isLast, in: range,
                    among: kind == .titleWord ? earlier?.title : earlier?.field, of: lexicon)
                walks.append(found)
                let kept = Self.mostFrequent(found, limit: limit, in: lexicon)
                if kind == .titleWord { typoTitle = kept } else { typoField = kept }
                guard kind == .titleWord else { continue }
                // Fewer typos rank first: the title words one typo away, apart (among those two away).
                if typos.maxDistance >= 2 {
                    let one = TypoMatcher.Allowance(maxDistance: 1, editCost: typos.editCost)
                    let near = TypoMatcher.matches(
                        scalars, allowance: one, prefix: isLast, in: range, among: found, of: lexicon)
                    typoTitleNear = Self.mostFrequent(near, limit: Limits.oneTypo, in: lexicon)
                } else {
                    typoTitleNear = kept
                }
            }
            if isLast, walks.allSatisfy({ $0.count <= Limits.reusedWalk }) { typoWalks = (walks[0], walks[1]) }
        }
    }

    /// At most `limit` of `terms`: those the most records carry (ties: the first in byte order),
    /// ascending.
    static func mostFrequent(_ terms: some Collection<Int>, limit: Int, in lexicon: Lexicon) -> [Int] {
        guard terms.count > limit else { return Array(terms) }
        let ranked = terms.sorted { a, b in
            let (x, y) = (lexicon.documentCount(at: a), lexicon.documentCount(at: b))
            return x != y ? x > y : a < b
        }
        return ranked.prefix(limit).sorted()
    }

    /// A rough size in bytes, for the cache's budget.
    var bytes: Int {
        let kinds =
            [whole, prefix, inside, field, typoTitle, typoTitleNear, typoField, fieldWhole, firstWhole, firstPrefix]
            + weightedWhole + weightedStart + [typoWalks?.title ?? [], typoWalks?.field ?? []]
        return 8 * kinds.reduce(64) { $0 + $1.count }
    }
}
