/// An HTTP request as handlers see it: method, path, query, headers and body, all decoded.
///
/// The path is kept both raw and as decoded segments: `/images/a%2Fb` has the single segment
/// `a/b`, which a file-serving handler can refuse, where a decoder that ran before splitting
/// would have produced two segments.
public struct Request: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The request target as sent: path and query, still percent-encoded.
    public var rawTarget: String
    /// The path as sent, still percent-encoded, without the query.
    public var rawPath: String
    /// The path's segments, each percent-decoded; empty segments (`//`) are dropped.
    public var segments: [String]
    /// Query parameters in order, decoded (`+` is a space).
    public var query: [(name: String, value: String)]
    /// Header fields.
    public var headers: HTTPHeaders
    /// The body (empty for GET).
    public var body: [UInt8]
    /// Who sent the request: its address and scheme, resolved once from the peer and, behind a
    /// trusted proxy, the forwarding headers (``ClientAddress``). Everything that keys on the
    /// client reads it from here.
    public var client: ClientAddress

    /// The client's address (``client``): for logs, throttles and budgets. Setting it makes the
    /// request a direct one from that address.
    public var clientAddress: String {
        get { client.address }
        set { client = ClientAddress(peer: newValue) }
    }

    /// Creates a request from its parts. Fails when the target is malformed (a bad escape, a NUL,
    /// bytes that are not UTF-8).
    ///
    /// - Parameters:
    ///   - method: the method.
    ///   - target: the request target: path, optionally `?query`.
    ///   - headers: header fields.
    ///   - body: the body.
    ///   - clientAddress: the peer (``client`` is a direct client at that address).
    public init?(
        method: HTTPMethod, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        clientAddress: String = "-"
    ) {
        var segments: [String] = []
        var query: [(name: String, value: String)] = []
        var pathEnd = 0
        var target = target
        let parsed = target.withUTF8 { bytes -> Bool in
            pathEnd = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
            guard let pathSegments = Self.segments(bytes, end: pathEnd) else { return false }
            segments = pathSegments
            guard pathEnd < bytes.count else { return true }
            var start = pathEnd + 1
            for index in start...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "&") {
                if index > start {
                    let pair = bytes[start..<index]
                    let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? index
                    guard let name = PercentDecoding.decode(bytes[start..<equals], plusIsSpace: true),
                        let value = PercentDecoding.decode(
                            bytes[min(equals + 1, index)..<index], plusIsSpace: true)
                    else { return false }
                    query.append((name, value))
                }
                start = index + 1
            }
            return true
        }
        guard parsed else { return nil }
        self.method = method
        self.rawTarget = target
        self.rawPath = pathEnd == target.utf8.count ? target : String(target.utf8.prefix(pathEnd))!
        self.segments = segments
        self.query = query
        self.headers = headers
        self.body = body
        self.client = ClientAddress(peer: clientAddress)
    }

    /// The decoded segments of a raw path (no query), as ``segments`` holds them: empty ones
    /// dropped. Nil when the path is malformed (a bad escape, bytes that are not UTF-8).
    ///
    /// ```swift
    /// Request.segments(ofPath: "//api/v1/catalogs/x/import/")  // ["api", "v1", "catalogs", "x", "import"]
    /// ```
    public static func segments(ofPath path: String) -> [String]? {
        var path = path
        return path.withUTF8 { segments($0, end: $0.count) }
    }

    /// The decoded, non-empty segments of `bytes[..<end]`; nil for a bad escape.
    private static func segments(_ bytes: UnsafeBufferPointer<UInt8>, end: Int) -> [String]? {
        var segments: [String] = []
        var start = 0
        for index in 0...end where index == end || bytes[index] == UInt8(ascii: "/") {
            if index > start {
                guard let segment = PercentDecoding.decode(bytes[start..<index], plusIsSpace: false) else {
                    return nil
                }
                segments.append(segment)
            }
            start = index + 1
        }
        return segments
    }

    /// The first value of query parameter `name`.
    public func query(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }
}
