import CMicroHTTPD
import Foundation

/// Event streams on libmicrohttpd, without a thread per stream and without a busy loop.
///
/// The body is a content reader (`MHD_create_response_from_callback`, chunked). When the
/// stream's queue is empty the reader suspends its connection (`MHD_suspend_connection`, allowed
/// from a content reader whose response belongs to one connection) and returns 0: the worker
/// leaves the connection alone and serves others, and nothing polls it. Whoever queues an event,
/// ends the stream or notices its client gone resumes it (`MHD_resume_connection`, allowed from
/// any thread; the daemon runs with `MHD_USE_ITC`, so the worker wakes at once) and libmicrohttpd
/// calls the reader again. ``EventStreamState`` makes sure each suspension is resumed exactly
/// once, and only after it happened, even when an event arrives while the reader is suspending.
///
/// Returning 0 without suspending would make libmicrohttpd's internal epoll loop call the reader
/// again at once, for ever (its documentation says as much): that is what the suspension avoids.
extension ResponseWriter {
    /// Takes `stream` for the connection and counts it against the caps; nil when admitted, else
    /// the answer to send instead (the stream is then closed as refused). The per-client cap counts
    /// `client` (the request's resolved address), else the TCP peer.
    static func admit(_ stream: EventStream, on connection: OpaquePointer, core: ServerCore, client: String?)
        -> Response?
    {
        let registry = core.eventStreams
        let link = EventStream.Link(
            connection: SuspendedConnection(pointer: connection), socket: cmhd_connection_fd(connection),
            registry: registry)
        guard stream.attach(link) else {
            core.log("error: one event stream was returned as the response of two requests")
            return Response.text("Internal Server Error\n", status: .internalServerError)
        }
        let admission = registry.admit(stream, client: client ?? clientAddress(connection))
        guard admission != .admitted else { return nil }
        stream.refuse()
        return tooManyEventStreams(perClient: admission == .overClient, core: core)
    }

    /// The libmicrohttpd response reading from `stream`, which it keeps until it frees the
    /// response; nil (and the stream released) when libmicrohttpd has no memory for it.
    static func eventStreamResponse(_ stream: EventStream) -> OpaquePointer? {
        let context = Unmanaged.passRetained(stream)
        // MHD_SIZE_UNKNOWN: chunked encoding, each read one chunk.
        let handle = MHD_create_response_from_callback(
            UInt64.max, eventStreamBlockSize, readEvents, context.toOpaque(), releaseEvents)
        if handle == nil {
            context.release()
            stream.released()
        }
        return handle
    }

    /// The most bytes one read hands over (libmicrohttpd's buffer for a chunk).
    static let eventStreamBlockSize = 16 * 1024

    /// Seconds a refused client is asked to wait.
    static let eventStreamRetryAfter = 5

    /// 503 when the server has as many streams open as it takes (or is stopping); 429 with
    /// `perClient`, when the client has its share.
    static func tooManyEventStreams(perClient: Bool, core: ServerCore) -> Response {
        let error =
            if !perClient {
                HTTPError(
                    .serviceUnavailable, code: "busy",
                    "the server has as many event streams open as it serves; try again in a moment",
                    headers: HTTPHeaders([("Retry-After", String(eventStreamRetryAfter))]))
            } else {
                HTTPError(
                    .tooManyRequests, code: "too_many_streams",
                    "this client has \(core.configuration.maxEventStreamsPerClient) event streams open, "
                        + "the most one client may have; close one first",
                    headers: HTTPHeaders([("Retry-After", String(eventStreamRetryAfter))]))
            }
        return ErrorMiddleware.json(error, Request(method: .get, target: "/")!)
    }
}

private let readEvents: MHD_ContentReaderCallback = { context, _, buffer, capacity in
    guard let context, let buffer else { return Int(MHD_CONTENT_READER_END_WITH_ERROR) }
    let stream = Unmanaged<EventStream>.fromOpaque(context).takeUnretainedValue()
    return stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity))
}

private let releaseEvents: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    Unmanaged<EventStream>.fromOpaque(context).takeRetainedValue().released()
}
