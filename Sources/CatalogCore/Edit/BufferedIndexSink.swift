import CatalogStorage

/// What a builder wrote, kept in memory and written later into an engine's segment in the same
/// order: a merge builds its segment from a consistent read without the write lock
/// (``SegmentMerger``), then writes it in a short transaction.
///
/// It takes order entries too, so the builder writes them; ``replay(into:)`` passes them on only
/// to a sink that keeps them.
final class BufferedIndexSink: CatalogIndexSink {
    private enum Write {
        case item(IndexedItem)
        case postingChunk([UInt8], term: UInt32, chunk: Int)
        case blob([UInt8], name: String)
        case order(OrderEntry)
        case category(OrderEntry, Int)
        case id(String, document: Int, hash: UInt64)
    }

    private var writes: [Write] = []

    var wantsOrderEntries: Bool { true }

    func write(item: IndexedItem) throws { writes.append(.item(item)) }

    func write(postingChunk: [UInt8], term: UInt32, chunk: Int) throws {
        writes.append(.postingChunk(postingChunk, term: term, chunk: chunk))
    }

    func write(blob: [UInt8], named name: String) throws { writes.append(.blob(blob, name: name)) }

    func write(orderEntry: OrderEntry) throws { writes.append(.order(orderEntry)) }

    func write(categoryEntry: OrderEntry, category: Int) throws { writes.append(.category(categoryEntry, category)) }

    func write(idEntry id: String, document: Int, hash: UInt64) throws {
        writes.append(.id(id, document: document, hash: hash))
    }

    /// Writes everything it took into `sink`, in the order it came.
    func replay(into sink: any CatalogIndexSink) throws {
        let orderEntries = sink.wantsOrderEntries
        for write in writes {
            switch write {
            case .item(let item): try sink.write(item: item)
            case .postingChunk(let bytes, let term, let chunk):
                try sink.write(postingChunk: bytes, term: term, chunk: chunk)
            case .blob(let bytes, let name): try sink.write(blob: bytes, named: name)
            case .order(let entry): if orderEntries { try sink.write(orderEntry: entry) }
            case .category(let entry, let category):
                if orderEntries { try sink.write(categoryEntry: entry, category: category) }
            case .id(let id, let document, let hash):
                if orderEntries { try sink.write(idEntry: id, document: document, hash: hash) }
            }
        }
    }
}
