import CatalogModel
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Server-Sent Events transport: `GET …/changes` with `Accept: text/event-stream` and
/// `Last-Event-ID: N`, kept open across calls while the follower asks for what comes after the
/// last change it answered. A `change` event is a page of that change (changes that came in one
/// chunk are one page), a `reload` event a page that says reload, a `deleted` event
/// ``CatalogClientError/Code/notFound``. A stream that ends or breaks throws a connectivity error
/// (the follower waits and asks again, and a new stream opens after the last change delivered).
/// A server that answers with JSON instead of a stream (one that does not stream) is polled from
/// then on.
struct EventStreamFeed: ChangeFeedConnection {
    let client: CatalogClient
    let catalog: String
    let idleTimeout: Duration
    let status: FeedStatusReporter
    /// The polling to fall back to.
    var polling: PollingFeed
    /// Whether the server answered with JSON: it is polled.
    private var pollingOnly = false
    private var stream: EventStreamRequest?
    /// The number of the last change the open stream answered (or it was opened after).
    private var position = 0
    /// Events that arrived and are not answered yet.
    private var queued: [ServerSentEvent] = []
    /// The reconnection time the last stream asked for, in milliseconds.
    private var reconnectionTime: Int?

    init(
        client: CatalogClient, catalog: String, idleTimeout: Duration, status: FeedStatusReporter,
        polling: PollingFeed
    ) {
        self.status = status
        self.client = client
        self.catalog = catalog
        self.idleTimeout = idleTimeout
        self.polling = polling
    }

    mutating func changes(after since: Int) async throws(CatalogClientError) -> CatalogChangePage {
        if pollingOnly { return try await polling.changes(after: since) }
        if stream == nil || position != since {
            close()
            guard try await open(after: since) else {
                pollingOnly = true
                return try await polling.changes(after: since)
            }
        }
        guard let stream else { throw CatalogClientError(.transport, "the change stream is not open") }
        while true {
            if let page = try page() { return page }
            switch try await next(of: stream) {
            case .events(let events): queued += events
            case .response: continue
            case .ended(let failure, _):
                close()
                throw failure
                    ?? CatalogClientError(
                        .transport, "the server closed the change stream of \"\(catalog)\"",
                        // A `retry:` of a second or more is waited at least.
                        retryAfter: reconnectionTime.flatMap { $0 >= 1000 ? min($0 / 1000, 3600) : nil })
            }
        }
    }

    /// The page the queued events make: the `change` events at its front (nil when there is none),
    /// or the reload at its front.
    ///
    /// - Throws: `.notFound` for a `deleted` event, `.decoding` for an event that does not read.
    private mutating func page() throws(CatalogClientError) -> CatalogChangePage? {
        var changes: [CatalogChange] = []
        events: while let event = queued.first {
            switch event.type {
            case "change", "reload":
                let read = try Self.read(event)
                guard let change = read.change else {
                    // A reload without a log entry is a page of its own.
                    if !changes.isEmpty { break events }
                    queued.removeFirst()
                    position = read.reload
                    return CatalogChangePage(change: read.reload, changes: [], next: nil, reload: true)
                }
                queued.removeFirst()
                changes.append(change)
            case "deleted":
                close()
                queued = []
                throw CatalogClientError(.notFound, "catalog \"\(catalog)\" was deleted")
            default:
                // A kind of event this library does not know.
                queued.removeFirst()
            }
        }
        guard let last = changes.last else { return nil }
        position = last.number
        return CatalogChangePage(change: last.number, changes: changes, next: nil, reload: false)
    }

    /// What a `change` or `reload` event holds: a change of the log, or (for a reload without a
    /// log entry, `{"change":N}`) the number to reload at.
    private static func read(_ event: ServerSentEvent) throws(CatalogClientError) -> (
        change: CatalogChange?, reload: Int
    ) {
        let data = Data(event.data.utf8)
        do {
            if event.type == "reload", let mark = try? JSONDecoder().decode(ReloadMark.self, from: data) {
                return (nil, mark.change)
            }
            let change = try CatalogJSONDecoder().decode(CatalogChange.self, from: data)
            return (change, change.number)
        } catch {
            throw CatalogClientError.decoding(error, url: nil)
        }
    }

    /// `{"change":N}`.
    private struct ReloadMark: Decodable {
        var change: Int
    }

    /// Opens a stream of the changes after `since`; false when the server answered JSON.
    ///
    /// - Throws: the error a non-200 answer stands for, or the transport's.
    private mutating func open(after since: Int) async throws(CatalogClientError) -> Bool {
        let url = client.url(
            ["api", "v1", "catalogs", try CatalogClient.segment(catalog), "changes"], query: [("since", String(since))])
        var request = client.request("GET", url)
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        request.setValue(String(since), forHTTPHeaderField: "Last-Event-ID")
        request.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
        // The stream's silence is watched by the request itself; Foundation's own limits would
        // end a quiet stream that is fine.
        request.timeoutInterval = 7 * 24 * 3600
        let configuration = client.session.configuration.copy() as? URLSessionConfiguration ?? .default
        configuration.timeoutIntervalForRequest = request.timeoutInterval
        configuration.timeoutIntervalForResource = request.timeoutInterval
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let stream = EventStreamRequest(request, configuration: configuration, idleTimeout: idleTimeout)
        self.stream = stream
        position = since
        queued = []
        var answered = (status: 0, headers: [String: String]())
        while true {
            switch try await next(of: stream) {
            case .response(let status, let headers) where status == 200:
                guard headers["content-type"]?.lowercased().hasPrefix("text/event-stream") == true else {
                    close()
                    return false
                }
                self.status.answered()
                return true
            case .response(let status, let headers):
                answered = (status, headers)
            case .events:
                self.status.answered()
                return true
            case .ended(let failure, let body):
                close()
                if let failure { throw failure }
                guard answered.status != 0 else {
                    throw CatalogClientError(.transport, "the server closed the change stream before answering")
                }
                throw client.failure(
                    HTTPAnswer(status: answered.status, body: body, headers: answered.headers), url: url)
            }
        }
    }

    /// What `stream` says next; the stream is closed when it fails.
    private mutating func next(of stream: EventStreamRequest) async throws(CatalogClientError)
        -> EventStreamRequest.Signal
    {
        do {
            return try await stream.next()
        } catch {
            close()
            throw error
        }
    }

    private mutating func close() {
        if let stream { reconnectionTime = stream.reconnectionTime ?? reconnectionTime }
        stream?.close()
        stream = nil
    }
}
