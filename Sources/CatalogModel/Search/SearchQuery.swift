/// A user's search text, made safe: folded words only, never query syntax.
///
/// Control characters are dropped, quotes and operators are just separators, and the result is
/// a list of folded words; engines quote each word themselves. The last word is matched as a
/// prefix (the user is still typing it).
///
/// ```swift
/// SearchQuery("  \"Bá*ble OR  ").words // ["ba", "ble", "or"]
/// ```
public struct SearchQuery: Sendable, Equatable {
    /// The most words a query keeps; the rest are ignored.
    public static let maxWords = 8
    /// The longest word kept, in UTF-8 bytes; longer words are cut.
    public static let maxWordBytes = 64

    /// The folded words, in the order typed, without duplicates.
    public let words: [String]
    /// Every folded word in the order typed, repeats included (for "the title starts with the
    /// query").
    public let sequence: [String]
    /// The symbols typed (`€`, `-`, an emoji) when the query has no words: then they are what is
    /// searched, literally. Empty when there are words (symbols only separate them).
    public let symbols: [String]

    /// Parses `text`.
    public init(_ text: String) {
        var words: [String] = []
        var sequence: [String] = []
        var symbols: [String] = []
        var scanner = WordScanner()
        scanner.scan(text) { token, bytes in
            switch token {
            case .word:
                guard sequence.count < Self.maxWords * 2 else { return }
                var word = String(decoding: bytes.prefix(Self.maxWordBytes), as: UTF8.self)
                // A cut in the middle of a scalar leaves U+FFFD: drop it.
                if bytes.count > Self.maxWordBytes { word = String(word.unicodeScalars.filter { $0 != "\u{FFFD}" }) }
                guard !word.isEmpty else { return }
                sequence.append(word)
                if !words.contains(word) && words.count < Self.maxWords { words.append(word) }
            case .variant:
                break
            case .symbol:
                let symbol = String(decoding: bytes, as: UTF8.self)
                if !symbols.contains(symbol) && symbols.count < Self.maxWords { symbols.append(symbol) }
            }
        }
        self.words = words
        self.sequence = sequence
        self.symbols = words.isEmpty ? symbols : []
    }

    private init(words: [String], sequence: [String], symbols: [String]) {
        self.words = words
        self.sequence = sequence
        self.symbols = symbols
    }

    /// This query without the folded `stopWords`, when it has more than one word and some word
    /// is no stop word; otherwise (one word, or stop words only) the query as it is.
    ///
    /// ```swift
    /// SearchQuery("The Lord of the Rings").removing(stopWords: ["the", "of"]).words  // ["lord", "rings"]
    /// SearchQuery("the").removing(stopWords: ["the"]).words                         // ["the"]
    /// ```
    public func removing(stopWords: Set<String>) -> SearchQuery {
        guard sequence.count > 1, !stopWords.isEmpty else { return self }
        let kept = sequence.filter { !stopWords.contains($0) }
        guard !kept.isEmpty, kept.count < sequence.count else { return self }
        return SearchQuery(words: words.filter { !stopWords.contains($0) }, sequence: kept, symbols: symbols)
    }

    /// True when there is nothing to search for.
    public var isEmpty: Bool { words.isEmpty && symbols.isEmpty }

    /// Where the words of this query occur in `text`, as UTF-16 ranges of `text`, merged and
    /// sorted, and the worst way a word matched (nil when some word does not occur).
    public func ranges(in text: String) -> (ranges: [Range<Int>], kind: FoldedText.MatchKind)? {
        let folded = FoldedText(text)
        var ranges: [Range<Int>] = []
        var worst = FoldedText.MatchKind.word
        for word in words {
            guard let match = folded.find(Array(word.utf8)) else { return nil }
            ranges.append(match.range)
            worst = max(worst, match.kind)
        }
        return (Self.merge(ranges), worst)
    }

    /// Each word's best occurrence in `text`, for highlighting any words that occur.
    public func partialRanges(in text: String) -> [Range<Int>] {
        let folded = FoldedText(text)
        return Self.merge(words.compactMap { folded.find(Array($0.utf8))?.range })
    }

    static func merge(_ ranges: [Range<Int>]) -> [Range<Int>] {
        let sorted = ranges.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Int>] = []
        for range in sorted {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}
