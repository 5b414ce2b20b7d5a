import CatalogStorage

/// What a builder wrote, kept in memory and written later into an engine's segment in the same
/// order: a merge builds its segment from a consistent read without the write lock
/// (``SegmentMerger``), then writes it in a short transaction.
///
/// It takes order entries too, so the builder writes them; ``replay(into:)`` passes them on only
/// to a sink that keeps them.
final class BufferedIndexSink: CatalogIndexSink {
    private var writes: [IndexWrite] = []

    var wantsOrderEntries: Bool { true }

    func write(item: IndexedItem) throws { writes.append(.item(item)) }

    func write(postingChunk: [UInt8], term: UInt32, chunk: Int) throws {
        writes.append(.postingChunk(postingChunk, term: term, chunk: chunk))
    }

    func write(blob: [UInt8], named name: String) throws { writes.append(.blob(blob, name: name)) }

    func write(orderEntry: OrderEntry) throws { writes.append(.order(orderEntry)) }

    func write(categoryEntry: OrderEntry, category: Int) throws {
        writes.append(.category(categoryEntry, category: category))
    }

    func write(idEntry id: String, document: Int, hash: UInt64) throws {
        writes.append(.id(id, document: document, hash: hash))
    }

    /// Writes everything it took into `sink`, in the order it came.
    func replay(into sink: any CatalogIndexSink) throws {
        let orderEntries = sink.wantsOrderEntries
        for write in writes where orderEntries || !write.isOrderEntry { try write.perform(on: sink) }
    }
}
