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
