/// An HTTP response: status, headers and a body held in memory or produced in chunks.
///
/// ```swift
/// Response(status: .ok, headers: ["Content-Type": "text/plain"], body: Array("hello".utf8))
/// ```
public struct Response: Sendable {
    /// The body of a response.
    public enum Body: Sendable {
        /// The whole body in memory.
        case bytes([UInt8])
        /// A body produced chunk by chunk while it is sent (a feed of a million records), with
        /// chunked transfer encoding. `open` runs on the thread that sends the response.
        case stream(@Sendable () throws -> any ResponseBodyStream)
        /// A part of a file, sent from the file itself (`sendfile`), with its `Content-Length`.
        case file(FileBody)
        /// A Server-Sent Events stream, open until it finishes, its client leaves or the server
        /// stops; no worker thread waits while it is quiet. Middleware passes it through as it is
        /// (never compressed, cached or given an ETag). Made by ``Response/eventStream(_:)``.
        case eventStream(EventStream)
    }

    /// The status.
    public var status: HTTPStatus
    /// Header fields (`Content-Length` and `Date` are added when the response is sent).
    public var headers: HTTPHeaders
    /// The body.
    public var body: Body

    /// Creates a response with a body in memory.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = .bytes(body)
    }

    /// Creates a response whose body is produced while it is sent.
    public init(
        status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(),
        stream: @escaping @Sendable () throws -> any ResponseBodyStream
    ) {
        self.status = status
        self.headers = headers
        self.body = .stream(stream)
    }

    /// Creates a response whose body is part of a file on disk.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), file: FileBody) {
        self.status = status
        self.headers = headers
        self.body = .file(file)
    }

    /// An event stream's response: 200, `Content-Type: text/event-stream; charset=utf-8`,
    /// `Cache-Control: no-store` and `X-Accel-Buffering: no` (so nginx passes events on at once).
    ///
    /// ```swift
    /// let stream = EventStream()
    /// stream.send(id: "1", data: "hello")
    /// return .eventStream(stream)
    /// ```
    ///
    /// - Parameter stream: the stream; the server admits it when the handler returns (or answers
    ///   503 or 429 and closes it, see ``EventStream``).
    /// - Returns: the response.
    public static func eventStream(_ stream: EventStream) -> Response {
        var response = Response(
            status: .ok,
            headers: HTTPHeaders([
                ("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-store"),
                ("X-Accel-Buffering", "no"),
            ]))
        response.body = .eventStream(stream)
        return response
    }

    /// The in-memory body, or nil for a streamed one.
    public var bytes: [UInt8]? {
        if case .bytes(let bytes) = body { return bytes }
        return nil
    }

    /// A text response.
    public static func text(_ text: String, status: HTTPStatus = .ok, contentType: String = "text/plain; charset=utf-8")
        -> Response
    {
        Response(status: status, headers: HTTPHeaders([("Content-Type", contentType)]), body: Array(text.utf8))
    }
}

/// Produces a streamed body: `nextChunk()` is called until it returns nil. Errors end the
/// response early (the client sees a truncated chunked body) and are logged.
public protocol ResponseBodyStream: AnyObject {
    /// The next piece of the body, or nil at the end. An empty array is allowed and skipped.
    func nextChunk() throws -> [UInt8]?
}

/// Bytes of a file to send: `length` bytes from `offset`. The file is opened when the response is
/// queued, so it may be replaced or removed afterwards without changing what is sent.
public struct FileBody: Sendable, Equatable {
    /// The file.
    public var path: String
    /// Where the bytes start.
    public var offset: UInt64
    /// How many bytes.
    public var length: UInt64

    /// Describes a part of a file.
    public init(path: String, offset: UInt64 = 0, length: UInt64) {
        self.path = path
        self.offset = offset
        self.length = length
    }
}
