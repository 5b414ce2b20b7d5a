import Synchronization

/// How ``CatalogClient/changes(of:since:options:)`` follows a catalog's change feed.
///
/// ```swift
/// var options = ChangeFeedOptions()
/// options.transport = .polling(every: .seconds(10))
/// let changes = client.changes(of: "cookbook", since: 0, options: options)
/// ```
public struct ChangeFeedOptions: Sendable, Equatable {
    /// How new changes are heard of once the sequence has caught up: by default a Server-Sent
    /// Events stream (``ChangeFeedTransport/events(idleTimeout:pollingEvery:)``), polling every
    /// 2 seconds a server that does not stream.
    public var transport: ChangeFeedTransport = .events()
    /// Changes per request, 1 to `CatalogLimits.maxPageSize` (500).
    public var pageSize = CatalogLimits.maxPageSize
    /// The first wait after a failure of the network or a busy server; each failure in a row
    /// doubles it, up to ``maxRetryDelay``. A `Retry-After` of the server's is waited at least.
    public var retryDelay: Duration = .milliseconds(500)
    /// The longest wait between two attempts.
    public var maxRetryDelay: Duration = .seconds(30)

    /// Called when the sequence starts to hear of changes (the stream opened, a poll was
    /// answered) and when it loses the server and waits to try again, each time the state turns.
    /// Runs on the iterating task: keep it short. An app shows "live" or "reconnecting" with it.
    ///
    /// ```swift
    /// options.onStatus = { status in
    ///     if case .retrying(let error) = status { print("reconnecting:", error.message) }
    /// }
    /// ```
    public var onStatus: (@Sendable (ChangeFeedStatus) -> Void)?

    /// How the sequence waits: the continuous clock's sleep (tests give one that waits for their
    /// own events instead, so they never wait for time).
    var pause = FeedPause.clock

    /// The defaults.
    public init() {}

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.transport == rhs.transport && lhs.pageSize == rhs.pageSize && lhs.retryDelay == rhs.retryDelay
            && lhs.maxRetryDelay == rhs.maxRetryDelay
    }
}

/// Whether a change sequence hears of changes now (``ChangeFeedOptions/onStatus``).
public enum ChangeFeedStatus: Sendable, Hashable {
    /// The feed answers: the stream is open, or polls are answered.
    case live
    /// Asking the feed failed for want of a network or a server: the sequence waits and tries
    /// again (from the last change delivered).
    case retrying(CatalogClientError)
}

/// Reports a sequence's ``ChangeFeedStatus`` to ``ChangeFeedOptions/onStatus``, only when it
/// turns.
final class FeedStatusReporter: Sendable {
    private let report: (@Sendable (ChangeFeedStatus) -> Void)?
    private let live = Mutex<Bool?>(nil)

    init(_ report: (@Sendable (ChangeFeedStatus) -> Void)?) {
        self.report = report
    }

    /// The feed answered.
    func answered() {
        guard let report,
            live.withLock({ state in
                defer { state = true }; return state != true
            })
        else { return }
        report(.live)
    }

    /// The feed could not be reached; the sequence waits.
    func retrying(_ error: CatalogClientError) {
        guard let report else { return }
        live.withLock { $0 = false }
        report(.retrying(error))
    }
}

/// A wait of a change sequence, injected: between polls and before a retry.
struct FeedPause: Sendable {
    /// Waits `duration`; throws when the task is cancelled.
    var wait: @Sendable (_ duration: Duration) async throws -> Void

    /// The continuous clock's sleep.
    static let clock = FeedPause { duration in try await Task.sleep(for: duration) }
}
