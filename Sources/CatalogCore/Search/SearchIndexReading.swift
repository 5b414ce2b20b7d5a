import CatalogModel
import CatalogStorage
import Synchronization

/// The questions a search asks an engine about one catalog: every engine answers them from
/// what ``CatalogIndexBuilder`` wrote, and ``CatalogSearcher`` does everything else, so every
/// engine (and an offline snapshot) ranks, counts and pages the same way.
///
/// Like the stores, a reader belongs to one thread at a time.
public protocol SearchIndexReading: AnyObject {
    /// One posting chunk of a term, or nil when the term has no documents in that chunk.
    func postingChunk(term: UInt32, chunk: Int) throws -> [UInt8]?
    /// A named blob of the index (``SearchBlobs``, ``DocumentAttributes``), or nil.
    func blob(named name: String) throws -> [UInt8]?
    /// The records with these document numbers, in the order given (missing ones left out).
    func hits(documents: [Int]) throws -> [StoredHit]
    /// The titles of these documents, in the order given.
    func titles(documents: [Int]) throws -> [String]
}

extension SearchIndexReading {
    /// Several posting chunks of one chunk number; engines with a round trip per query answer
    /// them together.
    public func postingChunks(terms: [UInt32], chunk: Int) throws -> [UInt32: [UInt8]] {
        var result: [UInt32: [UInt8]] = [:]
        for term in terms {
            if let bytes = try postingChunk(term: term, chunk: chunk) { result[term] = bytes }
        }
        return result
    }
}

/// A record as stored: its JSON as the API serves it, and the fields a result list shows.
public struct StoredHit: Sendable, Equatable {
    /// The document number.
    public var document: Int
    /// The record's id.
    public var id: String
    /// The record's JSON (``Record`` written by ``JSONOutput``).
    public var json: [UInt8]
    /// The title, subtitle and categories, for highlights.
    public var title: String
    public var subtitle: String?
    public var categories: [String]

    /// Creates a stored hit.
    public init(document: Int, id: String, json: [UInt8], title: String, subtitle: String?, categories: [String]) {
        self.document = document
        self.id = id
        self.json = json
        self.title = title
        self.subtitle = subtitle
        self.categories = categories
    }

    /// The record, decoded from its JSON.
    public func record() throws -> Record {
        try StoredRecord.decode(json)
    }
}

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
