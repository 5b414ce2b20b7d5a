import CatalogJSON
import CatalogSupport

/// Turns thrown errors into responses, in one place: an ``HTTPError``, or any error conforming to
/// ``HTTPResponseError`` that has an answer for clients, into its status and a JSON body
/// `{"error":{"code","message"}}`, with `"problems":[{"pointer","message"}]` when it has any (or
/// what `render` makes of it); anything else into a bare 500
/// whose details go to the log only.
public struct ErrorMiddleware: Middleware {
    /// Receives the details of unexpected errors.
    public var log: @Sendable (String) -> Void
    /// Renders an ``HTTPError``; the default is the API's JSON shape.
    public var render: @Sendable (HTTPError, Request) -> Response

    /// Creates the middleware.
    public init(
        log: @escaping @Sendable (String) -> Void,
        render: @escaping @Sendable (HTTPError, Request) -> Response = ErrorMiddleware.json
    ) {
        self.log = log
        self.render = render
    }

    public func respond(to request: Request, context: RequestContext, next: any Responder) throws -> Response {
        do {
            return try next.respond(to: request, context: context)
        } catch let error as any HTTPResponseError {
            if let answer = error.httpError { return render(answer, request) }
            return unexpected(error, request, context)
        } catch {
            return unexpected(error, request, context)
        }
    }

    /// A bare 500; the error's `debugDescription`, credentials hidden, goes to the log with the
    /// request's id (``ObservationMiddleware`` put it in the request's `X-Request-Id`), and into
    /// the request's notes for its access-log line.
    private func unexpected(_ error: any Error, _ request: Request, _ context: RequestContext) -> Response {
        let details = Credentials.scrubbed(String(reflecting: error))
        let id = request.headers["X-Request-Id"].map { " request \($0)" } ?? ""
        log("error:\(id) \(request.method) \(request.rawPath): \(details)")
        context.notes?.error = details
        return Response.text("Internal Server Error\n", status: .internalServerError)
    }

    /// `{"error":{"code":…,"message":…}}` with the error's status and headers, and
    /// `"problems":[{"pointer":…,"message":…}]` in `error` when the error has problems.
    @Sendable public static func json(_ error: HTTPError, _ request: Request) -> Response {
        var output = JSONOutput(capacity: error.message.utf8.count + 48)
        output.object { body in
            body.member("error") { output in
                output.object { object in
                    object.string("code", error.code)
                    object.string("message", Credentials.scrubbed(error.message))
                    if !error.problems.isEmpty {
                        object.member("problems") { output in
                            output.array(error.problems) { output, problem in
                                output.object { object in
                                    object.string("message", Credentials.scrubbed(problem.message))
                                    object.string("pointer", problem.pointer)
                                }
                            }
                        }
                    }
                }
            }
        }
        let body = String(decoding: output.bytes, as: UTF8.self)
        var response = Response(
            status: error.status, headers: error.headers, body: Array(body.utf8))
        response.headers["Content-Type"] = "application/json; charset=utf-8"
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
