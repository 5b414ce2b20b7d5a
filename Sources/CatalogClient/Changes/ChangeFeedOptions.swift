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

/// A wait of a change sequence, injected: between polls and before a retry.
struct FeedPause: Sendable {
    /// Waits `duration`; throws when the task is cancelled.
    var wait: @Sendable (_ duration: Duration) async throws -> Void

    /// The continuous clock's sleep.
    static let clock = FeedPause { duration in try await Task.sleep(for: duration) }
}
