/// A catalog's changes after a change number, as an `AsyncSequence` that pages through the change
/// log and then keeps following it (``CatalogClient/changes(of:since:options:)``).
///
/// ```swift
/// for try await change in client.changes(of: "cookbook", since: 120) {
///     print(change.number, change.kind, change.id ?? "")
/// }
/// ```
///
/// - Every change arrives once, in order of its number, whatever the network does: a request
///   that fails for want of a network, or because the server is down or busy, is tried again
///   (waits doubling, ``ChangeFeedOptions/retryDelay`` up to ``ChangeFeedOptions/maxRetryDelay``)
///   from the last number delivered. To go on later, start a new sequence after the last
///   number you handled.
/// - A ``CatalogChange/Kind/reload`` says to read the catalog again; the sequence goes on after
///   it.
/// - The sequence ends when the iterating task is cancelled (or the loop is left), and throws
///   ``CatalogClientError`` for a failure that waiting will not mend (`.notFound` for a catalog
///   that does not exist, `.badRequest`, `.decoding`).
public struct CatalogChanges: AsyncSequence, Sendable {
    public typealias Element = CatalogChange
    public typealias Failure = CatalogClientError

    let client: CatalogClient
    /// The catalog's id.
    public let catalog: String
    /// The change number the sequence starts after.
    public let since: Int
    /// How it follows the feed.
    public let options: ChangeFeedOptions

    init(client: CatalogClient, catalog: String, since: Int, options: ChangeFeedOptions) {
        self.client = client
        self.catalog = catalog
        self.since = since
        self.options = options
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(changes: self)
    }

    /// Walks the feed.
    public struct Iterator: AsyncIteratorProtocol {
        private var follower: ChangeFollower
        private var connection: any ChangeFeedConnection
        private let pause: FeedPause
        private let status: FeedStatusReporter

        init(changes: CatalogChanges) {
            let options = changes.options
            follower = ChangeFollower(
                since: changes.since, retryDelay: options.retryDelay, maxRetryDelay: options.maxRetryDelay)
            pause = options.pause
            let status = FeedStatusReporter(options.onStatus)
            self.status = status
            connection = options.transport.connect(
                to: changes.client, catalog: changes.catalog,
                pageSize: Swift.min(CatalogLimits.maxPageSize, Swift.max(1, options.pageSize)), pause: options.pause,
                status: status)
        }

        /// The next change; nil once the iterating task is cancelled.
        ///
        /// - Throws: ``CatalogClientError`` for a failure that waiting will not mend; the
        ///   sequence ends with it.
        public mutating func next() async throws(CatalogClientError) -> CatalogChange? {
            while true {
                if Task.isCancelled { follower.cancel() }
                switch follower.nextAction() {
                case .deliver(let change):
                    return change
                case .fetch(let after):
                    do {
                        follower.received(try await connection.changes(after: after))
                    } catch {
                        follower.failed(error)
                    }
                case .wait(let delay):
                    if let error = follower.lastFailure { status.retrying(error) }
                    do {
                        try await pause.wait(delay)
                    } catch {
                        follower.cancel()
                    }
                case .finish(let error):
                    if let error { throw error }
                    return nil
                }
            }
        }
    }
}
