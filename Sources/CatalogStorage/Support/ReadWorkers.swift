import Foundation
import Synchronization

/// Threads of a database's own that run blocking reads for `async` callers: a read steps C
/// statements and waits on the disk or the network, so it never runs on Swift's cooperative
/// threads (GRDB's `DatabasePool` keeps its readers on queues of its own for the same reason).
///
/// Threads start when jobs wait and none is idle, up to `threads`, and stay until ``close()``;
/// each keeps whatever the database makes per thread (its connection, in a ``WorkerLocal``).
///
/// ```swift
/// let workers = ReadWorkers(name: "sqlite.read", threads: 4)
/// let count = try await workers.run { try countRows() }
/// workers.close()
/// ```
public final class ReadWorkers: Sendable {
    private typealias Job = @Sendable () -> Void

    private struct State: Sendable {
        var jobs: [Job] = []
        var threads = 0
        var idle = 0
        var closed = false
    }

    /// The threads' name, for debuggers (the system keeps 15 bytes of it).
    public let name: String
    /// The most threads that run at once.
    public let limit: Int
    private let state = Mutex(State())
    /// Signalled once per queued job and once per thread at ``close()``.
    private let wake = DispatchSemaphore(value: 0)

    /// Creates the pool; no thread starts before the first job.
    public init(name: String, threads: Int) {
        self.name = name
        limit = max(1, threads)
    }

    /// A pool as large as the machine has cores, with at least two threads.
    public convenience init(name: String) {
        self.init(name: name, threads: max(2, ProcessInfo.processInfo.activeProcessorCount))
    }

    /// Runs `body` on one of the threads and returns what it returns.
    ///
    /// - Throws: what `body` throws; ``StorageError`` `.engine` once the pool is closed.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let queued = enqueue { continuation.resume(with: Result { try body() }) }
            if !queued { continuation.resume(throwing: StorageError(.engine, "the database is closed")) }
        }
    }

    /// Stops the threads once they finish what is queued. Later jobs fail.
    public func close() {
        let threads = state.withLock { state in
            state.closed = true
            return state.threads
        }
        for _ in 0..<threads { wake.signal() }
    }

    private func enqueue(_ job: @escaping Job) -> Bool {
        let start = state.withLock { state -> Bool? in
            guard !state.closed else { return nil }
            state.jobs.append(job)
            guard state.jobs.count > state.idle, state.threads < limit else { return false }
            state.threads += 1
            return true
        }
        guard let start else { return false }
        if start {
            let thread = Thread { [self] in
                // Named from the thread itself: a name set before the start does not reach the
                // system on every platform (Linux threads otherwise keep their creator's).
                Thread.current.name = name
                work()
            }
            thread.name = name
            thread.stackSize = 4 << 20
            thread.start()
        }
        wake.signal()
        return true
    }

    /// A thread's loop: one job per signal, until the pool is closed and nothing is queued.
    private func work() {
        while true {
            state.withLock { $0.idle += 1 }
            wake.wait()
            let (job, exit) = state.withLock { state -> (Job?, Bool) in
                state.idle -= 1
                guard state.jobs.isEmpty else { return (state.jobs.removeFirst(), false) }
                if state.closed { state.threads -= 1 }
                return (nil, state.closed)
            }
            if exit { return }
            job?()
        }
    }
}
