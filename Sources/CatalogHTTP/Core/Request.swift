/// An HTTP request as handlers see it: method, path, query, headers and body, all decoded.
///
/// The path is kept both raw and as decoded segments: `/images/a%2Fb` has the single segment
/// `a/b`, which a file-serving handler can refuse, where a decoder that ran before splitting
/// would have produced two segments.
public struct Request: Sendable {
    /// The method.
    public var method: HTTPMethod
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
    /// The client's address, for logs.
    public var clientAddress: String

    /// Creates a request from its parts. Fails when the target is malformed (a bad escape, a NUL,
    /// bytes that are not UTF-8).
    ///
    /// - Parameters:
    ///   - method: the method.
    ///   - target: the request target: path, optionally `?query`.
    ///   - headers: header fields.
    ///   - body: the body.
    ///   - clientAddress: the peer, for logs.
    public init?(
        method: HTTPMethod, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        clientAddress: String = "-"
    ) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts.first.map(String.init) ?? ""
        var segments: [String] = []
        for piece in path.split(separator: "/", omittingEmptySubsequences: true) {
            guard let segment = PercentDecoding.decode(piece, plusIsSpace: false) else { return nil }
            segments.append(segment)
        }
        var query: [(name: String, value: String)] = []
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&", omittingEmptySubsequences: true) {
                let nameValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = PercentDecoding.decode(nameValue[0], plusIsSpace: true),
                    let value = PercentDecoding.decode(nameValue.count == 2 ? nameValue[1] : "", plusIsSpace: true)
                else { return nil }
                query.append((name, value))
            }
        }
        self.method = method
        self.rawPath = path
        self.segments = segments
        self.query = query
        self.headers = headers
        self.body = body
        self.clientAddress = clientAddress
    }

    /// The first value of query parameter `name`.
    public func query(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// The path and query as sent, for logs.
    public var target: String {
        guard !query.isEmpty else { return rawPath }
        return rawPath + "?" + query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
    }
}
