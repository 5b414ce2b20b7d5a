/// Turns thrown errors into responses: an ``HTTPError`` into its status and a JSON body
/// `{"error":{"code","message"}}`, anything else into a bare 500 whose details go to the log only.
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
        } catch let error as HTTPError {
            return render(error, request)
        } catch {
            log("error: \(request.method) \(request.rawPath): \(String(reflecting: error))")
            return Response.text("Internal Server Error\n", status: .internalServerError)
        }
    }

    /// `{"error":{"code":…,"message":…}}` with the error's status and headers.
    @Sendable public static func json(_ error: HTTPError, _ request: Request) -> Response {
        var body = "{\"error\":{\"code\":"
        JSONString.append(error.code, to: &body)
        body += ",\"message\":"
        JSONString.append(error.message, to: &body)
        body += "}}"
        var response = Response(
            status: error.status, headers: error.headers, body: Array(body.utf8))
        response.headers["Content-Type"] = "application/json; charset=utf-8"
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}

/// Writes JSON string literals.
public enum JSONString {
    /// Appends `value` as a quoted JSON string, escaping quotes, backslashes, control characters
    /// and `<`, `>`, `&` (so JSON embedded in HTML can never close a script element).
    public static func append(_ value: String, to output: inout String) {
        output.append("\"")
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output.append("\\\"")
            case "\\": output.append("\\\\")
            case "\n": output.append("\\n")
            case "\r": output.append("\\r")
            case "\t": output.append("\\t")
            case "<", ">", "&", "\u{2028}", "\u{2029}":
                output.append("\\u" + hex4(scalar.value))
            case _ where scalar.value < 0x20:
                output.append("\\u" + hex4(scalar.value))
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output.append("\"")
    }

    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
