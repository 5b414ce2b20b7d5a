import CatalogModel
import Synchronization

/// One value of a record field in a lexicon, case and accents aside: the run of value terms
/// (``IndexTermKind/fieldValue``) of its spellings.
struct FieldValueGroup: Sendable {
    /// The terms of its spellings, a run in byte order.
    var terms: Range<Int>
    /// The folded value.
    var folded: String
    /// The spelling most records have.
    var spelling: String
    /// Records with the value (the sum of its spellings' counts: a record with two spellings of
    /// one value counts twice).
    var count: Int
}

extension Lexicon {
    /// The names of the records' own fields this lexicon has terms of, in byte order.
    func fieldNames() -> [String] {
        var names: [String] = []
        withTerms(in: range(prefix: [IndexTermKind.fieldPresent.rawValue])) { _, term in
            names.append(String(decoding: term.dropFirst(), as: UTF8.self))
        }
        return names
    }

    /// Whether a record of this lexicon has `field`.
    func hasField(_ field: String) -> Bool {
        index(of: IndexTerms.fieldPrefix(.fieldPresent, field)) != nil
    }

    /// The values of `field`, each with its spellings' terms, in the byte order of the folded
    /// values; `prefix`: only the values whose folded text starts with it. The empty value
    /// (``IndexTerms/fieldTerms(_:_:)``'s term of an empty field) is left out.
    func fieldValueGroups(_ field: String, foldedPrefix prefix: String = "") -> [FieldValueGroup] {
        let start = IndexTerms.fieldPrefix(.fieldValue, field)
        var groups: [FieldValueGroup] = []
        var best = 0
        withTerms(in: range(prefix: start + Array(prefix.utf8))) { index, term in
            let rest = term[start.count...]
            guard let zero = rest.firstIndex(of: 0), zero > rest.startIndex else { return }
            let folded = rest[..<zero]
            let count = documentCount(at: index)
            if let last = groups.last, last.folded.utf8.elementsEqual(folded) {
                groups[groups.count - 1].terms = last.terms.lowerBound..<(index + 1)
                groups[groups.count - 1].count += count
                if count > best {
                    best = count
                    groups[groups.count - 1].spelling = String(decoding: rest[(zero + 1)...], as: UTF8.self)
                }
                return
            }
            best = count
            groups.append(
                FieldValueGroup(
                    terms: index..<(index + 1), folded: String(decoding: folded, as: UTF8.self),
                    spelling: String(decoding: rest[(zero + 1)...], as: UTF8.self), count: count))
        }
        return groups
    }

    /// The run of `kind`'s terms (``IndexTermKind/fieldNumber`` or ``IndexTermKind/fieldDate``)
    /// of `field` between two values, each end included or not; nil for an open end.
    func fieldOrderedTerms(
        _ kind: IndexTermKind, _ field: String, from lower: (value: Double, included: Bool)?,
        to upper: (value: Double, included: Bool)?
    ) -> Range<Int> {
        let all = range(prefix: IndexTerms.fieldPrefix(kind, field))
        var low = all.lowerBound
        var high = all.upperBound
        if let lower {
            let key = IndexTerms.fieldOrdered(kind, field, lower.value)
            low = Swift.max(low, firstIndex(notBefore: key))
            if !lower.included, low < high, term(at: low).elementsEqual(key) { low += 1 }
        }
        if let upper {
            let key = IndexTerms.fieldOrdered(kind, field, upper.value)
            high = Swift.min(high, firstIndex(notBefore: key))
            if upper.included, high < all.upperBound, term(at: high).elementsEqual(key) { high += 1 }
        }
        return low < high ? low..<high : low..<low
    }

    /// The smallest and largest value of `field`'s terms of `kind` (numbers or dates), and the
    /// records that have one (a record with several counts once per value).
    private func orderedStatistics(_ kind: IndexTermKind, _ field: String) -> (Int, ClosedRange<Double>?) {
        let terms = range(prefix: IndexTerms.fieldPrefix(kind, field))
        guard !terms.isEmpty else { return (0, nil) }
        let count = terms.reduce(0) { $0 + documentCount(at: $1) }
        guard let low = FieldValueOrder.value(sortable: term(at: terms.lowerBound).suffix(8)),
            let high = FieldValueOrder.value(sortable: term(at: terms.upperBound - 1).suffix(8))
        else { return (count, nil) }
        return (count, low...high)
    }

    /// What this lexicon knows of each of the records' own fields, by name.
    func fieldStatistics() -> [String: FieldStatistics] {
        var statistics: [String: FieldStatistics] = [:]
        for name in fieldNames() {
            guard let present = index(of: IndexTerms.fieldPrefix(.fieldPresent, name)) else { continue }
            var field = FieldStatistics(records: documentCount(at: present))
            if let empty = index(of: IndexTerms.fieldPrefix(.fieldValue, name) + [0]) {
                field.emptyRecords = documentCount(at: empty)
            }
            let groups = fieldValueGroups(name)
            field.distinctValues = groups.count
            field.valueCounts = FieldStatistics.mostCommon(
                Dictionary(groups.map { ($0.folded, $0.count) }, uniquingKeysWith: +))
            (field.numberRecords, field.numbers) = orderedStatistics(.fieldNumber, name)
            (field.dateRecords, field.dates) = orderedStatistics(.fieldDate, name)
            statistics[name] = field
        }
        return statistics
    }
}

extension CatalogSearchIndex {
    /// The ``CatalogSearcher/maxFacetValues`` values of `field` most records have (whose folded
    /// text starts with `prefix`), in the byte order of their folded text: worked out once per
    /// index, field and prefix and kept in the shared caches, since a field of many values has
    /// as many terms to read.
    func topFieldValues(_ field: String, foldedPrefix prefix: String) -> [FieldValueGroup] {
        let key = SearchCaches.FacetKey(index: cacheID, field: field, prefix: prefix)
        if let known = SearchCaches.shared.facets.withLock({ $0.value(for: key, cost: Self.bytes(of:)) }) {
            return known
        }
        var groups = lexicon.fieldValueGroups(field, foldedPrefix: prefix)
        if groups.count > CatalogSearcher.maxFacetValues {
            // The most frequent values; ties in value order.
            groups = groups.enumerated().sorted {
                $0.element.count != $1.element.count ? $0.element.count > $1.element.count : $0.offset < $1.offset
            }
            .prefix(CatalogSearcher.maxFacetValues).map(\.element).sorted { $0.terms.lowerBound < $1.terms.lowerBound }
        }
        SearchCaches.shared.facets.withLock { $0.insert(groups, for: key, cost: Self.bytes(of: groups)) }
        return groups
    }

    /// What a list of values costs the cache (an estimate).
    static func bytes(of groups: [FieldValueGroup]) -> Int {
        groups.reduce(0) { $0 + 48 + $1.folded.utf8.count + $1.spelling.utf8.count }
    }
}
