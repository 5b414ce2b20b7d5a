/// How a change sequence hears of new changes once it has caught up.
///
/// ```swift
/// var options = ChangeFeedOptions()
/// options.transport = .events()                     // the default: a live stream
/// options.transport = .polling(every: .seconds(5))  // or ask again every 5 seconds
/// ```
///
/// - ``events(idleTimeout:pollingEvery:)`` keeps one Server-Sent Events stream open (the
///   feed's URL with `Accept: text/event-stream`): a change arrives as soon as the server has
///   made it, and a dropped stream is opened again with `Last-Event-ID`, the last change
///   delivered. A server that does not stream is polled instead.
/// - ``polling(every:)`` asks `GET …/changes?since=N` again every interval while nothing is new
///   (each answer is a page of the log, so catching up after a long time costs a few large pages,
///   not one request per change).
///
/// A sequence behaves the same on either: every change once, in order (``CatalogChanges``).
public struct ChangeFeedTransport: Sendable, Equatable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        case polling(interval: Duration)
        case events(idleTimeout: Duration, fallback: Duration)
    }

    let kind: Kind

    /// Asks for the page after the last change every `interval` while nothing is new (at least
    /// 10 ms); pages that are not the last are asked for at once.
    public static func polling(every interval: Duration = .seconds(2)) -> ChangeFeedTransport {
        ChangeFeedTransport(kind: .polling(interval: max(interval, .milliseconds(10))))
    }

    /// Follows a Server-Sent Events stream of the changes: each arrives as the server makes it.
    ///
    /// - Parameters:
    ///   - idleTimeout: how long the stream may send nothing, not even the heartbeat comment the
    ///     server sends every 15 seconds, before it counts as broken and is opened again (at
    ///     least 1 s).
    ///   - interval: the polling interval for a server that answers the stream's request with
    ///     JSON (one that does not stream); see ``polling(every:)``.
    public static func events(idleTimeout: Duration = .seconds(45), pollingEvery interval: Duration = .seconds(2))
        -> ChangeFeedTransport
    {
        ChangeFeedTransport(
            kind: .events(idleTimeout: max(idleTimeout, .seconds(1)), fallback: max(interval, .milliseconds(10))))
    }

    public var description: String {
        switch kind {
        case .polling(let interval): "polling every \(interval)"
        case .events(let idleTimeout, _): "server-sent events (broken after \(idleTimeout) of silence)"
        }
    }

    /// A connection of one sequence's iterator to the feed.
    func connect(
        to client: CatalogClient, catalog: String, pageSize: Int, pause: FeedPause, status: FeedStatusReporter
    ) -> any ChangeFeedConnection {
        switch kind {
        case .polling(let interval):
            PollingFeed(
                client: client, catalog: catalog, pageSize: pageSize, interval: interval, pause: pause, status: status)
        case .events(let idleTimeout, let fallback):
            EventStreamFeed(
                client: client, catalog: catalog, idleTimeout: idleTimeout, status: status,
                polling: PollingFeed(
                    client: client, catalog: catalog, pageSize: pageSize, interval: fallback, pause: pause,
                    status: status))
        }
    }
}

/// The seam between following a feed (``ChangeFollower``: order, resuming, retries, reloads) and
/// how the changes travel. One iterator owns one connection and calls it one call at a time.
///
/// The server's event stream (`GET …/changes` with `Accept: text/event-stream`) fits it so
/// (``EventStreamFeed``): a connection opens the stream on its first call with `Last-Event-ID: since`, answers each
/// `change` event (`id:` its number, `data:` the change as the JSON feed writes it) as a page of
/// that one change, a `reload` event (`{"change":N}`) as a page that says `reload` at N, and a
/// `deleted` event as ``CatalogClientError/Code/notFound``; when the stream drops it throws a
/// connectivity error, the follower waits and calls again with the number it delivered last, and
/// the connection opens a new stream from there.
protocol ChangeFeedConnection {
    /// The next changes after `since`, oldest first: a page with at least one change, or one that
    /// says `reload`. Waits (polls, reads a stream) as long as nothing is new; a cancelled task
    /// ends the wait with ``CatalogClientError/Code/cancelled``.
    mutating func changes(after since: Int) async throws(CatalogClientError) -> CatalogChangePage
}

/// The polling transport: `GET …/changes?since=N&limit=M`; once a page reaches the catalog's
/// current change, the next request waits for the interval first.
struct PollingFeed: ChangeFeedConnection {
    let client: CatalogClient
    let catalog: String
    let pageSize: Int
    let interval: Duration
    let pause: FeedPause
    let status: FeedStatusReporter
    /// Whether the last answer reached the current change (so asking at once would find nothing).
    private var caughtUp = false

    init(
        client: CatalogClient, catalog: String, pageSize: Int, interval: Duration, pause: FeedPause,
        status: FeedStatusReporter
    ) {
        self.status = status
        self.client = client
        self.catalog = catalog
        self.pageSize = pageSize
        self.interval = interval
        self.pause = pause
    }

    mutating func changes(after since: Int) async throws(CatalogClientError) -> CatalogChangePage {
        while true {
            if caughtUp {
                do {
                    try await pause.wait(interval)
                } catch {
                    throw CatalogClientError(.cancelled, "following the changes was cancelled")
                }
            }
            // After a failed request the follower waits on its own; the next call asks at once.
            caughtUp = false
            let page = try await client.changeLog(of: catalog, since: since, limit: pageSize)
            status.answered()
            // An empty page that claims more would ask again at once forever: wait instead.
            caughtUp = page.next == nil || page.changes.isEmpty
            if !page.changes.isEmpty || page.reload { return page }
        }
    }
}
