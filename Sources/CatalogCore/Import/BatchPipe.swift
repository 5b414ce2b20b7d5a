import Foundation

/// Carries work from one thread to another in batches, so two stages of an import run on two
/// cores: reading and mapping beside indexing, building the index beside the engine's writes.
///
/// Bounded: the sender waits while `capacity` batches are pending, so memory stays flat however
/// large the input. Either side can stop the other: a sender's error is rethrown to the
/// receiver, and a receiver that stops makes the sender's next ``send(_:)`` throw
/// ``Cancelled``.
public final class BatchPipe<Element: Sendable>: @unchecked Sendable {
    // @unchecked: every stored property is read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var batches: [[Element]] = []
    private var finished = false
    private var failure: (any Error)?
    private var cancelled = false
    private let capacity: Int

    /// What ``send(_:)`` throws once the receiver has stopped.
    public struct Cancelled: Error {}

    /// Creates a pipe holding at most `capacity` batches.
    public init(capacity: Int = 8) {
        self.capacity = capacity
    }

    /// Sender: hands over a batch, waiting while the pipe is full.
    public func send(_ batch: [Element]) throws {
        condition.lock()
        defer { condition.unlock() }
        while batches.count >= capacity && !cancelled { condition.wait() }
        if cancelled { throw Cancelled() }
        batches.append(batch)
        condition.broadcast()
    }

    /// Sender: no more batches; `error` is what stopped the sender, if anything.
    public func finish(error: (any Error)?) {
        condition.lock()
        finished = true
        if let error, !(error is Cancelled) { failure = error }
        condition.broadcast()
        condition.unlock()
    }

    /// Receiver: the next batch, nil at the end; rethrows the sender's error.
    public func receive() throws -> [Element]? {
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

    /// Receiver: stop the sender (after a failure on this side).
    public func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// Receiver: stops the sender and waits until it has finished, dropping what it sent.
    public func cancelAndDrain() {
        cancel()
        while (try? receive()) != nil {}
    }
}
