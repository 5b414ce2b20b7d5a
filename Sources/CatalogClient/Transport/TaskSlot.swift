import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The running URLSession task of one call, so cancellation (which may come first) reaches it.
final class TaskSlot: Sendable {
    private struct State {
        var task: URLSessionTask?
        var cancelled = false
    }

    private let state = Mutex(State())

    /// Keeps `task`; true when the call was already cancelled (the caller cancels the task).
    func hold(_ task: URLSessionTask) -> Bool {
        state.withLock { state in
            state.task = task
            return state.cancelled
        }
    }

    /// Cancels the task, now or as soon as it is held.
    func cancel() {
        let task = state.withLock { state -> URLSessionTask? in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }
}
