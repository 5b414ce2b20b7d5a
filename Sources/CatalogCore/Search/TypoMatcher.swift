/// Finds the lexicon's terms within a small edit distance of a query word: insertions,
/// deletions, substitutions and transpositions of adjacent characters each count one.
///
/// The sorted lexicon is walked as if it were a trie: the distance table of a term reuses the
/// rows of the characters it shares with the previous term, and as soon as no alignment of a
/// term's beginning can stay within the distance, every term with that beginning is skipped with
/// one binary search. The cost follows the part of the vocabulary near the word, not its size.
///
/// How many typos a word may have follows its length (the rule Meilisearch documents): none
/// below 5 characters, one from 5, two from 9. A four-letter word may have two neighbouring
/// letters swapped ("yrok" for "york"), the commonest slip of all, and nothing else.
public enum TypoMatcher {
    /// The typos a word may have.
    public struct Allowance: Sendable, Equatable {
        /// The most edits.
        public var maxDistance: Int
        /// What an insertion, deletion or substitution costs (a swap of neighbours costs 1).
        public var editCost: Int
    }

    /// The typos allowed in a word of `length` characters, nil for none.
    public static func allowance(forLength length: Int) -> Allowance? {
        switch length {
        case 9...: Allowance(maxDistance: 2, editCost: 1)
        case 5...: Allowance(maxDistance: 1, editCost: 1)
        case 4: Allowance(maxDistance: 1, editCost: 2)
        default: nil
        }
    }

    /// The lexicon indexes of the terms in `range` (one kind; their first byte is the kind) that are
    /// within `maxDistance` of `word`, ascending.
    ///
    /// - Parameters:
    ///   - word: the folded query word's characters.
    ///   - prefix: when true a term matches if some beginning of it is within the distance (the
    ///     word being typed); otherwise the whole term must be.
    public static func matches(
        _ word: [Unicode.Scalar], allowance: Allowance, prefix: Bool, in range: Range<Int>, of lexicon: Lexicon
    ) -> [Int] {
        let maxDistance = allowance.maxDistance
        let edit = allowance.editCost
        guard maxDistance > 0, !word.isEmpty, !range.isEmpty else { return [] }
        let columns = word.count + 1
        // rows[d] is the distance row after the term's first d characters; rows[0] = 0, 1, 2, …
        var rows: [[Int]] = [(0..<columns).map { $0 * edit }]
        var characters: [Unicode.Scalar] = []
        var result: [Int] = []
        var index = range.lowerBound
        var current: [Unicode.Scalar] = []
        while index < range.upperBound {
            current.removeAll(keepingCapacity: true)
            let term = lexicon.term(at: index).dropFirst()
            for scalar in String(decoding: term, as: UTF8.self).unicodeScalars { current.append(scalar) }
            // Reuse the rows of the characters shared with the previous term.
            var shared = 0
            while shared < min(characters.count, current.count) && characters[shared] == current[shared] {
                shared += 1
            }
            characters = current
            rows.removeSubrange((shared + 1)...)
            var skipDepth: Int?
            var matched = false
            var depth = shared
            while depth < current.count {
                let previous = rows[depth]
                var row = [Int](repeating: 0, count: columns)
                row[0] = (depth + 1) * edit
                var smallest = row[0]
                for column in 1..<columns {
                    let cost = word[column - 1] == current[depth] ? 0 : edit
                    var value = min(previous[column] + edit, row[column - 1] + edit, previous[column - 1] + cost)
                    if depth >= 1 && column >= 2 && word[column - 1] == current[depth - 1]
                        && word[column - 2] == current[depth]
                    {
                        value = min(value, rows[depth - 1][column - 2] + 1)
                    }
                    row[column] = value
                    smallest = min(smallest, value)
                }
                rows.append(row)
                depth += 1
                if prefix && row[columns - 1] <= maxDistance {
                    // Every term with this beginning matches.
                    matched = true
                    skipDepth = depth
                    break
                }
                // A swap of neighbours reaches back one row: give up only when two rows are out
                // of reach.
                if smallest > maxDistance && (previous.min() ?? 0) > maxDistance {
                    skipDepth = depth
                    break
                }
            }
            if !matched && skipDepth == nil {
                let last = rows[current.count][columns - 1]
                if last <= maxDistance { matched = true }
            }
            if let skipDepth {
                // Every term sharing the first `skipDepth` characters goes the same way.
                let beginning = Array(lexicon.term(at: index).prefix(1)) + utf8(current[0..<skipDepth])
                let end = min(range.upperBound, lexicon.range(prefix: beginning).upperBound)
                if matched { result.append(contentsOf: index..<end) }
                index = max(end, index + 1)
            } else {
                if matched { result.append(index) }
                index += 1
            }
        }
        return result
    }

    private static func utf8(_ scalars: ArraySlice<Unicode.Scalar>) -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in scalars { bytes.append(contentsOf: String(scalar).utf8) }
        return bytes
    }
}
