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
    private let chunks = Mutex<ChunkCache>(ChunkCache())

    /// Posting chunks read before, shared by every search of this version: as-you-type queries
    /// keep asking for the chunks of the same short prefixes. Bounded by bytes; when full, the
    /// older half goes.
    private struct ChunkCache {
        var current: [UInt64: [UInt8]] = [:]
        var previous: [UInt64: [UInt8]] = [:]
        var bytes = 0
        static let budget = 24 << 20
    }

    /// Several terms' posting chunks of one chunk number (terms without documents there left
    /// out), from the cache or, the missing ones together, from the engine
    /// (``SearchIndexReading/postingChunks(terms:chunk:)``: one round trip where that costs).
    func postingChunks(terms: [UInt32], chunk: Int, reader: any SearchIndexReading) throws -> [UInt32: [UInt8]] {
        var result: [UInt32: [UInt8]] = [:]
        var missing: [UInt32] = []
        chunks.withLock { cache in
            for term in terms {
                let key = Self.key(term, chunk)
                if let hit = cache.current[key] {
                    if !hit.isEmpty { result[term] = hit }
                } else if let hit = cache.previous.removeValue(forKey: key) {
                    Self.remember(hit, key, in: &cache)
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
            for term in missing { Self.remember(read[term] ?? [], Self.key(term, chunk), in: &cache) }
        }
        result.merge(read) { first, _ in first }
        return result
    }

    private static func key(_ term: UInt32, _ chunk: Int) -> UInt64 {
        UInt64(term) << 16 | UInt64(chunk)
    }

    private static func remember(_ bytes: [UInt8], _ key: UInt64, in cache: inout ChunkCache) {
        if cache.bytes + bytes.count + 16 > ChunkCache.budget / 2 {
            cache.previous = cache.current
            cache.current = [:]
            cache.bytes = 0
        }
        cache.current[key] = bytes
        cache.bytes += bytes.count + 16
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
