import CMicroHTTPD
import Foundation
import Synchronization

/// Turns libmicrohttpd's view of a request into a ``Request``, runs the responder, and hands
/// the ``Response`` back to libmicrohttpd.
enum ResponseWriter {
    /// Builds the request from libmicrohttpd's view of it; nil when the target is malformed.
    static func request(
        core: ServerCore, connection: OpaquePointer, method: String, path: String, headers: HTTPHeaders,
        body: [UInt8]
    ) -> Request? {
        var query: [String] = []
        withUnsafeMutablePointer(to: &query) { pointer in
            _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, collectArgument, pointer)
        }
        let target = query.isEmpty ? path : path + "?" + query.joined(separator: "&")
        guard path.hasPrefix("/"),
            var request = Request(method: HTTPMethod(rawValue: method), target: target, headers: headers, body: body)
        else { return nil }
        // The one place a request's client is resolved; everything downstream reads `request.client`.
        let peer = core.configuration.recordsClientAddress ? clientAddress(connection) : "-"
        request.client = ClientAddress.resolve(
            peer: peer, headers: headers, trusting: core.configuration.trustedProxies)
        return request
    }

    /// Asks the responder. Never throws: a malformed target (nil) is a 400, and the responder
    /// chain turns its own errors into responses.
    ///
    /// With `charged`, the time the answer took is charged to the client (``ClientCostLedger/meter(for:)``):
    /// requests on the workers and on the slow lane are; work on a route's lane only when its
    /// rate class says so (``RateClass/chargesLaneWork``: sign-ins, imports, snapshots and
    /// thumbnails have limits of their own).
    static func respond(
        to request: Request?, core: ServerCore, context: RequestContext = RequestContext(), charged: Bool = true
    ) -> Response {
        guard let request else {
            return ErrorMiddleware.json(
                HTTPError(.badRequest, code: "bad_request", "the request target is malformed"),
                Request(method: .get, target: "/")!)
        }
        let ledger = charged ? core.ledger : nil
        let meter = ledger?.meter(for: request.clientAddress)
        defer {
            if let ledger, let meter { ledger.charge(request.clientAddress, cpu: meter.elapsed) }
        }
        do {
            return try core.responder.respond(to: request, context: context)
        } catch {
            core.log("error: \(request.method) \(request.rawPath): \(String(reflecting: error))")
            return Response.text("Internal Server Error\n", status: .internalServerError)
        }
    }

    /// Runs the request on the offload pool: the connection is suspended until the answer is
    /// ready, then resumed, and libmicrohttpd calls the handler again, which queues it.
    ///
    /// `refusal` answers when the pool's queue is full or the server stops (503 `busy` unless
    /// said otherwise); `charged` says whether the work's CPU time is charged to the client.
    static func offload(
        _ request: Request, pending: PendingRequest, pool: OffloadPool, connection: OpaquePointer, core: ServerCore,
        charged: Bool = false, refusal: @escaping @Sendable () -> Response = { busy() }
    ) -> MHD_Result {
        let answer = OffloadedAnswer()
        let suspended = SuspendedConnection(pointer: connection)
        pending.finished = answer
        // The work may give up when the client goes away or the server stops.
        var context = RequestContext()
        let socket = cmhd_connection_fd(connection)
        context.isCancelled = { core.stopping.load(ordering: .acquiring) || Self.peerClosed(socket) }
        // Suspend first: resuming a connection that is not suspended is undefined.
        MHD_suspend_connection(connection)
        let accepted = pool.submit(
            run: { [context] in
                let response = respond(to: request, core: core, context: context, charged: charged)
                answer.response.withLock { $0 = response }
                MHD_resume_connection(suspended.pointer)
            },
            cancel: {
                answer.response.withLock { $0 = refusal() }
                MHD_resume_connection(suspended.pointer)
            })
        if !accepted {
            answer.response.withLock { $0 = refusal() }
            MHD_resume_connection(connection)
        }
        return MHD_Result.YES
    }

    /// Whether the client closed its side of a suspended connection: a peek at the socket reads
    /// the end of the stream (a pipelined request or nothing pending means it is still there).
    static func peerClosed(_ socket: Int32) -> Bool {
        guard socket >= 0 else { return false }
        var byte: UInt8 = 0
        let result = recv(socket, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        if result == 0 { return true }
        if result < 0 { return errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR }
        return false
    }

    /// 503 with `Retry-After`: the offload pool is full or stopping.
    static func busy() -> Response {
        ErrorMiddleware.json(
            HTTPError(
                .serviceUnavailable, code: "busy", "the server is busy; try again in a moment",
                headers: HTTPHeaders([("Retry-After", "1")])),
            Request(method: .post, target: "/")!)
    }

    /// 429 with `Retry-After`: the client used more than its share of the server's CPU time and
    /// the slow lane's queue is full.
    static func overBudget(retryAfter: Int) -> Response {
        ErrorMiddleware.json(
            HTTPError(
                .tooManyRequests, code: "too_many_requests",
                "this client sent more costly requests than the server answers for one client; "
                    + "try again in \(retryAfter) s",
                headers: HTTPHeaders([("Retry-After", String(retryAfter))])),
            Request(method: .get, target: "/")!)
    }

    static func payloadTooLarge(_ limit: Int) -> Response {
        ErrorMiddleware.json(
            HTTPError(.payloadTooLarge, code: "payload_too_large", "the request body is larger than \(limit) bytes"),
            Request(method: .post, target: "/")!)
    }

    /// Queues `response` on the connection. A HEAD request never opens a streamed body: chunked
    /// encoding would still send its terminating chunk, which the client would read as the start
    /// of the next response (an event stream is refused, so its producer lets go). An event stream
    /// is admitted against the caps first (``admit(_:on:core:client:)``), counted for `client` (the
    /// request's ``Request/client``; the TCP peer when the request was never built).
    static func queue(
        _ response: Response, on connection: OpaquePointer, core: ServerCore, method: String, client: String? = nil
    ) -> MHD_Result {
        let handle: OpaquePointer?
        switch response.body {
        case .stream where method == "HEAD":
            handle = MHD_create_response_from_buffer(0, nil, mustCopy)
        case .eventStream(let stream) where method == "HEAD":
            stream.refuse()
            handle = MHD_create_response_from_buffer(0, nil, mustCopy)
        case .eventStream(let stream):
            if let refusal = admit(stream, on: connection, core: core, client: client) {
                return queue(refusal, on: connection, core: core, method: method)
            }
            handle = eventStreamResponse(stream)
        case .bytes(let bytes):
            handle = bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(
                    buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), mustCopy)
            }
        case .file(let file):
            // libmicrohttpd sends the bytes from the descriptor (sendfile) and closes it when the
            // response is destroyed; for HEAD it sends the headers only.
            let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                core.log("error: cannot open \(file.path) to send it: errno \(errno)")
                return queue(
                    Response.text("Service Unavailable\n", status: .serviceUnavailable), on: connection, core: core,
                    method: method)
            }
            handle = MHD_create_response_from_fd_at_offset64(file.length, descriptor, file.offset)
            if handle == nil { close(descriptor) }
        case .stream(let open):
            do {
                let source = StreamedBody(try open(), log: core.log) { core.stopping.load(ordering: .relaxed) }
                handle = MHD_create_response_from_callback(
                    UInt64.max, 64 * 1024, readStream, Unmanaged.passRetained(source).toOpaque(), freeStream)
            } catch {
                core.log("error: a streamed response could not start: \(String(reflecting: error))")
                return queue(
                    Response.text("Internal Server Error\n", status: .internalServerError), on: connection,
                    core: core, method: method)
            }
        }
        guard let handle else { return MHD_Result.NO }
        defer { MHD_destroy_response(handle) }
        for (name, value) in response.headers where isSafe(name) && isSafe(value) {
            _ = MHD_add_response_header(handle, name, value)
        }
        // Answers the server makes itself (413, 503 busy, 429) never passed the middleware.
        if response.headers["X-Request-Id"] == nil {
            _ = MHD_add_response_header(handle, "X-Request-Id", RequestID.random.make())
        }
        // While the server stops, each answer is the connection's last.
        if core.stopping.load(ordering: .relaxed) && response.headers["Connection"] == nil {
            _ = MHD_add_response_header(handle, "Connection", "close")
        }
        return MHD_queue_response(connection, UInt32(response.status.rawValue), handle)
    }

    /// MHD_RESPMEM_MUST_COPY (the enum is imported without usable case names).
    private static let mustCopy = MHD_ResponseMemoryMode(rawValue: 2)!

    /// Header names and values must not carry CR, LF or NUL (response splitting).
    private static func isSafe(_ text: String) -> Bool {
        !text.utf8.contains { $0 == 13 || $0 == 10 || $0 == 0 }
    }

    static func clientAddress(_ connection: OpaquePointer) -> String {
        guard let address = cmhd_client_address(connection) else { return "-" }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            var inet = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            guard inet_ntop(AF_INET, &inet, &buffer, socklen_t(buffer.count)) != nil else { return "-" }
        case AF_INET6:
            var inet6 = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            guard inet_ntop(AF_INET6, &inet6, &buffer, socklen_t(buffer.count)) != nil else { return "-" }
        default:
            return "-"
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Arguments arrive still escaped (the unescape callback leaves them alone); `+` is already a
/// space. They are joined back into a query string that ``Request`` decodes.
private let collectArgument: MHD_KeyValueIterator = { context, _, key, value in
    guard let context, let key else { return MHD_Result.YES }
    let pairs = context.assumingMemoryBound(to: [String].self)
    let name = String(cString: key)
    if let value {
        let text = String(cString: value)
        pairs.pointee.append(name + "=" + text)
    } else {
        pairs.pointee.append(name)
    }
    return MHD_Result.YES
}

/// A streamed body being sent: chunks from the source, handed to libmicrohttpd in the sizes it
/// asks for.
final class StreamedBody {
    let source: any ResponseBodyStream
    let log: @Sendable (String) -> Void
    var pending: [UInt8] = []
    var offset = 0
    var finished = false
    /// Whether the server is stopping: the stream then ends at the next chunk boundary.
    let isStopping: @Sendable () -> Bool

    init(
        _ source: any ResponseBodyStream, log: @escaping @Sendable (String) -> Void,
        isStopping: @escaping @Sendable () -> Bool = { false }
    ) {
        self.source = source
        self.log = log
        self.isStopping = isStopping
    }

    /// Copies up to `capacity` bytes into `buffer`; 0 bytes never means the end.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        while offset == pending.count {
            if finished { return Int(MHD_CONTENT_READER_END_OF_STREAM) }
            if isStopping() {
                // Every chunk sent so far is whole; the connection closes without the last,
                // empty chunk, so the client knows the body is incomplete.
                log("a streamed response was cut short: the server is stopping")
                return Int(MHD_CONTENT_READER_END_WITH_ERROR)
            }
            do {
                if let chunk = try source.nextChunk() {
                    pending = chunk
                    offset = 0
                } else {
                    finished = true
                }
            } catch {
                log("error: a streamed response broke off: \(String(reflecting: error))")
                return Int(MHD_CONTENT_READER_END_WITH_ERROR)
            }
        }
        let count = min(capacity, pending.count - offset)
        pending.withUnsafeBytes { bytes in
            UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}

private let readStream: MHD_ContentReaderCallback = { context, _, buffer, capacity in
    guard let context, let buffer else { return Int(MHD_CONTENT_READER_END_WITH_ERROR) }
    let body = Unmanaged<StreamedBody>.fromOpaque(context).takeUnretainedValue()
    return body.read(into: buffer, capacity: capacity)
}

private let freeStream: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    Unmanaged<StreamedBody>.fromOpaque(context).release()
}
