import Foundation

/// How an ``HTTPServer`` listens and what it tolerates from clients.
///
/// The limits are the first defence against slow and oversized clients: libmicrohttpd enforces
/// the connection counts, the idle timeout and the memory per connection (which bounds the
/// request line and headers: longer ones get 414 or 431); the server enforces the body size (413).
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
    /// Seconds a connection may stay without any traffic before it is closed. Every worker
    /// multiplexes its connections, so a client that trickles bytes ties up a connection slot and
    /// a little memory, never a thread.
    public var connectionTimeout: Int = 30
    /// Bytes of memory per connection for the request line, headers and read buffer.
    /// libmicrohttpd clears this memory between requests, so it is kept modest.
    public var connectionMemoryLimit: Int = 16 * 1024
    /// The largest request body accepted (413 beyond it), unless ``bodyLimit`` says otherwise.
    public var maxBodyBytes: Int = 1 << 20
    /// A larger (or smaller) body limit for some requests, such as uploads: given the method and
    /// the raw path, returns the limit in bytes, or nil for ``maxBodyBytes``.
    public var bodyLimit: (@Sendable (HTTPMethod, String) -> Int?)?
    /// Whether requests carry the client's address (for access logs); formatting it costs a
    /// little on every request, so a server without a log turns it off.
    public var recordsClientAddress: Bool = true
    /// How long a shutdown waits for requests in flight before closing their connections.
    public var shutdownGrace: Duration = .seconds(10)

    /// The defaults: loopback, port 8080, one worker per core.
    public init() {}
}
