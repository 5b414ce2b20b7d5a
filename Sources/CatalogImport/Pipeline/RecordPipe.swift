import CatalogModel
import Foundation

/// Carries records from a reading thread to the importing thread in batches, so parsing and
/// mapping (one core) overlap with staging into SQLite (the other core).
///
/// Bounded: the reader waits when `capacity` batches are pending, so memory stays flat however
/// large the input. Either side can stop the other: a reader error is rethrown to the consumer,
/// and a consumer that stops makes the reader's next `send` throw.
final class RecordPipe: @unchecked Sendable {
    // @unchecked: every stored property is read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var batches: [[Record]] = []
    private var finished = false
    private var failure: (any Error)?
    private var cancelled = false
    private let capacity: Int

    struct Cancelled: Error {}

    init(capacity: Int = 8) {
        self.capacity = capacity
    }

    /// Reader side: hands over a batch, waiting while the pipe is full.
    func send(_ batch: [Record]) throws {
        condition.lock()
        defer { condition.unlock() }
        while batches.count >= capacity && !cancelled { condition.wait() }
        if cancelled { throw Cancelled() }
        batches.append(batch)
        condition.broadcast()
    }

    /// Reader side: no more batches; `error` is what stopped the reader, if anything.
    func finish(error: (any Error)?) {
        condition.lock()
        finished = true
        if let error, !(error is Cancelled) { failure = error }
        condition.broadcast()
        condition.unlock()
    }

    /// Consumer side: the next batch, nil at the end; rethrows the reader's error.
    func receive() throws -> [Record]? {
        condition.lock()
        defer { condition.unlock() }
        while batches.isEmpty && !finished { condition.wait() }
        if !batches.isEmpty {
            let batch = batches.removeFirst()
            condition.broadcast()
            return batch
        }
        if let failure { throw failure }
        return nil
    }

    /// Consumer side: stop the reader (after a failure while importing).
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
