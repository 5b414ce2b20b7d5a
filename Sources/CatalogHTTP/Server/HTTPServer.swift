import CMicroHTTPD
import CatalogConsole
import Foundation
import Synchronization

/// An HTTP/1.1 server on GNU libmicrohttpd: a pool of worker threads, each with its own epoll
/// loop, calling one ``Responder`` synchronously for every request.
///
/// ```swift
/// let server = HTTPServer(configuration: configuration, responder: router.wrapped(in: middleware))
/// let port = try server.start()
/// …
/// server.shutdown()  // stop accepting, let requests in flight finish, close
/// ```
///
/// A request reaches the responder once its body is complete. The first call of
/// libmicrohttpd's handler for a request only records it: answering on that first call makes
/// libmicrohttpd answer `Connection: close` (measured on libmicrohttpd 0.9.75: 15–25k requests/s
/// instead of keep-alive), so the answer comes on the next.
///
/// A handler may answer with an event stream (``Response/eventStream(_:)``): it stays open
/// without holding a worker, its connection suspended while it is quiet, within
/// ``ServerConfiguration/maxEventStreams`` and ``ServerConfiguration/maxEventStreamsPerClient``
/// (``openEventStreams`` counts them).
public final class HTTPServer: Sendable {
    let core: ServerCore
    private let state = Mutex<(lifecycle: ServerLifecycle, daemon: Daemon?, port: Int)>(
        (ServerLifecycle(), nil, 0))

    /// Creates a server; nothing listens until ``start()``.
    ///
    /// - Parameters:
    ///   - configuration: address, threads and limits.
    ///   - responder: answers every request (usually a router inside middleware).
    ///   - log: receives lines about failures (streamed bodies that broke off, daemon errors).
    public init(
        configuration: ServerConfiguration, responder: any Responder,
        log: @escaping @Sendable (String) -> Void = { StandardStream.error.line($0) }
    ) {
        core = ServerCore(configuration: configuration, responder: responder, log: log)
    }

    /// The port the server listens on (the chosen one when configured with port 0).
    public var port: Int { state.withLock { $0.port } }

    /// Requests received and not yet completed.
    public var requestsInFlight: Int { core.inFlight.load(ordering: .relaxed) }

    /// Event streams open now (``EventStream``): admitted and not yet done with their connection.
    public var openEventStreams: Int { core.eventStreams.openCount }

    /// True once ``shutdown()`` has begun: the server drains and will answer nothing new.
    public var isStopping: Bool { core.stopping.load(ordering: .acquiring) }

    /// Registers the server's own gauges and counters in `registry`, read when it is rendered:
    /// connections open, opened and closed early (to make room, or past the header deadline),
    /// requests in flight, event streams open, and requests slowed for their client's CPU budget.
    public func registerMetrics(in registry: MetricsRegistry) {
        let core = self.core
        registry.gauge("catalog_http_connections_open", help: "Connections open now.") {
            [([], Double(core.connections.openCount))]
        }
        registry.counter("catalog_http_connections_opened_total", help: "Connections accepted.") {
            [([], Double(core.connections.openedCount))]
        }
        registry.counter(
            "catalog_http_connections_refused_total",
            help: "Connections closed before their request was answered: to make room for new clients, or because "
                + "their request head or body did not arrive in time.", labels: ["reason"]
        ) {
            [
                (["room"], Double(core.connections.closedForRoom.load(ordering: .relaxed))),
                (["header_timeout"], Double(core.connections.closedLate.load(ordering: .relaxed))),
                (["body_timeout"], Double(core.connections.closedBodyLate.load(ordering: .relaxed))),
            ]
        }
        registry.gauge("catalog_http_requests_in_flight", help: "Requests received and not yet completed.") {
            [([], Double(core.inFlight.load(ordering: .relaxed)))]
        }
        registry.gauge("catalog_event_streams_open", help: "Event streams (change feeds) open now.") {
            [([], Double(core.eventStreams.openCount))]
        }
        registry.counter(
            "catalog_http_requests_slowed_total",
            help: "Requests sent to the slow lane because their client used more than its CPU budget."
        ) {
            [([], Double(core.ledger?.slowedRequests ?? 0))]
        }
    }

    /// Binds the address and starts the workers.
    ///
    /// - Returns: the port listened on.
    /// - Throws: ``HTTPServerError`` when the address is invalid or the port cannot be bound.
    @discardableResult
    public func start() throws(HTTPServerError) -> Int {
        let action = state.withLock { $0.lifecycle.start() }
        if case .refuse(let reason) = action { throw HTTPServerError(.invalidState, reason) }
        do {
            let (daemon, port) = try startDaemon()
            state.withLock {
                $0.lifecycle.started(true)
                $0.daemon = Daemon(pointer: daemon)
                $0.port = port
            }
            return port
        } catch {
            state.withLock { $0.lifecycle.started(false) }
            throw error
        }
    }

    private func startDaemon() throws(HTTPServerError) -> (OpaquePointer, Int) {
        let configuration = core.configuration
        var address = try SocketAddress(host: configuration.host, port: configuration.port)
        // MHD_USE_SUSPEND_RESUME: offloaded requests suspend their connection while they run, and
        // quiet event streams until they have something to send (ResponseWriter+EventStream).
        var flags =
            MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue
            | MHD_USE_SUSPEND_RESUME.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let context = Unmanaged.passUnretained(core).toOpaque()
        let daemon = address.withPointer { socketAddress -> OpaquePointer? in
            var options: [MHD_OptionItem] = [
                cmhd_option_logger(),
                MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: UnsafeMutableRawPointer(socketAddress)),
                MHD_OptionItem(option: .CONNECTION_LIMIT, value: core.connectionLimit, ptr_value: nil),
                MHD_OptionItem(
                    option: .PER_IP_CONNECTION_LIMIT, value: configuration.perIPConnectionLimit,
                    ptr_value: nil),
                MHD_OptionItem(
                    option: .CONNECTION_TIMEOUT, value: configuration.connectionTimeout, ptr_value: nil),
                MHD_OptionItem(
                    option: .CONNECTION_MEMORY_LIMIT, value: configuration.connectionMemoryLimit,
                    ptr_value: nil),
                // Not 1: 0.9.75's strict mode refuses an HTTP/1.1 request without Host by sending
                // its status line and headers twice (measured). RequestFraming checks Host,
                // spaces in the target and `Host :` (which the strict mode lets through) instead.
                MHD_OptionItem(option: .STRICT_FOR_CLIENT, value: 0, ptr_value: nil),
                MHD_OptionItem(option: .LISTEN_BACKLOG_SIZE, value: 1024, ptr_value: nil),
                cmhd_option_unescape_none(),
                cmhd_option_uri_log(requestLineReceived, context),
                cmhd_option_notify_connection(connectionChanged, context),
                cmhd_option_notify_completed(requestCompleted, context),
            ]
            if configuration.threads > 1 {
                options.append(
                    MHD_OptionItem(option: .THREAD_POOL_SIZE, value: configuration.threads, ptr_value: nil))
            }
            options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
            return options.withUnsafeMutableBufferPointer { buffer in
                cmhd_start_daemon(flags, 0, accessHandler, context, buffer.baseAddress)
            }
        }
        guard let daemon else {
            throw HTTPServerError(
                .cannotStart,
                "cannot listen on \(configuration.host):\(configuration.port) (address in use or not available)")
        }
        core.connections.startSweeping()
        return (daemon, Int(cmhd_bound_port(daemon)))
    }

    /// Stops the server, answering every request that reached it: stops listening (connections
    /// the kernel had already accepted are taken over first, so none is reset), lets requests
    /// in flight finish and answers requests still unread on open connections, each answer
    /// closing its connection; streamed answers end at their next chunk, the connection closed
    /// without the last chunk so that clients see them cut short. Event streams end cleanly
    /// at once (the event being sent completes, nothing more is sent, then the last chunk), and
    /// their close handlers run (``EventStream/CloseReason/serverStopping``); new ones get 503.
    /// After that, or at the latest after the configured grace period, it closes every
    /// connection and joins the workers. Safe to call more than once and from any thread.
    /// `catalog serve` calls it on SIGINT and SIGTERM.
    public func shutdown() {
        let (action, daemon) = state.withLock { ($0.lifecycle.stop(), $0.daemon) }
        if action == .markStopped {
            core.stopOffloading()
            core.eventStreams.stop()
            core.eventStreams.join()
        }
        guard action == .stopAccepting, let daemon = daemon?.pointer else { return }
        // Offloaded work (an import) sees the server stopping and gives up within the grace
        // period; streams end at their next chunk; answers say `Connection: close`.
        core.stopping.store(true, ordering: .releasing)
        // The listening socket stops taking connections now (new ones are refused at once), but
        // its descriptor stays ours until the daemon stopped: libmicrohttpd's threads may still
        // look at it, and a number closed early could be handed to another file meanwhile.
        let listening = MHD_quiesce_daemon(daemon)
        if listening >= 0 {
            Self.adoptWaitingConnections(from: listening, into: daemon)
            Glibc.shutdown(listening, Int32(SHUT_RDWR))
        }
        // Every open stream resumes and ends; its request completes once its last chunk is out.
        core.eventStreams.stop()
        let deadline = ContinuousClock.now + core.configuration.shutdownGrace
        var drain = ServerLifecycle.Drain()
        while drain.looked(
            inFlight: core.inFlight.load(ordering: .acquiring), unreadBytes: core.connections.hasUnreadBytes(),
            pastDeadline: ContinuousClock.now >= deadline) == .wait
        {
            usleep(5_000)
        }
        // libmicrohttpd must not stop while a connection is suspended: cancel offloaded work that
        // still waits (its clients get 503) and let running work resume its connection.
        core.stopOffloading()
        core.connections.stopSweeping()
        MHD_stop_daemon(daemon)
        if listening >= 0 { close(listening) }
        // The close handlers of streams the daemon closed run before this returns.
        core.eventStreams.join()
        state.withLock {
            $0.lifecycle.drained()
            $0.daemon = nil
        }
    }

    /// Hands the connections waiting in the listening socket's backlog (their handshake done,
    /// not yet accepted) to the workers, which closing the socket would reset.
    private static func adoptWaitingConnections(from listening: Int32, into daemon: OpaquePointer) {
        while true {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let socket = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    accept(listening, $0, &length)
                }
            }
            guard socket >= 0 else { return }
            _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
            _ = fcntl(socket, F_SETFD, FD_CLOEXEC)
            // On failure libmicrohttpd closes the socket itself.
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { MHD_add_connection(daemon, socket, $0, length) }
            }
        }
    }

    deinit {
        shutdown()
    }
}

/// The daemon handle, handed between threads under the server's lock.
struct Daemon: @unchecked Sendable {
    // @unchecked: libmicrohttpd's quiesce and stop functions may be called from any thread; the
    // server calls them once, from `shutdown()`, guarded by its lifecycle.
    let pointer: OpaquePointer
}

/// What the C callbacks reach through their context pointer. Immutable but for atomic counters
/// and the lock-protected connection registry.
final class ServerCore: Sendable {
    let configuration: ServerConfiguration
    let responder: any Responder
    let log: @Sendable (String) -> Void
    let inFlight = Atomic<Int>(0)
    /// The connection limit in effect (lower than configured when the process may not open
    /// that many files).
    let connectionLimit: Int
    let connections: ConnectionRegistry
    /// The pools of ``ServerConfiguration/offloadLanes``, in order.
    let lanes: [(lane: OffloadLane, pool: OffloadPool)]
    /// Set when the server stops: offloaded work still running is asked to give up.
    let stopping = Atomic<Bool>(false)
    /// What each client's requests cost, when clients have a budget.
    let ledger: ClientCostLedger?
    /// Where the requests of clients over their budget run: one thread below the workers' priority.
    let slowLane: OffloadPool?
    /// The open event streams, their caps and their heartbeat thread.
    let eventStreams: EventStreamRegistry

    init(configuration: ServerConfiguration, responder: any Responder, log: @escaping @Sendable (String) -> Void) {
        self.configuration = configuration
        self.responder = responder
        self.log = log
        connectionLimit = FileDescriptorLimit.connectionLimit(configuration.connectionLimit, log: log)
        connections = ConnectionRegistry(
            connectionLimit: connectionLimit, workers: max(1, configuration.threads),
            headerTimeout: configuration.headerTimeout)
        lanes = configuration.offloadLanes.map {
            ($0, OffloadPool(threads: $0.threads, queueLimit: $0.queueLimit, name: $0.name, niceness: $0.niceness))
        }
        ledger = configuration.clientBudget.map { ClientCostLedger(budget: $0) }
        eventStreams = EventStreamRegistry(
            maxTotal: configuration.maxEventStreams, maxPerClient: configuration.maxEventStreamsPerClient,
            connectionLimit: connectionLimit, heartbeatInterval: configuration.heartbeatInterval)
        slowLane =
            ledger == nil
            ? nil : OffloadPool(threads: 1, queueLimit: configuration.slowLaneQueueLimit, name: "slowed", niceness: 10)
    }

    /// The pool of the lane `options` names, when the route's test admits `request`; nil: the
    /// request runs on its worker.
    func pool(for request: Request, options: RouteOptions) -> OffloadPool? {
        guard let lane = options.lane, lane.admits?(request) ?? true else { return nil }
        return lanes.first { $0.lane.name == lane.name }?.pool
    }

    /// The options of the route a request with `method` and raw `path` reaches (standard when
    /// the path is malformed or nothing is configured).
    func routeOptions(method: HTTPMethod, path: String) -> RouteOptions {
        guard let lookUp = configuration.routeOptions, let segments = Request.segments(ofPath: path) else {
            return .standard
        }
        return lookUp(method, segments)
    }

    /// Stops every lane's pool: waiting work is cancelled, running work finishes.
    func stopOffloading() {
        stopping.store(true, ordering: .releasing)
        for (_, pool) in lanes { pool.stop() }
        slowLane?.stop()
    }
}

/// One request while libmicrohttpd delivers it: created when its request line is in, released
/// in the completion callback. Used by its connection's worker thread only; offloaded work
/// hands its answer back through ``finished``.
final class PendingRequest {
    /// Where libmicrohttpd keeps the target, and how many bytes of it precede the first NUL.
    let targetAddress: UInt
    let targetPrefixLength: Int
    /// Whether those bytes are all visible (no spaces or control characters).
    let targetIsVisible: Bool
    /// True once the head is in (the first call of the access handler).
    var started = false
    /// The registry's id of the connection.
    var connection = 0
    var headers = HTTPHeaders()
    var bodyLimit = 0
    /// The options of the request's route, known once the head is in.
    var options = RouteOptions.standard
    var body: [UInt8] = []
    /// When the body must be in (``ServerConfiguration/bodyTimeout``), set once the head is in.
    var bodyDeadline: ContinuousClock.Instant?
    var tooLarge = false
    /// Bytes received beyond the limit: read and dropped, so the client gets its 413.
    var discarded = 0
    /// True once a response is queued (an announced oversized body is refused at once).
    var answered = false
    /// Set while the request runs on the offload pool.
    var finished: OffloadedAnswer?
    /// The request's client address (``Request/client``), once the request is built: an event
    /// stream it answers with is counted for it.
    var client: String?

    /// Query parameters on the request line (pieces between `&`, empty ones too); more than
    /// the limit were left unparsed, and the request is refused.
    let queryParameters: Int

    /// A client still sending this far past the limit is disconnected without an answer.
    static let discardLimit = 1 << 20

    /// Notes where `target` is, how long and whether it is visible, and counts its query
    /// parameters.
    ///
    /// - Parameters:
    ///   - target: the request target as libmicrohttpd read it.
    ///   - maxParameters: when the query has more parameters than this, libmicrohttpd is kept from
    ///     parsing them: it stores each parsed one in the connection's fixed memory, and ran out
    ///     of it at about 800, closing the connection without an answer. It is given an empty
    ///     query instead and the request gets a 400 naming the limit (``RequestHead``).
    init(target: UnsafePointer<CChar>?, maxParameters: Int = .max) {
        targetAddress = UInt(bitPattern: target)
        let length = target.map { strlen($0) } ?? 0
        targetPrefixLength = length
        var visible = false
        var parameters = 0
        if let target {
            target.withMemoryRebound(to: UInt8.self, capacity: length) { start in
                let bytes = UnsafeBufferPointer(start: start, count: length)
                visible = RequestFraming.isVisible(bytes)
                guard let question = bytes.firstIndex(of: UInt8(ascii: "?")) else { return }
                parameters = 1 + bytes[(question + 1)...].count { $0 == UInt8(ascii: "&") }
                if parameters > maxParameters, question + 1 < length {
                    // libmicrohttpd parses the query from the byte after the `?` once this
                    // callback returns (0.9.75's parse_initial_message_line): end it right there.
                    UnsafeMutablePointer(mutating: target)[question + 1] = 0
                }
            }
        }
        targetIsVisible = visible
        queryParameters = parameters
    }
}

/// The answer of a request that ran on the offload pool, handed to the connection's worker.
final class OffloadedAnswer: Sendable {
    let response = Mutex<Response?>(nil)
}

/// A connection pointer carried to the offload pool. Only `MHD_resume_connection` is called on
/// it there, which libmicrohttpd allows from any thread.
struct SuspendedConnection: @unchecked Sendable {
    // @unchecked: the pointer is only handed to MHD_resume_connection, which libmicrohttpd allows
    // from any thread; nothing here reads or writes through it.
    let pointer: OpaquePointer
}

/// The request line is in: keep where the target starts and how long it is up to its first NUL
/// (libmicrohttpd cuts the target at a NUL; where the version starts tells how long it was).
private let requestLineReceived: cmhd_uri_log_callback = { context, uri, _ in
    let limit = context.map {
        Unmanaged<ServerCore>.fromOpaque($0).takeUnretainedValue().configuration.maxQueryParameters
    }
    return Unmanaged.passRetained(PendingRequest(target: uri, maxParameters: limit ?? .max)).toOpaque()
}

private let connectionChanged: MHD_NotifyConnectionCallback = { context, connection, socketContext, event in
    guard let context, let connection, let socketContext else { return }
    let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
    if event == .CONNECTION_NOTIFY_STARTED {
        let worker = Int(bitPattern: UnsafeRawPointer(cmhd_connection_daemon(connection)))
        let id = core.connections.opened(socket: cmhd_connection_fd(connection), worker: worker)
        socketContext.pointee = UnsafeMutableRawPointer(bitPattern: id)
    } else if let id = socketContext.pointee {
        core.connections.closed(Int(bitPattern: id))
        socketContext.pointee = nil
    }
}

private let accessHandler: MHD_AccessHandlerCallback = {
    context, connection, url, method, version, uploadData, uploadDataSize, requestContext in
    guard let context, let connection, let requestContext, let uploadDataSize else { return MHD_Result.NO }
    let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
    if requestContext.pointee == nil {
        requestContext.pointee = Unmanaged.passRetained(PendingRequest(target: url)).toOpaque()
    }
    let pending = Unmanaged<PendingRequest>.fromOpaque(requestContext.pointee!).takeUnretainedValue()
    let methodName = method.map { String(cString: $0) } ?? ""
    if !pending.started {
        return RequestHead.received(
            pending, core: core, connection: connection, method: methodName, url: url, version: version)
    }
    if uploadDataSize.pointee > 0 {
        let count = uploadDataSize.pointee
        uploadDataSize.pointee = 0
        if !pending.answered, let deadline = pending.bodyDeadline, ContinuousClock.now >= deadline {
            // A body trickling past its deadline: libmicrohttpd cannot answer while a body
            // arrives, so the 408 goes to the socket directly and the connection is closed.
            pending.answered = true
            core.connections.closedBodyLate.add(1, ordering: .relaxed)
            RequestHead.bodyTimedOut(connection, timeout: core.configuration.bodyTimeout)
            return MHD_Result.NO
        }
        if !pending.tooLarge && pending.body.count + count > pending.bodyLimit {
            // libmicrohttpd cannot answer while a body is arriving: drop the rest, answer at the end.
            pending.tooLarge = true
            pending.discarded = pending.body.count
            pending.body = []
        }
        if pending.answered { return MHD_Result.YES }
        if pending.tooLarge {
            pending.discarded += count
            return pending.discarded > pending.bodyLimit + PendingRequest.discardLimit
                ? MHD_Result.NO : MHD_Result.YES
        }
        if let uploadData {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
                pending.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
            }
        }
        return MHD_Result.YES
    }
    if pending.answered { return MHD_Result.YES }
    if pending.tooLarge {
        pending.answered = true
        return ResponseWriter.queue(
            ResponseWriter.payloadTooLarge(pending.bodyLimit), on: connection, core: core, method: methodName)
    }
    if let finished = pending.finished {
        // Called again once the offloaded work resumed the connection.
        guard let response = finished.response.withLock({ $0.take() }) else { return MHD_Result.YES }
        pending.answered = true
        return ResponseWriter.queue(response, on: connection, core: core, method: methodName, client: pending.client)
    }
    let path = url.map { String(cString: $0) } ?? ""
    let request = ResponseWriter.request(
        core: core, connection: connection, method: methodName, path: path, headers: pending.headers,
        body: pending.body)
    pending.body = []
    pending.client = core.configuration.recordsClientAddress ? request?.clientAddress : nil
    if let request, let pool = core.pool(for: request, options: pending.options) {
        return ResponseWriter.offload(
            request, pending: pending, pool: pool, connection: connection, core: core,
            charged: pending.options.rateClass.chargesLaneWork)
    }
    // Probes (health, metrics) are never slowed nor charged: they must answer while a client is throttled.
    let isProbe = pending.options.rateClass == .probe
    if let request, !isProbe, let ledger = core.ledger, let slowLane = core.slowLane,
        ledger.isOverBudget(request.clientAddress)
    {
        // A client that used more than its share waits on a thread of its own, behind nobody else.
        ledger.noteSlowed()
        let retryAfter = ledger.secondsUntilWithinBudget(request.clientAddress)
        return ResponseWriter.offload(
            request, pending: pending, pool: slowLane, connection: connection, core: core, charged: true,
            refusal: { ResponseWriter.overBudget(retryAfter: retryAfter) })
    }
    pending.answered = true
    return ResponseWriter.queue(
        ResponseWriter.respond(to: request, core: core, charged: !isProbe), on: connection, core: core,
        method: methodName, client: pending.client)
}

private let requestCompleted: MHD_RequestCompletedCallback = { context, _, requestContext, _ in
    guard let context, let requestContext, let pointer = requestContext.pointee else { return }
    let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
    let pending = Unmanaged<PendingRequest>.fromOpaque(pointer).takeRetainedValue()
    requestContext.pointee = nil
    if pending.started {
        core.connections.requestFinished(pending.connection)
        core.inFlight.subtract(1, ordering: .releasing)
    }
}
