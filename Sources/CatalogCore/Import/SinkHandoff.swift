import CatalogStorage
import Foundation

/// A ``CatalogIndexSink`` that hands every write to another thread: the index builder writes
/// into it on its own thread, and ``apply(to:isCancelled:)`` performs the writes on the engine's
/// sink on the thread that owns the engine's connection.
final class SinkHandoff: CatalogIndexSink, @unchecked Sendable {
    // @unchecked: `batch` belongs to the sending thread; the pipe synchronizes the rest.
    private let pipe = BatchPipe<IndexWrite, Void>(capacity: 8)
    private var batch: [IndexWrite] = []
    let wantsOrderEntries: Bool

    private static let batchSize = 512

    init(wantsOrderEntries: Bool) {
        self.wantsOrderEntries = wantsOrderEntries
        batch.reserveCapacity(Self.batchSize)
    }

    func write(item: IndexedItem) throws { try add(.item(item)) }
    func write(postingChunk: [UInt8], term: UInt32, chunk: Int) throws {
        try add(.postingChunk(postingChunk, term: term, chunk: chunk))
    }
    func write(blob: [UInt8], named name: String) throws { try add(.blob(blob, name: name)) }
    func write(orderEntry: OrderEntry) throws { try add(.order(orderEntry)) }
    func write(categoryEntry: OrderEntry, category: Int) throws {
        try add(.category(categoryEntry, category: category))
    }
    func write(idEntry id: String, document: Int, hash: UInt64) throws {
        try add(.id(id, document: document, hash: hash))
    }

    private func add(_ write: IndexWrite) throws {
        batch.append(write)
        if batch.count == Self.batchSize { try flush() }
    }

    private func flush() throws {
        guard !batch.isEmpty else { return }
        try pipe.send(batch)
        batch.removeAll(keepingCapacity: true)
    }

    /// Sender: the build is over; `error` is what stopped it, if anything.
    func finish(error: (any Error)?) {
        if error == nil {
            do { try flush() } catch { return pipe.finish(error: error) }
        }
        pipe.finish(error: error)
    }

    /// Receiver: performs every write on `sink` until the sender finishes; rethrows its error.
    ///
    /// - Throws: what `sink` or the sender threw, or ``StorageError/Code/cancelled`` when
    ///   `isCancelled` (checked between batches) returns true.
    func apply(to sink: any CatalogIndexSink, isCancelled: () -> Bool) throws {
        while case .batch(let writes) = try pipe.receive() {
            if isCancelled() { throw StorageError(.cancelled, "the import was cancelled") }
            for write in writes { try write.perform(on: sink) }
        }
    }

    /// Receiver: stops the sender and waits until it has let go of the pipe.
    func cancelAndDrain() { pipe.cancelAndDrain() }
}

/// A value handed to another thread that the sender no longer touches until that thread is
/// done with it (the caller waits), which the compiler cannot see.
struct UncheckedTransfer<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

extension Result {
    /// The error, if this is a failure.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
