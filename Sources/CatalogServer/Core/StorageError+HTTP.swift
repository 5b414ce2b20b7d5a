import CatalogHTTP
import CatalogStorage

/// Where storage failures become HTTP answers: the one place, for every route (the
/// ``ErrorMiddleware`` asks each error it catches).
///
/// | code | status | `error.code` | message |
/// | --- | --- | --- | --- |
/// | `catalogNotFound`, `itemNotFound`, `userNotFound`, `nameNotFound` | 404 | `not_found` | the error's |
/// | `invalidArgument` (a bad cursor, scope, limit or locale) | 400 | `bad_parameter` | the error's |
/// | `constraint` (a duplicate id) | 409 | `conflict` | the error's |
/// | `busy` | 503, `Retry-After: 1` | `busy` | a fixed sentence |
/// | `cancelled` | 503 | `cancelled` | the error's |
/// | `full` | 507 | `disk_full` | a fixed sentence (the error's names the file) |
/// | `cannotOpen`, `engine` | 500, bare | — | none; the details go to the log |
///
/// A code added later without a row here answers by its fault: a user's mistake is a 400 in its
/// own words, anything else the bare 500.
// Here, not beside the error: its target may not know HTTP, and this server is the one place
// that decides how its errors answer.
extension StorageError: HTTPResponseError {
    public var httpError: HTTPError? {
        switch code {
        case .catalogNotFound, .itemNotFound, .userNotFound, .nameNotFound:
            return .notFound(message)
        case .invalidArgument:
            return .badParameter(message)
        case .constraint:
            return HTTPError(.conflict, code: "conflict", message)
        case .busy:
            return HTTPError(
                .serviceUnavailable, code: "busy", "the database is busy; try again",
                headers: HTTPHeaders([("Retry-After", "1")]))
        case .cancelled:
            return HTTPError(.serviceUnavailable, code: "cancelled", message)
        case .full:
            return HTTPError(
                HTTPStatus(rawValue: 507), code: "disk_full",
                "the disk holding the database is full, so nothing was saved; reads still work")
        default:
            return fault == .user ? .badParameter(message) : nil
        }
    }
}
