import CatalogJSON
import CMicroHTTPD
import Foundation
import Synchronization

/// What happens once a request's line and headers are in (the first call of libmicrohttpd's
/// handler): the head's size, its framing (``RequestFraming``) and an announced body's size are
/// checked, and a request that fails is answered and its connection closed before any of its
/// body is read.
enum RequestHead {
    static func received(
        _ pending: PendingRequest, core: ServerCore, connection: OpaquePointer, method: String,
        url: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?
    ) -> MHD_Result {
        pending.started = true
        core.inFlight.add(1, ordering: .relaxed)
        pending.connection = Int(bitPattern: cmhd_socket_context(connection))
        core.connections.requestStarted(pending.connection)

        let headBytes = cmhd_request_header_size(connection)
        // libmicrohttpd cut the target at its first NUL, and put another NUL before the version:
        // the target's length on the wire is the distance between the two.
        let urlAddress = UInt(bitPattern: url)
        let versionAddress = UInt(bitPattern: version)
        var targetLength = pending.targetPrefixLength
        if urlAddress == pending.targetAddress, urlAddress != 0, versionAddress > urlAddress,
            versionAddress - urlAddress <= UInt(max(headBytes, 1))
        {
            targetLength = Int(versionAddress - urlAddress) - 1
        }
        let limit = core.configuration.maxHeaderBytes
        if headBytes > limit {
            let lineTooLong = method.utf8.count + targetLength + 11 > limit
            refuse(connection, lineTooLong ? 414 : 431, limit: limit, core: core)
            return MHD_Result.NO
        }

        withUnsafeMutablePointer(to: &pending.headers) { pointer in
            _ = MHD_get_connection_values(connection, .HEADER_KIND, collectHeader, pointer)
        }
        let verdict = RequestFraming.check(
            version: version.map { String(cString: $0) } ?? "",
            targetHasNUL: pending.targetPrefixLength < targetLength, targetIsVisible: pending.targetIsVisible,
            headers: pending.headers.fields)
        if case .reject(let status, let message) = verdict {
            pending.answered = true
            let code = status == .notImplemented ? "not_implemented" : "bad_request"
            return reject(HTTPError(status, code: code, message), on: connection, core: core, method: method)
        }
        let parameterLimit = core.configuration.maxQueryParameters
        if pending.queryParameters > parameterLimit {
            pending.answered = true
            let error = HTTPError(
                .badRequest, code: "too_many_parameters",
                "a request has at most \(parameterLimit) query parameters, not \(pending.queryParameters)")
            return reject(error, on: connection, core: core, method: method)
        }

        // The route's options, as the router will match it: its body limit now, its lane later.
        let path = url.map { String(cString: $0) } ?? ""
        pending.options = core.routeOptions(method: HTTPMethod(rawValue: method), path: path)
        pending.bodyLimit = pending.options.bodyLimit ?? core.configuration.maxBodyBytes
        if let length = pending.headers["Content-Length"], let announced = Int(length), announced > 0 {
            if announced > pending.bodyLimit {
                pending.tooLarge = true
                pending.answered = true
                return ResponseWriter.queue(
                    ResponseWriter.payloadTooLarge(pending.bodyLimit), on: connection, core: core, method: method)
            }
            // Room for the whole body at once (address space only: pages are taken as bytes
            // arrive): grown by doubling, a 400 MB upload was copied again and again on this
            // connection's worker thread, and every other request on that thread waited for it.
            pending.body.reserveCapacity(announced)
        }
        pending.bodyDeadline = .now + core.configuration.bodyTimeout
        // Answer on a later call, not this one (see the keep-alive note on HTTPServer).
        return MHD_Result.YES
    }

    /// Answers `error` as JSON and closes the connection once it is sent.
    static func reject(_ error: HTTPError, on connection: OpaquePointer, core: ServerCore, method: String)
        -> MHD_Result
    {
        var response = ErrorMiddleware.json(error, Request(method: .get, target: "/")!)
        response.headers["Connection"] = "close"
        return ResponseWriter.queue(response, on: connection, core: core, method: method)
    }

    /// Answers an oversized head by writing a short answer to the socket directly, then lets
    /// libmicrohttpd close the connection. Its own answer would need room in the connection's
    /// memory, which a head this large may have left too little of.
    static func refuse(_ connection: OpaquePointer, _ status: Int, limit: Int, core: ServerCore) {
        let (reason, code, what) =
            status == 414
            ? ("URI Too Long", "uri_too_long", "request line")
            : ("Request Header Fields Too Large", "header_fields_too_large", "request line and headers")
        write(status, reason, code: code, message: "the \(what) must fit in \(limit) bytes", to: connection)
    }

    /// Answers 408 to a request whose body missed its deadline, by writing to the socket directly
    /// (libmicrohttpd cannot queue an answer while a body arrives); the caller then lets
    /// libmicrohttpd close the connection.
    static func bodyTimedOut(_ connection: OpaquePointer, timeout: Duration) {
        write(
            408, "Request Timeout", code: "body_timeout",
            message: "the request body must arrive within \(timeout.components.seconds) s", to: connection)
    }

    /// Writes a short JSON error answer that closes the connection straight to its socket.
    private static func write(
        _ status: Int, _ reason: String, code: String, message: String, to connection: OpaquePointer
    ) {
        let socket = cmhd_connection_fd(connection)
        guard socket >= 0 else { return }
        var output = JSONOutput(capacity: 96)
        output.object { body in
            body.member("error") { error in
                error.object { error in
                    error.string("code", code)
                    error.string("message", message)
                }
            }
        }
        let body = String(decoding: output.bytes, as: UTF8.self)
        let text =
            "HTTP/1.1 \(status) \(reason)\r\nContent-Type: application/json; charset=utf-8\r\n"
            + "Cache-Control: no-store\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    }
}

let collectHeader: MHD_KeyValueIterator = { context, _, key, value in
    guard let context, let key else { return MHD_Result.YES }
    let headers = context.assumingMemoryBound(to: HTTPHeaders.self)
    headers.pointee.add(String(cString: key), value.map { String(cString: $0) } ?? "")
    return MHD_Result.YES
}
