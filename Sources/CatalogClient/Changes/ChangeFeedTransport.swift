/// How a change sequence hears of new changes once it has caught up.
///
/// ```swift
/// var options = ChangeFeedOptions()
/// options.transport = .polling(every: .seconds(5))
/// ```
///
/// Today the one transport asks `GET …/changes?since=N` again every interval while nothing is
/// new (each answer is a page of the log, so catching up after a long time costs a few large
/// pages, not one request per change). A Server-Sent Events transport (the same URL with
/// `Accept: text/event-stream`, resumed with `Last-Event-ID`) will join it as another value
/// of this type; a sequence behaves the same on either.
public struct ChangeFeedTransport: Sendable, Equatable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        case polling(interval: Duration)
    }

    let kind: Kind

    /// Asks for the page after the last change every `interval` while nothing is new (at least
    /// 10 ms); pages that are not the last are asked for at once.
    public static func polling(every interval: Duration = .seconds(2)) -> ChangeFeedTransport {
        ChangeFeedTransport(kind: .polling(interval: max(interval, .milliseconds(10))))
    }

    public var description: String {
        switch kind {
        case .polling(let interval): "polling every \(interval)"
        }
    }

    /// A connection of one sequence's iterator to the feed.
    func connect(to client: CatalogClient, catalog: String, pageSize: Int, pause: FeedPause)
        -> any ChangeFeedConnection
    {
        switch kind {
        case .polling(let interval):
            PollingFeed(client: client, catalog: catalog, pageSize: pageSize, interval: interval, pause: pause)
        }
    }
}

/// The seam between following a feed (``ChangeFollower``: order, resuming, retries, reloads) and
/// how the changes travel. One iterator owns one connection and calls it one call at a time.
///
/// The server's event stream (`GET …/changes` with `Accept: text/event-stream`) fits it as is: a
/// connection opens the stream on its first call with `Last-Event-ID: since`, answers each
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
    /// Whether the last answer reached the current change (so asking at once would find nothing).
    private var caughtUp = false

    init(client: CatalogClient, catalog: String, pageSize: Int, interval: Duration, pause: FeedPause) {
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
            // An empty page that claims more would ask again at once forever: wait instead.
            caughtUp = page.next == nil || page.changes.isEmpty
            if !page.changes.isEmpty || page.reload { return page }
        }
    }
}
