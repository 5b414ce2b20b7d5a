import CCurl
import Synchronization

/// Stops a download from another thread: ``cancel()`` sets a flag the transfer checks in every
/// callback and between polls, and wakes the transfer's poll at once.
final class DownloadControl: Sendable {
    /// A multi handle that another thread may wake.
    private struct Waker: @unchecked Sendable {
        // @unchecked: the only call made on it from another thread is curl_multi_wakeup, which
        // libcurl documents as safe from any thread, and only while the polling thread has it
        // registered (before curl_multi_cleanup).
        var multi: UnsafeMutableRawPointer
    }

    private struct State {
        var cancelled = false
        /// The multi handle polling now, if any.
        var polling: Waker?
    }

    private let state = Mutex(State())
    /// Asked between polls too (at most a second apart): the caller's own reason to stop, such
    /// as a server that is shutting down.
    private let stopRequested: @Sendable () -> Bool

    init(isCancelled: @escaping @Sendable () -> Bool = { false }) {
        stopRequested = isCancelled
    }

    /// Whether ``cancel()`` was called, or the caller asked to stop.
    var isCancelled: Bool { state.withLock { $0.cancelled } || stopRequested() }

    /// Stops the download as soon as possible.
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            if let waker = state.polling { _ = curl_multi_wakeup(waker.multi) }
        }
    }

    /// Runs `body` with `multi` registered for wake-ups; it is forgotten before this returns, so
    /// ``cancel()`` never touches a handle after it is cleaned up.
    func polling<T>(_ multi: UnsafeMutableRawPointer, _ body: () -> T) -> T {
        let waker = Waker(multi: multi)
        state.withLock { $0.polling = waker }
        defer { state.withLock { $0.polling = nil } }
        return body()
    }
}
