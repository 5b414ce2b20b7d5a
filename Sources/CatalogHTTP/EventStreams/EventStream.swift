import CMicroHTTPD
import Foundation
import Synchronization

/// A Server-Sent Events stream (`text/event-stream`): a handler makes one, hands it to whatever
/// produces the events, and returns it as its response; the server sends what is queued, without
/// holding a worker thread while the stream is quiet.
///
/// ```swift
/// routes.get("/api/v1/catalogs/{id}/changes") { request, context in
///     let stream = EventStream()
///     let subscription = feed.subscribe(after: request.lastEventID) { change in
///         stream.send(id: String(change.number), event: "change", data: change.json)
///     }
///     stream.onClose { _ in feed.unsubscribe(subscription) }
///     return .eventStream(stream)
/// }
/// ```
///
/// Every method may be called from any thread, before or after the handler returned. What is
/// sent waits in a bounded queue (``init(queueLimit:)``): a client that falls so far behind that
/// an event no longer fits is disconnected (``CloseReason/fellBehind``), and resumes with its
/// `Last-Event-ID` when it reconnects. The server adds a comment line (`: keep-alive`) to a stream
/// that sent nothing for ``ServerConfiguration/heartbeatInterval``, so proxies keep it open, and
/// ends every stream cleanly when it stops.
///
/// Make the stream last, once every check that may throw is done: a stream no response carries
/// is never closed by the server (only its queue limit ends it).
///
/// The server admits a stream when the handler returns it: beyond
/// ``ServerConfiguration/maxEventStreams`` open streams the request is answered 503, beyond
/// ``ServerConfiguration/maxEventStreamsPerClient`` from the client's address 429 (both with
/// `Retry-After`), and the stream is closed at once (``CloseReason/refused``).
public final class EventStream: Sendable {
    /// Why a stream stopped taking events, given to ``onClose(_:)``.
    public struct CloseReason: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: Sendable, Hashable {
            case finished, clientGone, fellBehind, serverStopping, refused
        }

        private let kind: Kind

        /// The producer called ``EventStream/finish()``.
        public static let finished = CloseReason(kind: .finished)
        /// The client closed the connection (noticed at the latest at the next heartbeat).
        public static let clientGone = CloseReason(kind: .clientGone)
        /// The client read too slowly: an event did not fit in the queue, and the connection was
        /// closed.
        public static let fellBehind = CloseReason(kind: .fellBehind)
        /// The server is stopping (``HTTPServer/shutdown()``).
        public static let serverStopping = CloseReason(kind: .serverStopping)
        /// The stream never started: the server refused it (over a cap, stopping, a HEAD request,
        /// the same stream returned twice).
        public static let refused = CloseReason(kind: .refused)

        public var description: String {
            switch kind {
            case .finished: "finished"
            case .clientGone: "client gone"
            case .fellBehind: "fell behind"
            case .serverStopping: "server stopping"
            case .refused: "refused"
            }
        }
    }

    /// The queue limit of ``init(queueLimit:)`` unless given: 256 KiB.
    public static let defaultQueueLimit = 256 * 1024

    /// Where the stream is sent: set when a server takes it.
    struct Link: Sendable {
        let connection: SuspendedConnection
        let socket: Int32
        let registry: EventStreamRegistry
    }

    private struct Inner: Sendable {
        var state: EventStreamState
        var link: Link?
        /// The close handler, until the stream closes and hands it out.
        var onClose: (@Sendable (CloseReason) -> Void)?
    }

    private let inner: Mutex<Inner>

    /// Creates a stream that no server has yet.
    ///
    /// - Parameter queueLimit: the most bytes of events waiting to be sent; an event that does not
    ///   fit closes the stream (``CloseReason/fellBehind``). One event larger than this never fits.
    public init(queueLimit: Int = EventStream.defaultQueueLimit) {
        inner = Mutex(Inner(state: EventStreamState(limit: queueLimit)))
    }

    /// Queues one event: `id:` (what the client sends back as `Last-Event-ID` when it
    /// reconnects), `event:` (the type; a client's default is `message`) and the data, one
    /// `data:` line per line of it (lines end at CR LF, LF or CR).
    ///
    /// ```swift
    /// stream.send(id: "42", event: "change", data: "{\"id\":\"x\"}")
    /// // id: 42
    /// // event: change
    /// // data: {"id":"x"}
    /// ```
    ///
    /// - Parameters:
    ///   - id: the event's id; CR, LF and NUL are removed (a field is one line).
    ///   - event: the event's type; CR, LF and NUL are removed.
    ///   - data: the data, any number of lines.
    /// - Returns: false when the stream no longer takes events (it closed, or this event did not
    ///   fit and closed it).
    @discardableResult
    public func send(id: String? = nil, event: String? = nil, data: String) -> Bool {
        enqueue(Self.frame(id: id, event: event, data: data))
    }

    /// Queues a comment: a line that clients ignore (`: text`), one per line of `text`.
    ///
    /// - Returns: false when the stream no longer takes anything.
    @discardableResult
    public func comment(_ text: String) -> Bool {
        enqueue(Self.commentFrame(text))
    }

    /// Ends the stream once everything queued is sent; later sends are refused. The client sees
    /// the body end cleanly (and an `EventSource` reconnects).
    public func finish() {
        transition { $0.finish() }
    }

    /// Sets what runs once when the stream stops taking events, with the reason: the producer
    /// unsubscribes there. It replaces an earlier one, and runs right away if the stream already
    /// closed.
    ///
    /// It runs on the server's event-stream thread (`catalog-http-events`), never inside
    /// ``send(id:event:data:)`` or on a libmicrohttpd worker, so it may take the producer's own
    /// locks; a stream no server took runs it on the thread that closed it.
    public func onClose(_ handler: @escaping @Sendable (CloseReason) -> Void) {
        let (reason, link) = inner.withLock { inner -> (CloseReason?, Link?) in
            if inner.state.closeReason == nil { inner.onClose = handler }
            return (inner.state.closeReason, inner.link)
        }
        if let reason { deliver(handler, reason, via: link) }
    }

    /// Why the stream stopped taking events; nil while it takes them.
    public var closeReason: CloseReason? { inner.withLock { $0.state.closeReason } }

    // MARK: - What the server does with it

    /// Bytes waiting to be sent (for tests).
    var queuedBytes: Int { inner.withLock { $0.state.queuedBytes } }

    /// A server takes the stream; false when one already had.
    func attach(_ link: Link) -> Bool {
        inner.withLock { inner in
            guard inner.state.attach() else { return false }
            inner.link = link
            return true
        }
    }

    /// The server will not send the stream (over a cap, stopping, a HEAD request).
    func refuse() {
        transition { $0.release(.refused) }
    }

    /// libmicrohttpd freed the stream's response: its connection is done with it.
    func released() {
        transition { $0.release() }
        inner.withLock { $0.link }?.registry.release(self)
    }

    /// The server stops: the stream ends cleanly after the event being sent.
    func stop() {
        transition { $0.end(.serverStopping) }
    }

    /// The content reader (on the connection's worker): copies queued bytes, ends the body, or
    /// suspends the connection until there is something to send.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let (read, link) = inner.withLock { ($0.state.read(into: buffer), $0.link) }
        link?.registry.readerCalls.add(1, ordering: .relaxed)
        switch read {
        case .bytes(let count): return count
        case .end: return Int(MHD_CONTENT_READER_END_OF_STREAM)
        case .abort: return Int(MHD_CONTENT_READER_END_WITH_ERROR)
        case .suspend:
            guard let link else { return Int(MHD_CONTENT_READER_END_WITH_ERROR) }
            // Suspended before anyone may resume it: the state hands out one resume per suspension.
            MHD_suspend_connection(link.connection.pointer)
            link.registry.suspensions.add(1, ordering: .relaxed)
            if inner.withLock({ $0.state.suspended() }) { MHD_resume_connection(link.connection.pointer) }
            return 0
        }
    }

    /// Ends the stream when its client went away (checked every second, so a client that left
    /// stops counting against the caps soon, not only at the next heartbeat).
    func checkPeer() {
        transition { state, link in
            guard let link, state.attached, !state.released, state.closeReason == nil else {
                return EventStreamState.Ended(closed: false, resume: false)
            }
            if ResponseWriter.peerClosed(link.socket) { return state.end(.clientGone) }
            return EventStreamState.Ended(closed: false, resume: false)
        }
    }

    /// The heartbeat tick (on the server's event-stream thread): a client that closed its side is
    /// noticed (libmicrohttpd does not watch a suspended connection), and a stream that sent
    /// nothing since the last tick gets a comment line.
    func tick(heartbeat: [UInt8]) {
        transition { state, link in
            guard let link, state.attached, !state.released, state.closeReason == nil else {
                return EventStreamState.Ended(closed: false, resume: false)
            }
            if ResponseWriter.peerClosed(link.socket) { return state.end(.clientGone) }
            guard state.heartbeatDue() else { return EventStreamState.Ended(closed: false, resume: false) }
            return Self.queue(heartbeat, heartbeat: true, in: &state, link: link)
        }
    }

    // MARK: - Internals

    private func enqueue(_ frame: [UInt8]) -> Bool {
        var accepted = false
        transition { state, link in
            let ended = Self.queue(frame, heartbeat: false, in: &state, link: link)
            accepted = state.closeReason == nil
            return ended
        }
        return accepted
    }

    /// Queues `frame` in `state`; when it overflows, the socket is shut down (under the stream's
    /// lock, while libmicrohttpd still holds the descriptor open), so that a client that stopped
    /// reading is disconnected now rather than at libmicrohttpd's idle timeout.
    private static func queue(
        _ frame: [UInt8], heartbeat: Bool, in state: inout EventStreamState, link: Link?
    ) -> EventStreamState.Ended {
        switch state.enqueue(frame, heartbeat: heartbeat) {
        case .accepted(let resume):
            return EventStreamState.Ended(closed: false, resume: resume)
        case .refused:
            return EventStreamState.Ended(closed: false, resume: false)
        case .overflowed(let resume):
            if let link, state.attached, !state.released {
                _ = cmhd_shutdown(link.socket)
            }
            return EventStreamState.Ended(closed: true, resume: resume)
        }
    }

    private func transition(_ change: (inout EventStreamState) -> EventStreamState.Ended) {
        transition { state, _ in change(&state) }
    }

    /// Applies `change` under the lock, then does what it asks outside it: resumes the
    /// connection, hands the close handler to the event-stream thread.
    private func transition(_ change: (inout EventStreamState, Link?) -> EventStreamState.Ended) {
        let (ended, link, handler, reason) = inner.withLock {
            inner -> (EventStreamState.Ended, Link?, (@Sendable (CloseReason) -> Void)?, CloseReason?) in
            let ended = change(&inner.state, inner.link)
            var handler: (@Sendable (CloseReason) -> Void)?
            if ended.closed {
                handler = inner.onClose
                inner.onClose = nil
            }
            return (ended, inner.link, handler, inner.state.closeReason)
        }
        if ended.resume, let link { MHD_resume_connection(link.connection.pointer) }
        if let handler, let reason { deliver(handler, reason, via: link) }
    }

    private func deliver(_ handler: @escaping @Sendable (CloseReason) -> Void, _ reason: CloseReason, via link: Link?) {
        guard let registry = link?.registry else {
            handler(reason)
            return
        }
        registry.schedule { handler(reason) }
    }
}
