import CatalogStorage

/// Per-document facts a search needs without reading records, each stored as its own blob so
/// a search loads only what it uses:
///
/// - `ranks`: where each title length starts in search order (documents are numbered by title
///   length first, so "titles exactly as long as the query" is a range of document numbers);
/// - `browse_order`: the documents in index order (section, collation key, id), for results
///   sorted by title;
/// - `prices`: each document's price (NaN for none), for price filters;
/// - `price_order`: the documents by price (then index order; no price last), for results sorted
///   by price.
public struct DocumentAttributes: Sendable {
    /// Rank length boundaries: `(length, first document)` for every length that occurs, ascending.
    public var lengthStarts: [(length: Int, first: Int)]
    /// The number of documents.
    public var count: Int
    /// Documents in index order (loaded on demand).
    public var browseOrder: [UInt32]?
    /// Prices by document (loaded on demand).
    public var prices: [Double]?
    /// Documents by price (loaded on demand).
    public var priceOrder: [UInt32]?

    /// Blob names.
    public static let ranksBlob = "ranks"
    public static let browseOrderBlob = "browse_order"
    public static let pricesBlob = "prices"
    public static let priceOrderBlob = "price_order"

    init(rankLengths: [UInt16], browseOrder: [UInt32], prices: [Double]) {
        var starts: [(Int, Int)] = []
        for (document, length) in rankLengths.enumerated() where starts.last?.0 != Int(length) {
            starts.append((Int(length), document))
        }
        lengthStarts = starts
        count = rankLengths.count
        self.browseOrder = browseOrder
        self.prices = prices
        let withPrice = prices.indices.filter { !prices[$0].isNaN }
        var browsePosition = [UInt32](repeating: 0, count: browseOrder.count)
        for (position, document) in browseOrder.enumerated() { browsePosition[Int(document)] = UInt32(position) }
        let sorted = withPrice.sorted { a, b in
            prices[a] != prices[b] ? prices[a] < prices[b] : browsePosition[a] < browsePosition[b]
        }
        let withoutPrice = browseOrder.filter { prices[Int($0)].isNaN }
        priceOrder = sorted.map { UInt32($0) } + withoutPrice
    }

    /// The stored blobs.
    func serialized() -> [(String, [UInt8])] {
        var ranks: [UInt8] = []
        BinaryWriter.append(UInt32(count), to: &ranks)
        BinaryWriter.append(UInt32(lengthStarts.count), to: &ranks)
        for (length, first) in lengthStarts {
            BinaryWriter.append(UInt32(length), to: &ranks)
            BinaryWriter.append(UInt32(first), to: &ranks)
        }
        var result: [(String, [UInt8])] = [(Self.ranksBlob, ranks)]
        var browse: [UInt8] = []
        BinaryWriter.append(browseOrder ?? [], to: &browse)
        result.append((Self.browseOrderBlob, browse))
        var prices: [UInt8] = []
        prices.reserveCapacity(8 * count)
        for price in self.prices ?? [] { BinaryWriter.append(price.bitPattern, to: &prices) }
        result.append((Self.pricesBlob, prices))
        var order: [UInt8] = []
        BinaryWriter.append(priceOrder ?? [], to: &order)
        result.append((Self.priceOrderBlob, order))
        return result
    }

    /// Reads the `ranks` blob; the other attributes load later with ``load(_:from:)``.
    public init(ranks bytes: [UInt8]) throws(StorageError) {
        var reader = BinaryReader(bytes)
        guard let count = reader.uint32(), let entries = reader.uint32() else {
            throw StorageError(.engine, "the search index is damaged")
        }
        var starts: [(Int, Int)] = []
        for _ in 0..<entries {
            guard let length = reader.uint32(), let first = reader.uint32(), first <= count else {
                throw StorageError(.engine, "the search index is damaged")
            }
            starts.append((Int(length), Int(first)))
        }
        guard reader.isAtEnd else { throw StorageError(.engine, "the search index is damaged") }
        lengthStarts = starts
        self.count = Int(count)
    }

    /// The first document whose title is longer than `length` characters.
    public func firstDocument(longerThan length: Int) -> Int {
        for (start, first) in lengthStarts where start > length { return first }
        return count
    }

    /// The rank length of a document (the title length it was numbered by).
    public func length(of document: Int) -> Int {
        var low = 0
        var high = lengthStarts.count
        while low < high {
            let middle = (low + high) / 2
            if lengthStarts[middle].first <= document { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? lengthStarts[low - 1].length : 0
    }

    /// The first document whose title is at least `length` characters long.
    public func firstDocument(atLeast length: Int) -> Int {
        for (start, first) in lengthStarts where start >= length { return first }
        return count
    }

    /// Decodes a document-order blob of 32-bit document numbers, checking each.
    static func documents(_ bytes: [UInt8], count: Int) throws(StorageError) -> [UInt32] {
        var reader = BinaryReader(bytes)
        guard let values = reader.uint32s(count), reader.isAtEnd, values.allSatisfy({ Int($0) < count }) else {
            throw StorageError(.engine, "the search index is damaged")
        }
        return values
    }

    /// A blob of `count` documents (the price order), read where it lies and checked once, so a
    /// damaged blob cannot make a sort index past the columns.
    static func documents(_ bytes: IndexBytes, count: Int) throws(StorageError) -> IndexBytes.Numbers {
        guard bytes.count == 4 * count else { throw StorageError(.engine, "the search index is damaged") }
        let documents = IndexBytes.Numbers(bytes, at: 0, count: count)
        for document in documents where Int(document) >= count {
            throw StorageError(.engine, "the search index is damaged")
        }
        return documents
    }

    /// The prices blob, read where it lies: `count` prices (a missing blob is damage).
    static func prices(_ bytes: IndexBytes?, count: Int) throws(StorageError) -> PriceColumn {
        guard let bytes, bytes.count == 8 * count else {
            throw StorageError(.engine, "the search index is damaged")
        }
        return PriceColumn(bytes: bytes)
    }
}

/// Each document's price (NaN for none), read where the prices blob lies (on the heap or in a
/// mapped file: ``IndexFiles``).
struct PriceColumn: Sendable {
    let bytes: IndexBytes

    /// The number of documents.
    var count: Int { bytes.count / 8 }

    /// Calls `body` with the prices, by document.
    func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<Double>) throws -> Result) rethrows -> Result {
        #if _endian(little)
            // The blob is 8-byte aligned (a mapped file starts a page, a heap copy is aligned to 16)
            // and holds IEEE doubles in little-endian order: the host's own.
            return try bytes.withBytes(0..<bytes.count) { raw in
                try UnsafeRawBufferPointer(raw).withMemoryRebound(to: Double.self) { try body($0) }
            }
        #else
            let prices = (0..<count).map { Double(bitPattern: bytes.uint64(at: 8 * $0)) }
            return try prices.withUnsafeBufferPointer(body)
        #endif
    }
}
