@testable import CatalogClient
import Synchronization

/// The waits of a change sequence, held until the test lets them pass: each wait is reported (its
/// duration, in order) and ends when the test calls ``release()``, or when the waiting task is
/// cancelled. So a test knows when the sequence is idle or backing off, and decides when time
/// has passed; it never waits for time itself.
final class PauseGate: Sendable {
    private struct State {
        var waiting: [(id: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var released = 0
        var nextID = 0
        /// Waits reported and not yet taken by ``nextWait()``.
        var reported: [Duration] = []
        var count = 0
        var reader: CheckedContinuation<Duration, Never>?
    }

    private let state = Mutex(State())

    /// The pause to give a sequence (``ChangeFeedOptions``' injected wait).
    var pause: FeedPause {
        FeedPause { [self] duration in try await wait(duration) }
    }

    /// The next wait the sequence asked for (it is held until ``release()``). One caller at a time.
    func nextWait() async -> Duration {
        await withCheckedContinuation { (continuation: CheckedContinuation<Duration, Never>) in
            let ready = state.withLock { state -> Duration? in
                guard !state.reported.isEmpty else {
                    state.reader = continuation
                    return nil
                }
                return state.reported.removeFirst()
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// How many waits the sequence has asked for so far.
    var waitsReported: Int { state.withLock { $0.count } }

    private func report(_ duration: Duration) {
        let reader = state.withLock { state -> CheckedContinuation<Duration, Never>? in
            state.count += 1
            guard let reader = state.reader else {
                state.reported.append(duration)
                return nil
            }
            state.reader = nil
            return reader
        }
        reader?.resume(returning: duration)
    }

    /// Lets the oldest held wait (or the next one, when none is held yet) pass.
    func release() {
        let first = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.released += 1
                return nil
            }
            return state.waiting.removeFirst().continuation
        }
        first?.resume()
    }

    private func wait(_ duration: Duration) async throws {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let pass = state.withLock { state -> Bool in
                    if state.released > 0 {
                        state.released -= 1
                        return true
                    }
                    state.waiting.append((id, continuation))
                    return false
                }
                report(duration)
                if pass { continuation.resume() }
            }
        } onCancel: {
            let held = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiting.remove(at: index).continuation
            }
            held?.resume()
        }
        try Task.checkCancellation()
    }
}
