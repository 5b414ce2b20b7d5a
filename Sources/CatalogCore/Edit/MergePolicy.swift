import CatalogStorage

/// Which segments ``SegmentMerger`` merges: segments fall into size classes by powers of
/// ``factor`` of their live records, and as soon as one class holds ``factor`` segments they
/// become one segment of the next class (Lucene's log merge policy). So a catalog has at most
/// `factor - 1` segments per class besides its base, a search visits a few segments, and each
/// record is rewritten about once per class it climbs, so merging costs a small constant per
/// changed record. Segments whose records are all gone are dropped first.
///
/// A cap on the number of segments (the smallest merged beyond six) was measured and dropped: on
/// a million records it rewrote 3.3 million records over 10,000 single edits (330 per edit,
/// against 6 for the size classes alone), while a search over ten small segments costs about what
/// one over a single merged one does (chunk bitmaps only as long as their segment).
///
/// The base segment (what the last import wrote) is not merged here: its deletions stay
/// marked until the next import writes the catalog anew.
enum MergePolicy {
    /// Segments per size class before they merge.
    static let factor = 4

    /// The size class of a segment with `live` records.
    static func level(_ live: Int) -> Int {
        var level = 0
        var size = max(1, live)
        while size >= factor {
            size /= factor
            level += 1
        }
        return level
    }

    /// The segments to merge next (those without live records: to drop), nil when none.
    ///
    /// - Parameters:
    ///   - segments: the catalog's segments, the base first.
    ///   - compact: all but the base into one (``SegmentMerger/compact(catalog:in:temporaryDirectory:)``).
    static func next(_ segments: [SegmentInfo], compact: Bool = false) -> Set<Int64>? {
        let others = segments.filter { !$0.isBase }
        let empty = others.filter { $0.live == 0 }
        if !empty.isEmpty { return Set(empty.map(\.number)) }
        if compact { return others.count > 1 ? Set(others.map(\.number)) : nil }
        let byLevel = Dictionary(grouping: others, by: { level($0.live) })
        guard let (_, full) = byLevel.filter({ $0.value.count >= factor }).min(by: { $0.key < $1.key }) else {
            return nil
        }
        return Set(full.map(\.number))
    }
}
