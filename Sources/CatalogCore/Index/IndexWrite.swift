import CatalogStorage

/// One write of an index build (``CatalogIndexSink``), kept to be performed on the engine's
/// sink later: handed to the thread that owns the connection during an import
/// (``SinkHandoff``), or held in memory while a merge is built outside the write lock
/// (``BufferedIndexSink``).
enum IndexWrite: Sendable {
    case item(IndexedItem)
    case postingChunk([UInt8], term: UInt32, chunk: Int)
    case blob([UInt8], name: String)
    case order(OrderEntry)
    case category(OrderEntry, category: Int)
    case id(String, document: Int, hash: UInt64)

    /// Whether it is one of the entries only a sink that ``CatalogIndexSink/wantsOrderEntries``
    /// takes: the index order, the category lists and the ids.
    var isOrderEntry: Bool {
        switch self {
        case .order, .category, .id: true
        case .item, .postingChunk, .blob: false
        }
    }

    /// Performs the write on `sink`.
    func perform(on sink: any CatalogIndexSink) throws {
        switch self {
        case .item(let item): try sink.write(item: item)
        case .postingChunk(let bytes, let term, let chunk):
            try sink.write(postingChunk: bytes, term: term, chunk: chunk)
        case .blob(let bytes, let name): try sink.write(blob: bytes, named: name)
        case .order(let entry): try sink.write(orderEntry: entry)
        case .category(let entry, let category): try sink.write(categoryEntry: entry, category: category)
        case .id(let id, let document, let hash): try sink.write(idEntry: id, document: document, hash: hash)
        }
    }
}
