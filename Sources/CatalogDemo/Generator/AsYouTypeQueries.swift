/// A search as someone types it: the text so far and the scope button selected.
public struct AsYouTypeQuery: Sendable, Equatable {
    /// What is typed so far.
    public var text: String
    /// The scope selected, nil for all records.
    public var scope: String?

    /// Creates a query.
    public init(text: String, scope: String?) {
        self.text = text
        self.scope = scope
    }
}

/// The queries benchmarks and engine comparisons type: every prefix of real title words, as a
/// user types them, words skewed towards frequent ones, a quarter of them within a scope. The
/// same arguments always give the same queries.
///
/// ```swift
/// let generator = CatalogGenerator(items: 100_000)
/// let queries = AsYouTypeQueries.make(words: generator.titleWords, scopes: ["Books"], count: 1_000)
/// ```
public enum AsYouTypeQueries {
    /// Makes `count` queries.
    ///
    /// - Parameters:
    ///   - words: the words to type, most frequent first (``CatalogGenerator/titleWords``).
    ///   - scopes: the scope labels to pick from; none: every query searches all records.
    ///   - count: how many queries.
    public static func make(words: [String], scopes: [String], count: Int) -> [AsYouTypeQuery] {
        guard !words.isEmpty else { return [] }
        var random = SplitMix64(seed: 7)
        // Modulo, not SplitMix64.below: the sequence the benchmarks have always typed.
        func below(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        var queries: [AsYouTypeQuery] = []
        queries.reserveCapacity(count)
        while queries.count < count {
            // Skewed towards frequent words, like real typing: square a uniform pick.
            let pick = below(words.count)
            let word = words[pick * pick / max(1, words.count)]
            let scope = !scopes.isEmpty && below(4) == 0 ? scopes[below(scopes.count)] : nil
            var prefix = ""
            for character in word {
                prefix.append(character)
                queries.append(AsYouTypeQuery(text: prefix, scope: scope))
                if queries.count == count { break }
            }
        }
        return queries
    }
}
