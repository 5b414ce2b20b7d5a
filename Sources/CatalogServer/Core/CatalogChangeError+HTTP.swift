import CatalogHTTP
import CatalogModel

/// Where catalog management's failures become HTTP answers: a body that is not JSON is a 400
/// `bad_parameter`, a catalog document with problems a 422 `invalid_catalog` listing each at its
/// JSON pointer (`"problems":[{"pointer":"/locale","message":…}]`), a stale `If-Match` a 412
/// `precondition_failed`.
// Here, not beside the error: its target may not know HTTP, and this server is the one place
// that decides how its errors answer.
extension CatalogChangeError: HTTPResponseError {
    public var httpError: HTTPError? {
        switch code {
        case .malformed:
            return .badParameter(message)
        case .staleRevision:
            return HTTPError(.preconditionFailed, code: "precondition_failed", message)
        default:
            return HTTPError(
                .unprocessableContent, code: "invalid_catalog", description,
                problems: problems.map { HTTPError.Problem(pointer: $0.pointer, message: $0.message) })
        }
    }
}
