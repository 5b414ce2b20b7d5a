import Foundation
import Synchronization

/// Work done on a thread of its own once when started, then every `interval` seconds, until
/// stopped: the change log's pruning (``HistoryPruner``), the audit log's (``AuditLog``).
final class PeriodicTask: Sendable {
    private let name: String
    private let interval: TimeInterval
    private let work: @Sendable () -> Void
    private let condition = NSCondition()
    private let state = Mutex((started: false, stopped: false))
    private let finished = DispatchSemaphore(value: 0)

    /// A task doing `work` every `interval` seconds on a thread named `name`.
    init(name: String, interval: TimeInterval, work: @escaping @Sendable () -> Void) {
        self.name = name
        self.interval = interval
        self.work = work
    }

    /// Starts the thread (once).
    func start() {
        guard
            state.withLock({ state in
                defer { state.started = true }
                return !state.started && !state.stopped
            })
        else { return }
        let thread = Thread { [self] in
            while !state.withLock({ $0.stopped }) {
                work()
                condition.lock()
                if !state.withLock({ $0.stopped }) {
                    _ = condition.wait(until: Date(timeIntervalSinceNow: interval))
                }
                condition.unlock()
            }
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Stops the thread and waits for it (when it was started).
    func stop() {
        condition.lock()
        let started = state.withLock { state in
            defer { state.stopped = true }
            return state.started && !state.stopped
        }
        condition.signal()
        condition.unlock()
        if started { finished.wait() }
    }
}
