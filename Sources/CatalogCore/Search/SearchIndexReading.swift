import CatalogModel
import CatalogStorage
import Synchronization

/// One catalog's search index as loaded from its engine: the lexicon and the attributes a
/// search needs, shared by every search of that catalog generation.
public final class CatalogSearchIndex: Sendable {
    /// The lexicon.
    public let lexicon: Lexicon
    /// Title words by the runs they contain.
    public let infix: InfixIndex
    /// Title lengths by document.
    public let attributes: DocumentAttributes
    /// The number of documents.
    public var count: Int { attributes.count }
    private let lazy = Mutex<LazyAttributes>(LazyAttributes())
    /// Posting chunks read before, shared by every search of this version: as-you-type queries
    /// keep asking for the chunks of the same short prefixes.
    private let chunks = Mutex(GenerationCache<UInt64, [UInt8]>(budget: 16 << 20))
    /// The terms of query words (``WordTerms``): a word typed once is looked up again with every
    /// later keystroke of the query.
    private let words = Mutex(GenerationCache<WordKey, WordTerms>(budget: 4 << 20))
    /// The documents of sets of terms, chunk by chunk (``TermSet``), decoded: the union of a
    /// word's thousand terms is made once, not once per keystroke, and a category's documents
    /// once, not once per scope count of every search.
    private let sets = Mutex(GenerationCache<SetKey, ChunkBitmap>(budget: 16 << 20))

    /// A query word as ``wordTerms(_:isLast:)`` keeps it.
    struct WordKey: Hashable {
        var word: String
        var isLast: Bool
    }

    /// One chunk of a set of terms: one term's (a category, a country, a short prefix), or one
    /// set of a query word's terms.
    struct SetKey: Hashable {
        enum Set: Hashable {
            case term(Int)
            case word(WordKey, kind: UInt8)
        }
        var set: Set
        var chunk: Int
    }

    /// Several terms' posting chunks of one chunk number (terms without documents there left
    /// out), from the cache or, the missing ones together, from the engine
    /// (``SearchIndexReading/postingChunks(terms:chunk:)``: one round trip where that costs).
    func postingChunks(terms: [UInt32], chunk: Int, reader: any SearchIndexReading) throws -> [UInt32: [UInt8]] {
        var result: [UInt32: [UInt8]] = [:]
        var missing: [UInt32] = []
        chunks.withLock { cache in
            for term in terms {
                if let hit = cache.value(for: Self.key(term, chunk), cost: \.count) {
                    if !hit.isEmpty { result[term] = hit }
                } else {
                    missing.append(term)
                }
            }
        }
        guard !missing.isEmpty else { return result }
        let read =
            missing.count == 1
            ? (try reader.postingChunk(term: missing[0], chunk: chunk)).map { [missing[0]: $0] } ?? [:]
            : try reader.postingChunks(terms: missing, chunk: chunk)
        chunks.withLock { cache in
            for term in missing {
                let bytes = read[term] ?? []
                cache.insert(bytes, for: Self.key(term, chunk), cost: bytes.count)
            }
        }
        result.merge(read) { first, _ in first }
        return result
    }

    private static func key(_ term: UInt32, _ chunk: Int) -> UInt64 {
        UInt64(term) << 16 | UInt64(chunk)
    }

    /// The terms a folded query word matches in this index, worked out once.
    func wordTerms(_ word: String, isLast: Bool) -> WordTerms {
        let key = WordKey(word: word, isLast: isLast)
        if let known = words.withLock({ $0.value(for: key, cost: \.bytes) }) { return known }
        let terms = WordTerms(word: word, isLast: isLast, lexicon: lexicon, infix: infix)
        words.withLock { $0.insert(terms, for: key, cost: terms.bytes) }
        return terms
    }

    /// A word set's chunk bitmap made by an earlier search, if it is still kept.
    func setBitmap(_ key: SetKey) -> ChunkBitmap? {
        sets.withLock { $0.value(for: key, cost: \.byteCount) }
    }

    /// Keeps a word set's chunk bitmap for later searches.
    func remember(_ bitmap: ChunkBitmap, for key: SetKey) {
        sets.withLock { $0.insert(bitmap, for: key, cost: bitmap.byteCount) }
    }

    private struct LazyAttributes {
        var browseOrder: [UInt32]?
        var prices: [Double]?
        var priceOrder: [UInt32]?
    }

    /// Loads the index of the catalog `reader` reads.
    public init(reader: any SearchIndexReading) throws {
        guard let lexiconBytes = try reader.blob(named: SearchBlobs.lexicon),
            let ranks = try reader.blob(named: DocumentAttributes.ranksBlob)
        else {
            lexicon = Lexicon()
            infix = InfixIndex()
            attributes = try DocumentAttributes(ranks: [0, 0, 0, 0, 0, 0, 0, 0])
            return
        }
        let lexicon = try Lexicon(serialized: lexiconBytes)
        self.lexicon = lexicon
        infix =
            try reader.blob(named: SearchBlobs.infix).map { try InfixIndex(serialized: $0, lexicon: lexicon) }
            ?? InfixIndex()
        attributes = try DocumentAttributes(ranks: ranks)
    }

    /// Documents in index order, loaded on first use.
    func browseOrder(_ reader: any SearchIndexReading) throws -> [UInt32] {
        if let loaded = lazy.withLock({ $0.browseOrder }) { return loaded }
        let bytes = try reader.blob(named: DocumentAttributes.browseOrderBlob) ?? []
        let order = try DocumentAttributes.documents(bytes, count: count)
        lazy.withLock { $0.browseOrder = order }
        return order
    }

    /// Prices by document, loaded on first use.
    func prices(_ reader: any SearchIndexReading) throws -> [Double] {
        if let loaded = lazy.withLock({ $0.prices }) { return loaded }
        let bytes = try reader.blob(named: DocumentAttributes.pricesBlob) ?? []
        let prices = try DocumentAttributes.prices(bytes, count: count)
        lazy.withLock { $0.prices = prices }
        return prices
    }

    /// Documents by price, loaded on first use.
    func priceOrder(_ reader: any SearchIndexReading) throws -> [UInt32] {
        if let loaded = lazy.withLock({ $0.priceOrder }) { return loaded }
        let bytes = try reader.blob(named: DocumentAttributes.priceOrderBlob) ?? []
        let order = try DocumentAttributes.documents(bytes, count: count)
        lazy.withLock { $0.priceOrder = order }
        return order
    }
}
