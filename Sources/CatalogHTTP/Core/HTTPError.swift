/// A failure with a status the client should see: thrown by handlers, rendered by
/// ``ErrorMiddleware`` as `{"error":{"code","message"}}`.
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
    /// Every bad value of a request body, each named by a JSON pointer (RFC 6901) into it:
    /// written as the error's `problems` (a 422 lists them all, not only the first).
    public var problems: [Problem] = []

    /// One bad value of a request body.
    public struct Problem: Sendable, Equatable {
        /// Where, as a JSON pointer into the body (`/3/upsert/price`; empty for the whole body).
        public var pointer: String
        /// What is wrong.
        public var message: String

        /// Creates a problem.
        public init(pointer: String, message: String) {
            self.pointer = pointer
            self.message = message
        }
    }

    /// Creates an error.
    public init(_ status: HTTPStatus, code: String, _ message: String, headers: HTTPHeaders = HTTPHeaders()) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
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
