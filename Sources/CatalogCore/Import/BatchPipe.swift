import Foundation

/// Carries work from one thread to another in batches, so two stages of an import run on two
/// cores: reading and mapping beside indexing, building the index beside the engine's writes.
///
/// Bounded: the sender waits while `capacity` batches are pending, so memory stays flat however
/// large the input. Either side can stop the other: a sender's error is rethrown to the
/// receiver, and a receiver that stops makes the sender's next ``send(_:)`` throw
/// ``Cancelled``. A sender that succeeds ends the stream with its result (an `Ending`, what the
/// sending stage learned), which the receiver gets after the last batch.
///
/// ```swift
/// let pipe = BatchPipe<Record, Int>()
/// // sender: try pipe.send(batch) … pipe.finish(.success(count))
/// while case .batch(let records) = try pipe.receive() { … }
/// ```
public final class BatchPipe<Element: Sendable, Ending: Sendable>: @unchecked Sendable {
    // @unchecked: every stored property is read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var batches: [[Element]] = []
    private var ending: Result<Ending, any Error>?
    private var cancelled = false
    private let capacity: Int

    /// What ``send(_:)`` throws once the receiver has stopped.
    public struct Cancelled: Error {}

    /// What ``receive()`` hands over: a batch, or the end of the stream with the sender's result.
    public enum Delivery {
        /// The next batch.
        case batch([Element])
        /// No more batches; what the sender returned.
        case end(Ending)
    }

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

    /// Sender: no more batches; `result` is what the sender returned, or what stopped it.
    public func finish(_ result: Result<Ending, any Error>) {
        condition.lock()
        ending = result
        condition.broadcast()
        condition.unlock()
    }

    /// Receiver: the next batch, or the end with the sender's result; rethrows the sender's
    /// error (a sender stopped by ``cancel()`` ends the stream with ``Cancelled``).
    public func receive() throws -> Delivery {
        condition.lock()
        defer { condition.unlock() }
        while batches.isEmpty && ending == nil { condition.wait() }
        if !batches.isEmpty {
            let batch = batches.removeFirst()
            condition.broadcast()
            return .batch(batch)
        }
        return .end(try ending!.get())
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
        while case .batch? = try? receive() {}
    }
}

extension BatchPipe where Ending == Void {
    /// Sender: no more batches; `error` is what stopped the sender, if anything.
    public func finish(error: (any Error)?) {
        finish(error.map { .failure($0) } ?? .success(()))
    }
}
