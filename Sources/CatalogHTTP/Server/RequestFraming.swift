/// The checks a request's head must pass before its body is read, as a value: given what
/// libmicrohttpd parsed (version, raw target, header fields), it says whether the request is
/// framed unambiguously, and if not, what to answer. The server then answers and closes the
/// connection, so nothing after a doubtful head is ever read as a request (RFC 9112 §6.3, §3.2).
///
/// libmicrohttpd 0.9.75 is lenient where a proxy in front of us may not be: it honours
/// `Transfer-Encoding` over `Content-Length`, reads only the first of several `Content-Length`
/// fields, accepts `Transfer-Encoding` on HTTP/1.0, waits for the end of a body in a coding it
/// does not know, and truncates a target at a raw NUL. Each of those is refused here.
///
/// ```swift
/// let verdict = RequestFraming.check(
///     version: "HTTP/1.1", targetHasNUL: false, targetIsVisible: true,
///     headers: [("Host", "x"), ("Content-Length", "3"), ("Transfer-Encoding", "chunked")])
/// // .reject(400, "both Content-Length and Transfer-Encoding")
/// ```
enum RequestFraming {
    /// The outcome of the check.
    enum Verdict: Equatable {
        /// The head is fine: read the body (if any) and answer.
        case accept
        /// Answer `status` with `message` and close the connection.
        case reject(HTTPStatus, String)
    }

    /// Checks a request head.
    ///
    /// - Parameters:
    ///   - version: the protocol on the request line (`HTTP/1.1`).
    ///   - targetHasNUL: whether the target on the wire held a NUL byte that cut it short.
    ///   - targetIsVisible: whether the target (up to any NUL) is free of spaces and control
    ///     characters (``isVisible(_:)``).
    ///   - headers: every header field in order, names as sent.
    /// - Returns: whether to go on, or what to answer before closing.
    static func check(
        version: String, targetHasNUL: Bool, targetIsVisible: Bool, headers: [(name: String, value: String)]
    ) -> Verdict {
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            return .reject(HTTPStatus(rawValue: 505), "only HTTP/1.0 and HTTP/1.1 are supported")
        }
        if targetHasNUL { return .reject(.badRequest, "the request target contains a NUL byte") }
        guard targetIsVisible else {
            return .reject(.badRequest, "the request target contains spaces or control characters")
        }
        var hosts: [String] = []
        var lengths: [String] = []
        var codings: [String] = []
        var encodingFields = 0
        for (name, value) in headers {
            guard isToken(name) else {
                // Covers `Host : x`, where the field name would be "Host " (RFC 9112 §5.1).
                return .reject(.badRequest, "a header field name is malformed (no spaces before the colon)")
            }
            if value.utf8.contains(where: { $0 == 0 || $0 == 13 || $0 == 10 }) {
                return .reject(.badRequest, "a header field value contains a control character")
            }
            if HTTPHeaders.same(name, "Host") {
                hosts.append(value)
            } else if HTTPHeaders.same(name, "Content-Length") {
                lengths.append(value)
            } else if HTTPHeaders.same(name, "Transfer-Encoding") {
                encodingFields += 1
                codings += value.split(separator: ",", omittingEmptySubsequences: false).map {
                    $0.trimmingASCIIWhitespace().lowercased()
                }
            }
        }
        if version == "HTTP/1.1" && hosts.isEmpty {
            return .reject(.badRequest, "an HTTP/1.1 request needs a Host header")
        }
        if hosts.count > 1 { return .reject(.badRequest, "a request has one Host header, not \(hosts.count)") }
        if let host = hosts.first, !isValidHost(host) {
            return .reject(.badRequest, "the Host header is malformed")
        }
        if encodingFields > 0 {
            if version == "HTTP/1.0" {
                return .reject(.badRequest, "Transfer-Encoding is not allowed on HTTP/1.0")
            }
            if !lengths.isEmpty {
                return .reject(.badRequest, "a request cannot have both Content-Length and Transfer-Encoding")
            }
            if let unknown = codings.first(where: { $0 != "chunked" }) {
                return .reject(
                    .notImplemented,
                    unknown.isEmpty
                        ? "the Transfer-Encoding header is malformed"
                        : "the transfer coding \"\(printable(unknown))\" is not supported; use chunked")
            }
            // The only coding is chunked, applied once, in one field spelled exactly as
            // libmicrohttpd compares it (otherwise it would not decode the chunks).
            guard codings.count == 1, encodingFields == 1,
                let field = headers.first(where: { HTTPHeaders.same($0.name, "Transfer-Encoding") }),
                HTTPHeaders.same(field.value, "chunked")
            else { return .reject(.badRequest, "the Transfer-Encoding header is malformed") }
        }
        if let first = lengths.first {
            guard lengths.allSatisfy({ isDigits($0) }) else {
                return .reject(.badRequest, "the Content-Length header is malformed")
            }
            guard lengths.allSatisfy({ $0 == first }) else {
                return .reject(.badRequest, "the request has several different Content-Length headers")
            }
        }
        return .accept
    }

    /// A target is visible ASCII (or UTF-8 beyond it, which some clients send raw): not empty,
    /// no spaces, no control characters.
    static func isVisible(_ target: UnsafeBufferPointer<UInt8>) -> Bool {
        !target.isEmpty && !target.contains { $0 <= 0x20 || $0 == 0x7F }
    }

    /// RFC 9110 token characters.
    static func isToken(_ name: String) -> Bool {
        isMade(of: name, lettersDigitsAnd: "!#$%&'*+-.^_`|~")
    }

    /// `host[:port]`, a name, an IPv4 address or a bracketed IPv6 address; nothing that could
    /// carry a path, user info or spaces.
    static func isValidHost(_ host: String) -> Bool {
        host.utf8.count <= 255 && isMade(of: host, lettersDigitsAnd: ".-_:[]")
    }

    /// Whether `text` is not empty and holds only ASCII letters, digits and bytes of `others`.
    static func isMade(of text: String, lettersDigitsAnd others: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    return true
                default:
                    return others.utf8.contains(byte)
                }
            }
    }

    static func isDigits(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 19 && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// At most 40 visible ASCII characters of a client's text, for a message.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(40).filter { $0.value > 0x20 && $0.value < 0x7F }))
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    func trimmingASCIIWhitespace() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
