import CatalogModel
import CatalogStorage

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
/// letters swapped ("yrok" for "york"), the commonest slip of all, and nothing else. A catalog's
/// settings may move both lengths (``TypoSettings``): words from 4 letters up to the one-typo
/// length may then have a swap only.
public enum TypoMatcher {
    /// The typos a word may have.
    public struct Allowance: Sendable, Equatable, Hashable {
        /// The most edits.
        public var maxDistance: Int
        /// What an insertion, deletion or substitution costs (a swap of neighbours costs 1).
        public var editCost: Int
    }

    /// The typos allowed in a word of `length` characters under `rules`' lengths, nil for none.
    public static func allowance(forLength length: Int, rules: TypoSettings = TypoSettings()) -> Allowance? {
        if length >= rules.twoTyposFrom { return Allowance(maxDistance: 2, editCost: 1) }
        if length >= rules.oneTypoFrom { return Allowance(maxDistance: 1, editCost: 1) }
        if length >= 4 { return Allowance(maxDistance: 1, editCost: 2) }
        return nil
    }

    /// The lexicon indexes of the terms in `range` (one kind; their first byte is the kind) that are
    /// within the allowance of `word`, ascending.
    ///
    /// - Parameters:
    ///   - word: the folded query word's characters.
    ///   - prefix: when true a term matches if some beginning of it is within the distance (the
    ///     word being typed); otherwise the whole term must be.
    ///   - candidates: when given, only these terms of `range` (ascending) are walked: the matches
    ///     of a word they are known to include (``narrows(_:to:allowance:)``).
    public static func matches(
        _ word: [Unicode.Scalar], allowance: Allowance, prefix: Bool, in range: Range<Int>,
        among candidates: [Int]? = nil, of lexicon: Lexicon
    ) -> [Int] {
        guard allowance.maxDistance > 0, !word.isEmpty, !range.isEmpty else { return [] }
        var walk = Walk(word: word.map(\.value), allowance: allowance, prefix: prefix)
        return walk.run(candidates.map(Walk.Terms.some) ?? .range(range), lexicon)
    }

    /// Whether every term a beginning of which is within `allowance` of `longer` has a
    /// beginning within it of `shorter` too, so that the terms matched as `shorter` are the only
    /// candidates of `longer` (the next keystroke's walk visits them alone): when `longer` is
    /// `shorter` and one more character, under the same allowance, with every edit costing one.
    ///
    /// The last character of `longer` was matched to a character of the term, or was inserted,
    /// or a character of the term was deleted before it, or it was swapped with the one before:
    /// each leaves a beginning of the term within the same distance of `shorter`. With edits
    /// dearer than a swap it does not hold: "abcyx" is one swap from "abcxy" and two from
    /// every beginning of "abcx".
    public static func narrows(_ shorter: [Unicode.Scalar], to longer: [Unicode.Scalar], allowance: Allowance)
        -> Bool
    {
        allowance.editCost == 1 && longer.count == shorter.count + 1 && longer.starts(with: shorter)
    }

    /// The state of one walk: the query's characters, one distance row per depth in a single
    /// buffer, and the current term's characters.
    private struct Walk {
        let word: [UInt32]
        let maxDistance: Int32
        let edit: Int32
        let prefix: Bool
        let columns: Int
        /// Row `d` (the distances after the term's first `d` characters) at `d * columns`.
        var rows: [Int32]
        /// The smallest value of each row.
        var minima: [Int32]
        var characters: [UInt32] = []
        var current: [UInt32] = []
        var key: [UInt8] = []

        init(word: [UInt32], allowance: Allowance, prefix: Bool) {
            self.word = word
            maxDistance = Int32(allowance.maxDistance)
            edit = Int32(allowance.editCost)
            self.prefix = prefix
            columns = word.count + 1
            rows = (0..<columns).map { Int32($0) * Int32(allowance.editCost) }
            minima = [0]
            characters.reserveCapacity(64)
            current.reserveCapacity(64)
        }

        /// Decodes a term's folded UTF-8 (after its kind byte) into characters.
        static func decode(_ term: IndexBytes.Run, into characters: inout [UInt32]) {
            term.bytes.withBytes(term.startIndex..<term.endIndex) { decode($0, into: &characters) }
        }

        /// Decodes a term's folded UTF-8 (after its kind byte) into characters.
        static func decode(_ term: UnsafeBufferPointer<UInt8>, into characters: inout [UInt32]) {
            characters.removeAll(keepingCapacity: true)
            var index = term.startIndex + 1
            while index < term.endIndex {
                let byte = term[index]
                if byte < 0x80 {
                    characters.append(UInt32(byte))
                    index += 1
                    continue
                }
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                var value = UInt32(byte) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
                var offset = 1
                while offset < length && index + offset < term.endIndex {
                    value = value << 6 | (UInt32(term[index + offset]) & 0x3F)
                    offset += 1
                }
                characters.append(value)
                index += length
            }
        }

        /// Computes row `depth + 1` from row `depth` for the term's character at `depth`.
        mutating func step(_ depth: Int) {
            let character = current[depth]
            let previous = depth * columns
            let row = previous + columns
            if rows.count < row + columns { rows.append(contentsOf: repeatElement(0, count: columns)) }
            if minima.count < depth + 2 { minima.append(0) }
            rows.withUnsafeMutableBufferPointer { rows in
                word.withUnsafeBufferPointer { word in
                    rows[row] = Int32(depth + 1) * edit
                    var smallest = rows[row]
                    for column in 1..<columns {
                        let cost: Int32 = word[column - 1] == character ? 0 : edit
                        var value = min(rows[previous + column] + edit, rows[row + column - 1] + edit)
                        value = min(value, rows[previous + column - 1] + cost)
                        if depth >= 1 && column >= 2 && word[column - 1] == current[depth - 1]
                            && word[column - 2] == character
                        {
                            value = min(value, rows[previous - columns + column - 2] + 1)
                        }
                        rows[row + column] = value
                        smallest = min(smallest, value)
                    }
                    minima[depth + 1] = smallest
                }
            }
        }

        /// The terms a walk visits: a range of the lexicon, or some of its terms, ascending.
        enum Terms {
            case range(Range<Int>)
            case some([Int])

            var count: Int {
                switch self {
                case .range(let range): range.count
                case .some(let indexes): indexes.count
                }
            }

            /// The lexicon index of the `position`th term.
            subscript(position: Int) -> Int {
                switch self {
                case .range(let range): range.lowerBound + position
                case .some(let indexes): indexes[position]
                }
            }

            /// The first position at or after `position` whose term's index is `end` or more.
            func position(from position: Int, reaching end: Int) -> Int {
                switch self {
                case .range(let range): return max(position, min(range.count, end - range.lowerBound))
                case .some(let indexes):
                    var (low, high) = (position, indexes.count)
                    while low < high {
                        let middle = (low + high) / 2
                        if indexes[middle] < end { low = middle + 1 } else { high = middle }
                    }
                    return low
                }
            }
        }

        mutating func run(_ terms: Terms, _ lexicon: Lexicon) -> [Int] {
            var result: [Int] = []
            var position = 0
            var valid = 0  // rows 0...valid hold the distances of characters[0..<valid]
            while position < terms.count {
                let index = terms[position]
                let term = lexicon.term(at: index)
                Self.decode(term, into: &current)
                var shared = 0
                let limit = min(valid, current.count)
                while shared < limit && characters[shared] == current[shared] { shared += 1 }
                var depth = shared
                var skipDepth: Int?
                var matched = false
                while depth < current.count {
                    step(depth)
                    depth += 1
                    if prefix && rows[depth * columns + columns - 1] <= maxDistance {
                        // Every term with this beginning matches.
                        matched = true
                        skipDepth = depth
                        break
                    }
                    // A swap of neighbours reaches back one row: give up only when two rows are
                    // out of reach.
                    if minima[depth] > maxDistance && minima[depth - 1] > maxDistance {
                        skipDepth = depth
                        break
                    }
                }
                valid = depth
                if !matched && skipDepth == nil && rows[current.count * columns + columns - 1] <= maxDistance {
                    matched = true
                }
                // The next term compares with this one.
                swap(&characters, &current)
                if let skipDepth {
                    // Every term sharing the first `skipDepth` characters goes the same way.
                    let end = endOfBeginning(term, at: index, characters: skipDepth, lexicon)
                    let next = terms.position(from: position + 1, reaching: end)
                    if matched {
                        switch terms {
                        case .range: result.append(contentsOf: index..<terms[0] + next)
                        case .some(let indexes): result.append(contentsOf: indexes[position..<next])
                        }
                    }
                    position = next
                } else {
                    if matched { result.append(index) }
                    position += 1
                }
            }
            return result
        }

        /// The first index after the terms that begin like `term`'s kind byte and first
        /// `characters` characters.
        mutating func endOfBeginning(_ term: IndexBytes.Run, at index: Int, characters: Int, _ lexicon: Lexicon)
            -> Int
        {
            var end = term.startIndex + 1
            var seen = 0
            while end < term.endIndex && seen < characters {
                end += 1
                while end < term.endIndex && term[end] & 0xC0 == 0x80 { end += 1 }
                seen += 1
            }
            key.removeAll(keepingCapacity: true)
            key.append(contentsOf: term[term.startIndex..<end])
            return lexicon.endOfPrefix(from: index, prefix: key)
        }
    }
}
