import CatalogHTTP
import CatalogStorage

/// How storage failures reach clients.
enum StorageErrors {
    /// Runs `body`, turning storage errors a client caused into HTTP errors: unknown catalog,
    /// item, section, category or scope → 404, a bad cursor or scope → 400, a busy database → 503, a full disk → 507. Other failures stay
    /// unexpected (a bare 500 with a log line).
    static func map<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StorageError {
            switch error.code {
            case .catalogNotFound, .itemNotFound, .userNotFound, .nameNotFound:
                throw HTTPError.notFound(error.message)
            case .invalidArgument:
                throw HTTPError.badParameter(error.message)
            case .busy:
                throw HTTPError(
                    .serviceUnavailable, code: "busy", "the database is busy; try again",
                    headers: HTTPHeaders([("Retry-After", "1")]))
            case .constraint:
                throw HTTPError(.conflict, code: "conflict", error.message)
            case .cancelled:
                throw HTTPError(.serviceUnavailable, code: "cancelled", error.message)
            case .full:
                // Not the error's own message: that names the file, which is the server's business.
                throw HTTPError(
                    HTTPStatus(rawValue: 507), code: "disk_full",
                    "the disk holding the database is full, so nothing was saved; reads still work")
            case .cannotOpen, .engine:
                throw error
            }
        }
    }
}
