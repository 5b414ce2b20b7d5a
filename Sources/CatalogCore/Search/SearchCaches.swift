import Synchronization

/// What searches keep for later searches, shared by every loaded index of the process under one
/// budget: a server with many catalogs, or a catalog of many segments, holds no more than one
/// with a single segment. Each entry is keyed by its index's ``CatalogSearchIndex/cacheID``
/// (never reused), so an index that is replaced leaves its entries to age out unread.
///
/// - Posting chunks as the engine stored them: as-you-type queries keep asking for the chunks of
///   the same short prefixes.
/// - The terms of query words (``WordTerms``): a word typed once is looked up again with every
///   later keystroke of the query.
/// - The documents of sets of terms, chunk by chunk, decoded (``TermSet``): the union of a
///   word's thousand terms is made once, not once per keystroke, and a category's documents
///   once, not once per scope count of every search.
final class SearchCaches: Sendable {
    /// The process's caches.
    static let shared = SearchCaches()

    /// One term's posting chunk in one index.
    struct ChunkKey: Hashable {
        var index: UInt64
        var term: UInt32
        var chunk: UInt32

        /// One word hashed, not three: a search looks up thousands of these.
        func hash(into hasher: inout Hasher) {
            hasher.combine(index << 48 ^ UInt64(chunk) << 32 ^ UInt64(term))
        }
    }

    /// A query word in one index, as ``CatalogSearchIndex/wordTerms(_:isLast:typos:)`` keeps it.
    struct WordKey: Hashable {
        var index: UInt64
        var word: String
        var isLast: Bool
        var typos: TypoMatcher.Allowance?
    }

    /// One chunk of a set of terms in one index: one term's (a category, a country, a short
    /// prefix), or one set of a query word's terms.
    struct SetKey: Hashable {
        enum Set: Hashable {
            case term(Int)
            case word(WordKey, kind: UInt8)
            /// The terms of a filter's condition (``FieldFilter``), by the lexicon's term
            /// indexes it unites.
            case filter(String)
        }
        var index: UInt64
        var set: Set
        var chunk: Int
    }

    /// A field's most common values in one index, whose folded text starts with `prefix`
    /// (``CatalogSearchIndex/topFieldValues(_:foldedPrefix:)``).
    struct FacetKey: Hashable {
        var index: UInt64
        var field: String
        var prefix: String
    }

    /// A sort's column of one key, or its whole order, in one index (``SortColumn``).
    struct SortKey: Hashable {
        var index: UInt64
        var name: String
    }

    /// What the sorts cache keeps.
    enum SortEntry {
        case column(SortColumn)
        case order([UInt32])

        var bytes: Int {
            switch self {
            case .column(let column): column.bytes
            case .order(let documents): 4 * documents.count
            }
        }
    }

    /// The budgets, in bytes: 32 MB for searches, 2 MB of facet values, 48 MB for sorts by fields
    /// and prices (a column of 1,000,000 records takes about 8 MB, an order 4 MB).
    enum Budget {
        static let chunks = 16 << 20
        static let words = 4 << 20
        static let sets = 12 << 20
        static let facets = 2 << 20
        static let sorts = 48 << 20
    }

    let chunks = Mutex(GenerationCache<ChunkKey, [UInt8]>(budget: Budget.chunks))
    let words = Mutex(GenerationCache<WordKey, WordTerms>(budget: Budget.words))
    let sets = Mutex(GenerationCache<SetKey, ChunkBitmap>(budget: Budget.sets))
    let facets = Mutex(GenerationCache<FacetKey, [FieldValueGroup]>(budget: Budget.facets))
    let sorts = Mutex(GenerationCache<SortKey, SortEntry>(budget: Budget.sorts))

    private let nextID = Atomic<UInt64>(1)

    /// A new index's key in the caches.
    func newIndexID() -> UInt64 {
        nextID.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// The three caches' usage, for metrics and the benchmarks' memory breakdown.
    var usage: [SearchCacheUsage] {
        func usage<K, V>(_ name: String, _ cache: borrowing Mutex<GenerationCache<K, V>>) -> SearchCacheUsage {
            cache.withLock {
                SearchCacheUsage(
                    name: name, entries: $0.count, bytes: $0.bytes, budget: $0.budget, hits: $0.hits,
                    misses: $0.misses)
            }
        }
        return [usage("postings", chunks), usage("words", words), usage("sets", sets), usage("sorts", sorts)]
    }
}

extension CatalogSearchIndex {
    /// What the search caches every index shares hold (``SearchCaches``): posting chunks, query
    /// words' terms and decoded sets, with their hits and misses since the process started.
    public static var cacheUsage: [SearchCacheUsage] { SearchCaches.shared.usage }
}

/// What one of the search caches holds and how often it answered (``CatalogSearchIndex/cacheUsage``).
public struct SearchCacheUsage: Sendable, Equatable {
    /// The cache's name: `postings`, `words`, `sets` or `sorts`.
    public var name: String
    /// The entries it keeps.
    public var entries: Int
    /// The bytes they take (an estimate that errs high).
    public var bytes: Int
    /// The most bytes it keeps.
    public var budget: Int
    /// Lookups that found their value since the process started.
    public var hits: Int
    /// Lookups that did not.
    public var misses: Int
}
