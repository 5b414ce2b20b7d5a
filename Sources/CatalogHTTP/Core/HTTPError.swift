/// A failure with a status the client should see: thrown by handlers, rendered by
/// ``ErrorMiddleware`` as `{"error":{"code","message"}}`, with `"problems":[{"pointer","message"}]`
/// in it when a request document had problems at JSON pointers.
///
/// `message` is shown to clients: never put secrets, SQL or stack traces in it.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The status to answer with.
    public var status: HTTPStatus
    /// A short machine-readable code (`not_found`, `bad_parameter`).
    public var code: String
    /// A sentence for people.
    public var message: String
    /// Extra headers for the response (`Allow` on 405, `WWW-Authenticate` on 401).
    public var headers: HTTPHeaders
    /// What is wrong where in the request's document (a 422's members); empty for most errors.
    public var problems: [Problem]

    /// One problem of a request document: an RFC 6901 JSON pointer (`/locale`; empty for the
    /// whole document) and a sentence for people.
    public struct Problem: Sendable, Equatable {
        /// Where.
        public var pointer: String
        /// What is wrong there.
        public var message: String

        /// Creates a problem.
        public init(pointer: String, message: String) {
            self.pointer = pointer
            self.message = message
        }
    }

    /// Creates an error.
    public init(
        _ status: HTTPStatus, code: String, _ message: String, headers: HTTPHeaders = HTTPHeaders(),
        problems: [Problem] = []
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
        self.problems = problems
    }

    public var description: String { "\(status.rawValue) \(code): \(message)" }

    /// 400 with code `bad_parameter`.
    public static func badParameter(_ message: String) -> HTTPError {
        HTTPError(.badRequest, code: "bad_parameter", message)
    }

    /// 404 with code `not_found`.
    public static func notFound(_ message: String = "no such resource") -> HTTPError {
        HTTPError(.notFound, code: "not_found", message)
    }
}
