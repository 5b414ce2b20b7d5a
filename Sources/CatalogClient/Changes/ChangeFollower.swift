/// What a change sequence does next, as a value-type state machine without I/O: the iterator
/// asks ``nextAction()`` and reports what the feed answered (``received(_:)``) or how asking it
/// failed (``failed(_:)``).
///
/// It keeps the promise of ``CatalogChanges``: every change is delivered once, in order. Pages
/// may overlap what was delivered (a transport that resumes from a little earlier, a page read
/// again after a dropped connection): entries at or below the last delivered number are dropped.
/// A page that says `reload` with no entries (the log does not reach back) becomes one reload
/// change at the catalog's current number, and following goes on from there. A failure of the
/// network or a busy server is waited out (doubling waits, from the first retry delay up to the
/// most) and asking resumes after the last delivered number; any other failure ends the sequence
/// with that error.
struct ChangeFollower: Sendable {
    /// What to do next.
    enum Action: Equatable, Sendable {
        /// Hand this change to the consumer.
        case deliver(CatalogChange)
        /// Ask the feed for the changes after this number.
        case fetch(after: Int)
        /// Wait this long before asking again (after a failure).
        case wait(Duration)
        /// End the sequence: with this error, or (nil) because it was cancelled.
        case finish(CatalogClientError?)
    }

    private enum Phase: Equatable, Sendable {
        case ready
        case backingOff(Duration)
        case failed(CatalogClientError)
        case finished
    }

    /// The number of the last change delivered (at first, the number the sequence started after).
    private(set) var last: Int
    /// The failure being waited out, while the follower backs off.
    private(set) var lastFailure: CatalogClientError?
    private var pending: [CatalogChange] = []
    private var position = 0
    private var phase = Phase.ready
    private let firstRetryDelay: Duration
    private let maxRetryDelay: Duration
    private var retryDelay: Duration

    /// A follower of the changes after `since`.
    init(since: Int, retryDelay: Duration, maxRetryDelay: Duration) {
        last = since
        firstRetryDelay = retryDelay
        self.maxRetryDelay = Swift.max(retryDelay, maxRetryDelay)
        self.retryDelay = retryDelay
    }

    /// What to do now.
    mutating func nextAction() -> Action {
        if position < pending.count {
            let change = pending[position]
            position += 1
            last = change.number
            if position == pending.count {
                pending = []
                position = 0
            }
            return .deliver(change)
        }
        switch phase {
        case .ready:
            return .fetch(after: last)
        case .backingOff(let delay):
            phase = .ready
            return .wait(delay)
        case .failed(let error):
            phase = .finished
            return .finish(error)
        case .finished:
            return .finish(nil)
        }
    }

    /// The feed answered `page` for the changes after ``last``.
    mutating func received(_ page: CatalogChangePage) {
        retryDelay = firstRetryDelay
        lastFailure = nil
        var fresh: [CatalogChange] = []
        var newest = last
        for change in page.changes where change.number > newest {
            fresh.append(change)
            newest = change.number
        }
        if fresh.isEmpty && page.reload && page.change != last {
            fresh = [CatalogChange(number: page.change, kind: .reload)]
        }
        pending.append(contentsOf: fresh)
    }

    /// Asking the feed failed.
    mutating func failed(_ error: CatalogClientError) {
        guard phase != .finished else { return }
        switch error.code {
        case .cancelled:
            phase = .finished
        case .offline, .timedOut, .transport, .unavailable, .server, .tooManyRequests:
            var delay = retryDelay
            if let seconds = error.retryAfter, seconds > 0 {
                delay = Swift.max(delay, .seconds(seconds))
            }
            phase = .backingOff(delay)
            lastFailure = error
            retryDelay = Swift.min(retryDelay * 2, maxRetryDelay)
        default:
            phase = .failed(error)
        }
    }

    /// The consumer's task was cancelled: nothing more is delivered.
    mutating func cancel() {
        pending = []
        position = 0
        phase = .finished
    }
}
