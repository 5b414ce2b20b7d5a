#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Synchronization

/// A few threads of their own, with a bounded queue, for requests too costly for the event-loop
/// workers (password hashing: about 0.1 s of CPU and 64 MiB each). While such a request runs
/// here its connection is suspended, so the workers go on answering everyone else; when the
/// queue is full, new work is refused at once instead of piling up.
///
/// ```swift
/// let pool = OffloadPool(threads: 1, queueLimit: 32)
/// guard pool.submit(run: { … }, cancel: { … }) else { /* answer 503 */ }
/// pool.stop()  // cancels what waits, lets what runs finish
/// ```
final class OffloadPool: Sendable {
    struct Job: Sendable {
        let run: @Sendable () -> Void
        let cancel: @Sendable () -> Void
    }

    private struct State {
        var queue: [Job] = []
        var stopped = false
        var running = 0
    }

    private let state = Mutex(State())
    private let wakeUp = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let threads: Int
    /// Jobs that may wait (not counting those running).
    let queueLimit: Int

    /// Starts `threads` threads, each `niceness` steps below the server's priority (Linux's nice
    /// value is a thread's own, and threads a job starts inherit it).
    init(threads: Int, queueLimit: Int, name: String = "offload", niceness: Int32 = 0) {
        self.threads = max(1, threads)
        self.queueLimit = max(0, queueLimit)
        for index in 0..<self.threads {
            let thread = Thread { [self] in
                if niceness > 0 { ThreadPriority.lower(by: niceness) }
                work()
            }
            thread.name = "catalog-http-\(name)-\(index)"
            // Imports parse deeply nested files; the default 512 KiB is too little.
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Queues a job; false when the queue is full or the pool stopped (nothing will run).
    func submit(run: @escaping @Sendable () -> Void, cancel: @escaping @Sendable () -> Void) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard !state.stopped, state.queue.count < queueLimit + max(0, threads - state.running) else {
                return false
            }
            state.queue.append(Job(run: run, cancel: cancel))
            return true
        }
        if accepted { wakeUp.signal() }
        return accepted
    }

    /// Jobs waiting or running.
    var pending: Int { state.withLock { $0.queue.count + $0.running } }

    /// Refuses new jobs, cancels those waiting, and returns once the running ones are done and the
    /// threads have ended.
    func stop() {
        let cancelled = state.withLock { state -> [Job] in
            state.stopped = true
            defer { state.queue.removeAll() }
            return state.queue
        }
        for job in cancelled { job.cancel() }
        for _ in 0..<threads { wakeUp.signal() }
        for _ in 0..<threads { finished.wait() }
    }

    private func work() {
        while true {
            wakeUp.wait()
            let job = state.withLock { state -> Job?? in
                if state.queue.isEmpty { return state.stopped ? .some(nil) : nil }
                state.running += 1
                return .some(state.queue.removeFirst())
            }
            switch job {
            case .none: continue
            case .some(.none):
                finished.signal()
                return
            case .some(.some(let job)):
                job.run()
                state.withLock { $0.running -= 1 }
            }
        }
    }
}
