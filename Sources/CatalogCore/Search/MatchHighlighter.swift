import CatalogStorage
import Foundation
import CatalogModel

/// Where a query matched a record, for highlighting: ranges of the fields a result list shows,
/// and, when a word matched only another field, a snippet of that field with its ranges. Every
/// kind of match is found again in the text itself: whole words, beginnings, runs inside words,
/// typos and symbols.
struct MatchHighlighter {
    let query: SearchQuery
    /// Characters of context a snippet keeps before the first match.
    static let snippetLead = 40
    /// The longest snippet, in UTF-16 code units.
    static let snippetLength = 120

    private typealias Term = (
        bytes: [UInt8], scalars: [Unicode.Scalar], typos: TypoMatcher.Allowance?, isLast: Bool, synonyms: [[UInt8]]
    )

    /// The query's words (or symbols), each with its typo allowance and synonyms: made once per
    /// search, not once per hit.
    private let terms: [Term]
    /// Whether a field is searched (``SearchSettings/isSearchable(_:)``).
    private let settings: SearchSettings

    init(query: SearchQuery, rules: SearchRules) {
        self.query = query
        settings = rules.settings
        if query.words.isEmpty {
            terms = query.symbols.map { (Array($0.utf8), Array($0.unicodeScalars), nil, false, []) }
        } else {
            let last = query.sequence.last
            terms = query.words.map {
                let synonyms = (rules.synonyms[$0] ?? []).map { Array($0.utf8) }
                return (Array($0.utf8), Array($0.unicodeScalars), rules.allowance(for: $0), $0 == last, synonyms)
            }
        }
    }

    /// The ranges of the list fields and the snippet, if one is needed.
    func highlight(_ hit: StoredHit) -> ([MatchRange], MatchSnippet?) {
        guard !terms.isEmpty else { return ([], nil) }
        var fields: [(name: String, text: String)] = []
        if settings.isSearchable("title") { fields.append(("title", hit.title)) }
        if let subtitle = hit.subtitle, settings.isSearchable("subtitle") { fields.append(("subtitle", subtitle)) }
        if settings.isSearchable("categories") {
            for (index, label) in hit.categories.enumerated() { fields.append(("categories.\(index)", label)) }
        }
        var found = [Bool](repeating: false, count: terms.count)
        var result: [MatchRange] = []
        for (name, text) in fields where !text.isEmpty {
            let folded = FoldedText(text)
            var ranges: [Range<Int>] = []
            for (index, term) in terms.enumerated() {
                if let range = Self.find(term, in: folded) {
                    ranges.append(range)
                    found[index] = true
                }
            }
            for range in Self.merge(ranges) {
                result.append(MatchRange(field: name, start: range.lowerBound, length: range.count))
            }
        }
        guard found.contains(false), let record = try? hit.record() else { return (result, nil) }
        // A word matched elsewhere: the first other field that holds it explains the match.
        var others: [(name: String, field: String, text: String)] = []
        if let description = record.description, settings.isSearchable("description") {
            others.append(("description", "description", description))
        }
        for name in record.fields.keys.sorted() where settings.isSearchable(name) {
            others.append(("fields.\(name)", name, record.fields[name]!.joined))
        }
        if settings.isSearchable("id") { others.append(("id", "id", record.id)) }
        for (name, field, text) in others where !text.isEmpty {
            let folded = FoldedText(text)
            // As the index builder has it: typos never reach an exempt field's words, nor a URL's.
            let typos =
                !settings.typos.exemptFields.contains(field) && !text.hasPrefix("http://")
                && !text.hasPrefix("https://")
            let missing = terms.indices.filter { !found[$0] }
            guard
                missing.contains(where: {
                    Self.find(terms[$0], in: folded, fromWordStart: true, typos: typos) != nil
                })
            else { continue }
            var ranges: [Range<Int>] = []
            for term in terms {
                if let range = Self.find(term, in: folded, fromWordStart: true, typos: typos) { ranges.append(range) }
            }
            return (result, Self.snippet(name: name, text: text, ranges: Self.merge(ranges)))
        }
        return (result, nil)
    }

    /// The best place of a query word in a text: exactly (a whole word, a beginning, inside a
    /// word), else a word within the word's typos.
    private static func find(
        _ term: Term, in folded: FoldedText, fromWordStart: Bool = false, typos allowed: Bool = true
    ) -> Range<Int>? {
        if let exact = folded.find(term.bytes, allowSubstring: !fromWordStart) { return exact.range }
        for synonym in term.synonyms {
            if let match = folded.find(synonym, allowSubstring: false), match.kind == .word { return match.range }
        }
        guard allowed, let typos = term.typos else { return nil }
        var index = 0
        let bytes = folded.bytes
        var word: [Unicode.Scalar] = []
        while index < bytes.count {
            guard folded.inWord[index] else {
                index += 1
                continue
            }
            var end = index
            while end < bytes.count && folded.inWord[end] { end += 1 }
            word.removeAll(keepingCapacity: true)
            var decoder = UTF8()
            var input = bytes[index..<end].makeIterator()
            while case .scalarValue(let scalar) = decoder.decode(&input) { word.append(scalar) }
            if let length = TypoMatcher.distanceMatch(term.scalars, word, allowance: typos, prefix: term.isLast) {
                // Highlight the part of the word that matched: all of it, or its matching beginning.
                var stop = index
                var scalars = 0
                while stop < end && scalars < length {
                    stop += 1
                    while stop < end && bytes[stop] & 0xC0 == 0x80 { stop += 1 }
                    scalars += 1
                }
                return folded.origins[index]..<folded.origins[stop]
            }
            index = end
        }
        return nil
    }

    /// Ranges sorted, overlapping ones joined.
    static func merge(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var merged: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// Up to ``snippetLength`` UTF-16 units of `text` around the first range, cut at spaces
    /// where possible, with "…" where text was left out.
    static func snippet(name: String, text: String, ranges: [Range<Int>]) -> MatchSnippet {
        let units = Array(text.utf16)
        let first = ranges.first?.lowerBound ?? 0
        var start = max(0, first - snippetLead)
        if start > 0 {
            // Start after a space, and never inside a surrogate pair.
            if let space = units[start..<first].firstIndex(of: 0x20) { start = space + 1 }
            if start < units.count && UTF16.isTrailSurrogate(units[start]) { start += 1 }
        }
        var end = min(units.count, start + snippetLength)
        if end < units.count {
            if let space = units[max(first, start)..<end].lastIndex(of: 0x20), space > first { end = space }
            if end > 0 && end < units.count && UTF16.isLeadSurrogate(units[end - 1]) { end -= 1 }
        }
        let lead = start > 0 ? "…" : ""
        // Line breaks read as spaces (one unit for one, so the ranges stay where they are).
        var kept = Array(units[start..<end])
        for index in kept.indices where kept[index] == 0x0A { kept[index] = 0x20 }
        let normalized = String(decoding: kept, as: UTF16.self)
        let trail = end < units.count ? "…" : ""
        let shift = lead.utf16.count - start
        var matches: [MatchRange] = []
        for range in ranges where range.lowerBound >= start && range.upperBound <= end {
            matches.append(MatchRange(field: name, start: range.lowerBound + shift, length: range.count))
        }
        return MatchSnippet(field: name, text: lead + normalized + trail, matches: matches)
    }
}

extension TypoMatcher {
    /// Whether `word` (a text's word) is within `maxDistance` typos of the query word `term`;
    /// with `prefix`, whether some beginning of it is. Returns how many characters of `word`
    /// matched, or nil.
    static func distanceMatch(
        _ term: [Unicode.Scalar], _ word: [Unicode.Scalar], allowance: Allowance, prefix: Bool
    ) -> Int? {
        let maxDistance = allowance.maxDistance
        let edit = allowance.editCost
        let columns = term.count + 1
        // A whole word too much longer or shorter than the query word cannot be within reach.
        if !prefix && abs(word.count - term.count) * edit > maxDistance { return nil }
        if prefix && term.count * edit <= maxDistance { return 0 }
        // Three rows in one buffer on the stack, taking turns: the one before the previous (for
        // swaps), the previous, this one. The highlighter asks this of every word of 50 titles.
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * columns) { buffer -> Int? in
            var previous2 = 0
            var previous = columns
            var row = 2 * columns
            for column in 0..<columns { buffer[previous + column] = column * edit }
            var previousSmallest = 0
            for (depth, character) in word.enumerated() {
                buffer[row] = (depth + 1) * edit
                var smallest = buffer[row]
                for column in 1..<columns {
                    let cost = term[column - 1] == character ? 0 : edit
                    var value = min(
                        buffer[previous + column] + edit, buffer[row + column - 1] + edit,
                        buffer[previous + column - 1] + cost)
                    if depth >= 1 && column >= 2 && term[column - 1] == word[depth - 1] && term[column - 2] == character
                    {
                        value = min(value, buffer[previous2 + column - 2] + 1)
                    }
                    buffer[row + column] = value
                    smallest = min(smallest, value)
                }
                if prefix && buffer[row + columns - 1] <= maxDistance { return depth + 1 }
                if smallest > maxDistance && previousSmallest > maxDistance { return nil }
                previousSmallest = smallest
                (previous2, previous, row) = (previous, row, previous2)
            }
            return !prefix && buffer[previous + columns - 1] <= maxDistance ? word.count : nil
        }
    }
}
