/// An error that knows how a client sees it: ``ErrorMiddleware`` renders it without the handler
/// that threw it catching anything (Hummingbird's `HTTPResponseError`).
///
/// A domain's error conforms once, where its domain meets HTTP, and every route that throws it
/// answers the same way:
///
/// ```swift
/// extension QuotaError: HTTPResponseError {
///     public var httpError: HTTPError? {
///         HTTPError(.tooManyRequests, code: "quota", "the quota is used up for today")
///     }
/// }
/// ```
public protocol HTTPResponseError: Error {
    /// The status, code, message and headers the client sees; `nil` when the failure is the
    /// server's own business, and the client gets a bare 500 while the details go to the log.
    var httpError: HTTPError? { get }
}

extension HTTPError: HTTPResponseError {
    /// The error itself.
    public var httpError: HTTPError? { self }
}
