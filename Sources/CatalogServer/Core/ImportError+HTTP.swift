import CatalogHTTP
import CatalogModel

/// Where import failures become HTTP answers: every code is a 422 `import_failed` whose message
/// says where the problem is (`upload:12:7: unterminated quoted field`), credentials hidden. The
/// import route's own time limit is answered by the route (503 `import_timeout`), since only it
/// knows the deadline.
// Here, not beside the error: its target may not know HTTP, and this server is the one place
// that decides how its errors answer.
extension ImportError: HTTPResponseError {
    public var httpError: HTTPError? {
        HTTPError(.unprocessableContent, code: "import_failed", description)
    }
}
