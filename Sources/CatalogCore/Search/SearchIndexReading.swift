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
    /// This index's key in the shared caches (``SearchCaches``), never reused.
    let cacheID = SearchCaches.shared.newIndexID()
    private var caches: SearchCaches { SearchCaches.shared }

    /// An index of at most this many documents (a segment a few changes left) keeps nothing in
    /// the shared caches of words and sets: its words' terms and sets are worked out each search,
    /// in less time than a cache lookup and insert take, and they would push the large indexes'
    /// entries out.
    static let uncachedDocuments = 64
    /// Whether this index uses the shared caches of words and sets (``uncachedDocuments``).
    private var sharesCaches: Bool { count > Self.uncachedDocuments }

    /// Several terms' posting chunks of one chunk number, in no particular order (terms without
    /// documents there left out), from the cache or, the missing ones together, from the engine
    /// (``SearchIndexReading/postingChunks(terms:chunk:)``: one round trip where that costs).
    func postingChunks(terms: [UInt32], chunk: Int, reader: any SearchIndexReading) throws -> [[UInt8]] {
        var result: [[UInt8]] = []
        result.reserveCapacity(terms.count)
        var missing: [UInt32] = []
        caches.chunks.withLock { cache in
            for term in terms {
                if let hit = cache.value(for: key(term, chunk), cost: { $0.count }) {
                    if !hit.isEmpty { result.append(hit) }
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
        caches.chunks.withLock { cache in
            for term in missing {
                let bytes = read[term] ?? []
                cache.insert(bytes, for: key(term, chunk), cost: bytes.count)
            }
        }
        result.append(contentsOf: read.values)
        return result
    }

    private func key(_ term: UInt32, _ chunk: Int) -> SearchCaches.ChunkKey {
        SearchCaches.ChunkKey(index: cacheID, term: term, chunk: UInt32(chunk))
    }

    /// The terms a folded query word matches in this index with `typos`, worked out once (each
    /// time in an index too small to share the caches).
    func wordTerms(_ word: String, isLast: Bool, typos: TypoMatcher.Allowance?) -> WordTerms {
        guard sharesCaches else {
            return WordTerms(word: word, isLast: isLast, typos: typos, lexicon: lexicon, infix: infix)
        }
        let key = wordKey(word, isLast: isLast, typos: typos)
        if let known = caches.words.withLock({ $0.value(for: key, cost: \.bytes) }) { return known }
        // The word as it was typed, if an earlier search left its terms: one keystroke before,
        // or (a word no longer the last) the same word while it was. Its typo walks hold every
        // candidate of this word's.
        var typed: (word: String, terms: WordTerms)?
        if typos != nil, !word.isEmpty {
            let before = isLast ? String(String.UnicodeScalarView(word.unicodeScalars.dropLast())) : word
            let earlier = wordKey(before, isLast: true, typos: typos)
            typed = caches.words.withLock({ $0.value(for: earlier, cost: \.bytes) }).map { (before, $0) }
        }
        let terms = WordTerms(word: word, isLast: isLast, typos: typos, lexicon: lexicon, infix: infix, typed: typed)
        caches.words.withLock { $0.insert(terms, for: key, cost: terms.bytes) }
        return terms
    }

    /// A query word's key in the shared caches: its typos are part of it, so a change of a
    /// catalog's typo rules finds none of the terms the old rules gave.
    func wordKey(_ word: String, isLast: Bool, typos: TypoMatcher.Allowance?) -> SearchCaches.WordKey {
        SearchCaches.WordKey(index: cacheID, word: word, isLast: isLast, typos: typos)
    }

    /// A set's chunk bitmap made by an earlier search, if it is still kept.
    func setBitmap(_ set: SearchCaches.SetKey.Set, chunk: Int) -> ChunkBitmap? {
        guard sharesCaches else { return nil }
        let key = SearchCaches.SetKey(index: cacheID, set: set, chunk: chunk)
        return caches.sets.withLock { $0.value(for: key, cost: \.byteCount) }
    }

    /// Keeps a set's chunk bitmap for later searches.
    func remember(_ bitmap: ChunkBitmap, for set: SearchCaches.SetKey.Set, chunk: Int) {
        guard sharesCaches else { return }
        let key = SearchCaches.SetKey(index: cacheID, set: set, chunk: chunk)
        caches.sets.withLock { $0.insert(bitmap, for: key, cost: bitmap.byteCount) }
    }

    private struct LazyAttributes {
        var browseOrder: [UInt32]?
        var prices: PriceColumn?
        var priceOrder: IndexBytes.Numbers?
    }

    /// Where this index keeps its large parts (``IndexFiles``); nil: on the heap.
    private let files: IndexFiles?

    /// Loads the index of the catalog `reader` reads, its lexicon and columns kept in mapped
    /// files of `files` (nil: on the heap).
    public init(reader: any SearchIndexReading, files: IndexFiles? = nil) throws {
        self.files = files
        guard let ranks = try reader.blob(named: DocumentAttributes.ranksBlob),
            let lexiconBytes = try Self.load(SearchBlobs.lexicon, reader, files)
        else {
            lexicon = Lexicon()
            infix = InfixIndex()
            attributes = try DocumentAttributes(ranks: [0, 0, 0, 0, 0, 0, 0, 0])
            return
        }
        let lexicon = try Lexicon(bytes: lexiconBytes)
        self.lexicon = lexicon
        infix =
            try reader.blob(named: SearchBlobs.infix).map { try InfixIndex(serialized: $0, lexicon: lexicon) }
            ?? InfixIndex()
        attributes = try DocumentAttributes(ranks: ranks)
    }

    /// The blob `name` of the index `reader` reads: in a mapped file of `files` when there are
    /// files, else on the heap.
    private static func load(_ name: String, _ reader: any SearchIndexReading, _ files: IndexFiles?) throws
        -> IndexBytes?
    {
        let fill = { (write: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool in
            try reader.readBlob(named: name, into: write)
        }
        guard let files else { return try IndexFiles.heap(fill) }
        return try files.load(fill)
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
    func prices(_ reader: any SearchIndexReading) throws -> PriceColumn {
        if let loaded = lazy.withLock({ $0.prices }) { return loaded }
        let prices = try DocumentAttributes.prices(
            Self.load(DocumentAttributes.pricesBlob, reader, files), count: count)
        lazy.withLock { $0.prices = prices }
        return prices
    }

    /// The documents of `chunk` (of `size` documents) whose price lies between the bounds (each
    /// included or not; NaN, no price, in no range): the one evaluation of a price range, for
    /// `price=` and `price` conditions alike. Built a word at a time and kept in the shared
    /// caches, since a person keeps a range while typing query after query.
    func priceBitmap(
        chunk: Int, size: Int, lower: Double, lowerIncluded: Bool, upper: Double, upperIncluded: Bool,
        _ reader: any SearchIndexReading
    ) throws -> ChunkBitmap {
        let set = SearchCaches.SetKey.Set.filter(
            "price\0\(lower.bitPattern)\0\(lowerIncluded)\0\(upper.bitPattern)\0\(upperIncluded)")
        if let kept = setBitmap(set, chunk: chunk) { return kept }
        let prices = try self.prices(reader)
        let first = chunk << PostingChunk.shift
        let count = max(0, min(size, prices.count - first))
        var bitmap = ChunkBitmap()
        bitmap.reserveWords((count + 63) / 64)
        prices.withUnsafeBufferPointer { prices in
            bitmap.withWords { words in
                for wordIndex in 0..<((count + 63) / 64) {
                    var word: UInt64 = 0
                    let start = wordIndex * 64
                    for bit in 0..<min(64, count - start) {
                        let price = prices[first + start + bit]
                        let passes =
                            (lowerIncluded ? price >= lower : price > lower)
                            && (upperIncluded ? price <= upper : price < upper)
                        if passes { word |= 1 << UInt64(bit) }
                    }
                    words[wordIndex] = word
                }
            }
        }
        remember(bitmap, for: set, chunk: chunk)
        return bitmap
    }

    /// Documents by price (then index order, those without a price last), read where the blob
    /// lies (``IndexFiles``) and loaded on first use; nil for an index built without one.
    func priceOrder(_ reader: any SearchIndexReading) throws -> IndexBytes.Numbers? {
        if let loaded = lazy.withLock({ $0.priceOrder }) { return loaded }
        guard let bytes = try Self.load(DocumentAttributes.priceOrderBlob, reader, files) else { return nil }
        let order = try DocumentAttributes.documents(bytes, count: count)
        lazy.withLock { $0.priceOrder = order }
        return order
    }
}
