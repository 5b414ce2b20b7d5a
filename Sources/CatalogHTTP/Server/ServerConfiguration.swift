import Foundation

/// How an ``HTTPServer`` listens and what it tolerates from clients.
///
/// The limits are the first defence against slow and oversized clients: libmicrohttpd enforces
/// the connection counts, the idle timeout and the memory per connection; the server enforces
/// the size of the request line and headers (414 or 431), the time they may take to arrive, the
/// body size (413), and makes room for new clients by closing idle or slow connections first.
public struct ServerConfiguration: Sendable {
    /// The address to bind: `127.0.0.1`, `0.0.0.0`, `::1`, `::`.
    public var host: String = "127.0.0.1"
    /// The port; 0 picks a free one (``HTTPServer/port`` tells which).
    public var port: Int = 8080
    /// Worker threads, each with its own event loop (epoll) and its own connections.
    public var threads: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Connections open at once, in total.
    public var connectionLimit: Int = 1024
    /// Connections open at once from one IP address.
    public var perIPConnectionLimit: Int = 256
    /// Seconds a connection may stay without any traffic before it is closed (while a body
    /// arrives or an answer is sent). Every worker multiplexes its connections, so a client that
    /// trickles bytes ties up a connection slot and a little memory, never a thread.
    public var connectionTimeout: Int = 30
    /// How long a request's body may take to arrive in total, counted from when its head was in:
    /// a client that trickles its body without ever staying silent for ``connectionTimeout`` is
    /// answered 408 and its connection closed at its first bytes after the deadline. One fixed
    /// deadline rather than one scaled by size: the largest body accepted (an import upload,
    /// 64 MiB by default) arrives well within it on any link the server is meant for.
    public var bodyTimeout: Duration = .seconds(60)
    /// How long a request's line and headers may take to arrive, counted from when the
    /// connection opened or its previous answer was sent; a connection still without a complete
    /// request head then is closed, however steadily it trickles. An idle keep-alive connection
    /// is closed after this long too.
    public var headerTimeout: Duration = .seconds(10)
    /// The largest request line plus headers (with the empty line), in bytes: 414 for a longer
    /// request line, 431 for longer headers.
    public var maxHeaderBytes: Int = 16 * 1024
    /// The most query parameters a request may carry (pieces between `&`, empty ones too):
    /// beyond it the request is answered 400 (`too_many_parameters`) without its parameters
    /// being parsed.
    public var maxQueryParameters: Int = 256
    /// Bytes of memory per connection for the request head, read buffer and the answer's
    /// headers. Larger than ``maxHeaderBytes`` so that a head just under that limit still leaves
    /// room for an answer (libmicrohttpd 0.9.75 closes a connection without a word when it cannot
    /// fit the answer's headers). Pools above 32 KiB are mapped lazily, page by page.
    public var connectionMemoryLimit: Int = 40 * 1024
    /// The largest request body accepted (413 beyond it), unless the request's route says
    /// otherwise (``RouteOptions/bodyLimit``).
    public var maxBodyBytes: Int = 1 << 20
    /// The options of the route a request reaches, asked once its head is in, given the method
    /// and the path's segments as the router matches them (``Router/options(method:segments:)``):
    /// its body limit, its offload lane and its rate class. Nil: every request has
    /// ``RouteOptions/standard``.
    public var routeOptions: (@Sendable (HTTPMethod, [String]) -> RouteOptions)?
    /// The proxies whose forwarding headers are believed (`--trusted-proxy`): when a request's TCP
    /// peer lies in one of these ranges, its client's address and scheme are taken from
    /// `Forwarded` or `X-Forwarded-For` and `X-Forwarded-Proto` (``ClientAddress``); from any
    /// other peer those headers are ignored. libmicrohttpd's own ``perIPConnectionLimit`` still
    /// counts TCP peers, so behind a proxy it limits the proxy's connections.
    public var trustedProxies: [AddressRange] = []
    /// Whether requests carry the client's address (for access logs and sign-in throttling);
    /// formatting it costs a little on every request.
    public var recordsClientAddress: Bool = true
    /// Requests too costly for the event-loop workers (password sign-ins, catalog imports) run
    /// on threads of their own, one pool per lane, while their connection is suspended, so
    /// other clients are answered meanwhile. A request goes to the lane its route names
    /// (``RouteOptions/lane``) when the route's test admits it; otherwise it runs on its worker.
    public var offloadLanes: [OffloadLane] = []
    /// The CPU time one client (one address) may use before its requests are slowed: they leave
    /// the event-loop workers for one low-priority thread of their own (``ClientCostLedger``), so
    /// a client looping on expensive requests cannot raise everyone's latency. Nil: no limit.
    public var clientBudget: ClientCostLedger.Budget? = .standard
    /// Requests of clients over their budget that may wait for the slow lane's thread; beyond
    /// that they get 429 with `Retry-After`.
    public var slowLaneQueueLimit: Int = 16
    /// How long a shutdown waits for requests in flight before closing their connections.
    public var shutdownGrace: Duration = .seconds(10)
    /// Event streams (``EventStream``) open at once, in total. When a handler returns a stream
    /// beyond it, the request is answered 503 with `Retry-After` and the stream is closed
    /// (``EventStream/CloseReason/refused``). Streams get at most three quarters of the connection
    /// limit in effect, whatever is configured here, so ordinary requests always find a connection.
    public var maxEventStreams: Int = 1000
    /// Event streams open at once from one client address: beyond it, 429 with `Retry-After`.
    public var maxEventStreamsPerClient: Int = 8
    /// How long an event stream may stay quiet before the server sends it a comment line
    /// (`: keep-alive`), so proxies and clients keep it open; a client that left a quiet stream is
    /// noticed at the latest then. One thread serves every stream's heartbeat.
    public var heartbeatInterval: Duration = .seconds(15)

    /// The defaults: loopback, port 8080, one worker per core.
    public init() {}
}

/// Threads of their own for a kind of request that runs off the event-loop workers; routes name
/// the lane they run on (``RouteLane``).
public struct OffloadLane: Sendable {
    /// What routes call the lane by, and the name of its threads.
    public var name: String
    /// Threads of the lane.
    public var threads: Int
    /// Requests that may wait for a thread; beyond that they get 503 at once.
    public var queueLimit: Int
    /// How far below the workers' priority the lane's threads run (nice steps, 0 to 19): a lane
    /// of long jobs that would otherwise take the cores from every reader.
    public var niceness: Int32

    /// Creates a lane.
    public init(name: String, threads: Int, queueLimit: Int, niceness: Int32 = 0) {
        self.name = name
        self.threads = threads
        self.queueLimit = queueLimit
        self.niceness = niceness
    }
}
