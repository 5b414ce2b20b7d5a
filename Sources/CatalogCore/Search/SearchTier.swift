import CatalogModel

/// How search ranks: the one place the order of results is decided.
///
/// Every query word must match a record, in its title or in any other field. The words match
/// title words anywhere inside them from the first letter (the original app's substring
/// search), words of the other fields (subtitle, description, categories, extra fields, the id)
/// from their start, and, from five letters on, with one typo (two from nine): an inserted,
/// missing, wrong or swapped letter. The last word is matched as a prefix of a word being typed.
///
/// A record falls into the first tier it qualifies for, and results come tier by tier:
///
/// 1. ``exactTitle``: the whole title is the query (`"Guinea"` for "guinea"), or the whole value
///    of another field is (a translation, an alternate name, an untranslated name: records'
///    own fields, values of up to ``FieldValueOrder/maxValueBytes`` bytes), or the record's id is
///    (`0041` in a list of characters);
/// 2. ``titleStart``: the title starts with the query;
/// 3. ``wholeWords``: every query word is a whole word of the title;
/// 4. ``wordStarts``: every query word starts a word of the title;
/// 5. ``wholeWordsAnywhere``: every query word is a whole word of the title or another field
///    (an exact word anywhere beats an infix or a typo in the title);
/// 6. ``insideWords``: every query word occurs inside a word of the title;
/// 7. ``otherFields``: some word matches only another field, none with a typo;
/// 8. ``synonyms``: some word matches only through a synonym (``SearchSettings/synonyms``);
/// 9. ``titleOneTypo``: every query word matches the title, some with one typo and none with more;
/// 10. ``titleTypos``: every query word matches the title, some with two typos;
/// 11. ``anyTypos``: the rest: some word matches another field with a typo.
///
/// So a synonym comes after every word as typed, every match through a typo after every match
/// without one, and fewer typos first.
///
/// A catalog whose searchable fields name fields in order of weight (``SearchSettings/weight(of:)``)
/// splits the two tiers that other fields decide, ``wholeWordsAnywhere`` and ``otherFields``, by
/// weight: first the records each of whose words matches the title or a field of weight 1, then
/// weight 2 or better, and so on, then the rest (fields only `*` names). These are the
/// ``RankStep``s a search walks; without weights they are the tiers.
///
/// Within a tier, shorter titles come first, then the locale's collation order, then the id:
/// the order documents are numbered in (``CatalogIndexBuilder``), so each tier is walked in
/// document order and a page stops as soon as it is full. A catalog with a ranking field
/// (``SearchSettings/rankingField``, such as `-population`) orders each tier by it first (records
/// without it after those with it), walking the field's order kept per segment
/// (``CatalogSearchIndex/rankingOrder(_:_:order:)``). The same query always gives the same order.
///
/// When a letter is added to the query, the records that match without a typo are a subset of
/// the previous ones (a longer run occurs in fewer words, a longer prefix starts fewer), so
/// totals never jump up while typing; only typo matches, which need five letters, can join.
public enum SearchTier: Int, CaseIterable, Sendable, Comparable {
    case exactTitle, titleStart, wholeWords, wordStarts, wholeWordsAnywhere, insideWords, otherFields, synonyms
    case titleOneTypo, titleTypos, anyTypos

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One step of rank order: a tier, or the part of a tier whose words all match the title or a
/// field of at most `weight` (``SearchTier``). Results come step by step, and cursors name steps
/// by their place in ``steps(weights:)``.
struct RankStep: Sendable, Equatable {
    var tier: SearchTier
    /// The heaviest field weight the step's words may match in (nil: any field).
    var weight: Int?

    /// The steps of a catalog whose named fields take `weights` weights (0: the tiers).
    static func steps(weights: Int) -> [RankStep] {
        SearchTier.allCases.flatMap { tier -> [RankStep] in
            let split = weights > 0 && (tier == .wholeWordsAnywhere || tier == .otherFields)
            return (split ? (1...weights).map { RankStep(tier: tier, weight: $0) } : [])
                + [RankStep(tier: tier, weight: nil)]
        }
    }

    /// The most steps any catalog has: a cursor naming a step beyond is no cursor.
    static let maxCount = steps(weights: SearchSettings.maxFieldWeights).count
}
