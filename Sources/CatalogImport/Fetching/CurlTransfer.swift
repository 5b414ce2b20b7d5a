#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import CCurl
import CatalogModel
import Foundation

/// One HTTP request of a download (one hop of a redirect chain) on libcurl, run on the calling
/// thread: a multi handle polled in a loop so the deadline, the silence timeout and a cancel are
/// checked between polls as well as in every callback.
///
/// libcurl never decodes the body (no `CURLOPT_ACCEPT_ENCODING`): ``ContentDecoder`` inflates it
/// as it arrives, counting decoded bytes, and every limit stops the transfer at once (a callback
/// returns 0). Redirects are not followed here: a 3xx ends the hop with its `Location`.
/// `CURLOPT_OPENSOCKETFUNCTION` sees each address before libcurl connects to it, and refuses
/// non-public ones unless the hop may reach them.
///
/// Owns its curl handles and frees them in `deinit`. Not Sendable: it lives on one thread, and
/// libcurl calls back on that thread, inside ``perform()``.
final class CurlTransfer {
    /// How one hop ended.
    enum Outcome {
        /// A 2xx answer, its decoded body in the file.
        case body(bytes: Int64, etag: String?, lastModified: String?)
        /// A 304: the copy the request named is current.
        case notModified
        /// A redirect to `location` (as sent, perhaps relative).
        case redirect(status: Int, location: String)
        /// The hop failed.
        case failure(ImportError)
    }

    /// What every hop of one download shares.
    struct Limits {
        var options: SourceFetcher.Options
        /// The whole download's end.
        var deadline: ContinuousClock.Instant
        /// The URL given, redacted, for messages.
        var display: String
        var control: DownloadControl
    }

    private enum Phase {
        case headers
        case body(ContentDecoder, DownloadFile)
        case done
    }

    private let easy: UnsafeMutableRawPointer
    private let multi: UnsafeMutableRawPointer
    private var requestHeaders: UnsafeMutablePointer<curl_slist>?
    private let url: CurlURL
    private let limits: Limits
    private let destination: URL
    private let mayReachPrivate: Bool

    private var phase = Phase.headers
    private var status = 0
    private var headers: [(name: String, value: String)] = []
    private var outcome: Outcome?
    private var lastActivity = ContinuousClock.now
    private var etag: String?
    private var lastModified: String?

    /// curl_global_init, once per process, before the first handle.
    private static let initialized: Bool = ccurl_global_init() == CURLE_OK

    /// Prepares a request for `url`.
    ///
    /// - Parameters:
    ///   - mayReachPrivate: whether the hop may connect to loopback, link-local, private,
    ///     multicast or unspecified addresses.
    ///   - destination: the file a 2xx body goes to (created then).
    init?(url: CurlURL, limits: Limits, destination: URL, mayReachPrivate: Bool) {
        guard Self.initialized, let easy = curl_easy_init() else { return nil }
        guard let multi = curl_multi_init() else {
            curl_easy_cleanup(easy)
            return nil
        }
        self.easy = easy
        self.multi = multi
        self.url = url
        self.limits = limits
        self.destination = destination
        self.mayReachPrivate = mayReachPrivate
    }

    deinit {
        curl_multi_remove_handle(multi, easy)
        curl_easy_cleanup(easy)
        curl_multi_cleanup(multi)
        curl_slist_free_all(requestHeaders)
    }

    /// Runs the request to its end.
    func perform() -> Outcome {
        guard configure() else { return .failure(failure("cannot set up the download")) }
        guard curl_multi_add_handle(multi, easy) == CURLM_OK else {
            return .failure(failure("cannot start the download"))
        }
        lastActivity = .now
        let result = limits.control.polling(multi) { run() }
        if let outcome { return outcome }
        return finish(result)
    }

    // MARK: - Setting up

    private func configure() -> Bool {
        let options = limits.options
        var headerLines = ["Accept-Encoding: gzip, deflate"]
        if let etag = options.etag.flatMap(Self.headerValue) { headerLines.append("If-None-Match: \(etag)") }
        if let date = options.lastModified.flatMap(Self.headerValue) {
            headerLines.append("If-Modified-Since: \(date)")
        }
        for line in headerLines { requestHeaders = curl_slist_append(requestHeaders, line) }
        // Unretained: libcurl calls back only from inside perform(), while self is alive, and the
        // handle that holds the pointer is cleaned up in deinit.
        let context = Unmanaged.passUnretained(self).toOpaque()
        let timeout = Self.milliseconds(.seconds(options.timeout))
        let remaining = Self.milliseconds(limits.deadline - .now)
        let settings: [CURLcode] = [
            ccurl_setopt_url(easy, url.handle),
            ccurl_allow_http_only(easy),
            ccurl_setopt_long(easy, CURLOPT_NOSIGNAL, 1),
            ccurl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0),
            // Bytes as sent: our decoder inflates and counts them.
            ccurl_setopt_long(easy, CURLOPT_HTTP_CONTENT_DECODING, 0),
            // No proxy from the environment: the address checked must be the feed's own.
            ccurl_setopt_string(easy, CURLOPT_PROXY, ""),
            ccurl_setopt_string(easy, CURLOPT_USERAGENT, "catalog"),
            ccurl_setopt_list(easy, CURLOPT_HTTPHEADER, requestHeaders),
            ccurl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, max(1, min(timeout, remaining))),
            ccurl_setopt_long(easy, CURLOPT_TIMEOUT_MS, max(1, remaining)),
            ccurl_setopt_write_function(easy, CURLOPT_HEADERFUNCTION, Self.headerCallback),
            ccurl_setopt_pointer(easy, CURLOPT_HEADERDATA, context),
            ccurl_setopt_write_function(easy, CURLOPT_WRITEFUNCTION, Self.writeCallback),
            ccurl_setopt_pointer(easy, CURLOPT_WRITEDATA, context),
            ccurl_setopt_opensocket_function(easy, Self.openSocketCallback),
            ccurl_setopt_pointer(easy, CURLOPT_OPENSOCKETDATA, context),
        ]
        return settings.allSatisfy { $0 == CURLE_OK }
    }

    /// A validator fit for a request header (no control characters), else nil.
    private static func headerValue(_ value: String) -> String? {
        value.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } ? nil : value
    }

    // MARK: - Running

    /// Polls until libcurl is done or a limit stops the transfer; libcurl's result, nil when we
    /// stopped it.
    private func run() -> CURLcode? {
        while true {
            var running: Int32 = 0
            guard curl_multi_perform(multi, &running) == CURLM_OK else { return CURLE_FAILED_INIT }
            if outcome != nil { return nil }
            if running == 0 { break }
            if let reason = stopReason() {
                stop(.failure(reason))
                return nil
            }
            let now = ContinuousClock.now
            let wait = min(limits.deadline - now, lastActivity + .seconds(limits.options.timeout) - now, .seconds(1))
            _ = curl_multi_poll(multi, nil, 0, Int32(max(1, Self.milliseconds(wait))), nil)
        }
        var left: Int32 = 0
        var result = CURLE_OK
        while let message = curl_multi_info_read(multi, &left) {
            if ccurl_message_done(message, &result) != 0 { break }
        }
        return result
    }

    /// Cancelled, past the deadline, or silent too long: the error to end with.
    private func stopReason() -> ImportError? {
        let now = ContinuousClock.now
        if limits.control.isCancelled { return failure("cancelled") }
        if now >= limits.deadline { return deadlinePassed }
        if now - lastActivity >= .seconds(limits.options.timeout) { return silence }
        return nil
    }

    private var deadlinePassed: ImportError {
        failure("timed out after \(Self.seconds(limits.options.deadline)) (the whole download)")
    }

    private var silence: ImportError {
        failure("timed out after \(Self.seconds(limits.options.timeout))")
    }

    /// Records how the hop ends (the first word stands) and drops a partial body.
    private func stop(_ end: Outcome) {
        guard outcome == nil else { return }
        if case .failure = end, case .body(_, let file) = phase {
            try? file.close()
            TemporaryFiles.remove(destination)
        }
        phase = .done
        outcome = end
    }

    /// The outcome once libcurl says the transfer ended by itself.
    private func finish(_ result: CURLcode?) -> Outcome {
        guard let result, result == CURLE_OK else {
            stop(.failure(describe(result ?? CURLE_FAILED_INIT)))
            return outcome!
        }
        guard case .body(let decoder, let file) = phase else {
            stop(.failure(failure("no response")))
            return outcome!
        }
        do throws(ContentDecoder.Failure) {
            try decoder.finish()
        } catch {
            stop(.failure(failure("\(error)")))
            return outcome!
        }
        do throws(DownloadFile.Failure) {
            try file.close()
        } catch {
            stop(.failure(storing(error)))
            return outcome!
        }
        phase = .done
        return .body(bytes: file.bytes, etag: etag, lastModified: lastModified)
    }

    // MARK: - Callbacks

    private static let headerCallback: curl_write_callback = { buffer, size, count, context in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
        let length = size * count
        let line = String(decoding: UnsafeRawBufferPointer(start: buffer, count: length), as: UTF8.self)
        return transfer.header(line) ? length : 0
    }

    private static let writeCallback: curl_write_callback = { buffer, size, count, context in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
        let length = size * count
        return transfer.body(UnsafeRawBufferPointer(start: buffer, count: length)) ? length : 0
    }

    private static let openSocketCallback: curl_opensocket_callback = { context, _, address in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
        guard let address else { return ccurl_socket_bad() }
        return transfer.openSocket(address)
    }

    /// One header line; false stops the transfer.
    private func header(_ raw: String) -> Bool {
        guard case .headers = phase else { return true }  // trailers after a chunked body
        lastActivity = .now
        let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            headers = []
            return true
        }
        if !line.isEmpty {
            if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].lowercased()
                headers.append((name, line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            }
            return true
        }
        // The end of a header block: an interim (1xx) one, or the answer's.
        if (100..<200).contains(status) { return true }
        return decide()
    }

    private func headerValue(_ name: String) -> String? {
        let values = headers.filter { $0.name == name }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// Acts on the answer's status and headers; false stops the transfer.
    private func decide() -> Bool {
        switch status {
        case 304:
            stop(.notModified)
            return false
        case 301, 302, 303, 307, 308:
            guard let location = headerValue("location"), !location.isEmpty else {
                stop(.failure(failure("HTTP \(status) without a Location")))
                return false
            }
            stop(.redirect(status: status, location: location))
            return false
        case 200..<300:
            break
        default:
            stop(.failure(failure("HTTP \(status)\(Self.reason(status).map { " \($0)" } ?? "")")))
            return false
        }
        let coding: ContentDecoder.Coding
        do throws(ContentDecoder.Failure) {
            coding = try ContentDecoder.Coding(contentEncoding: headerValue("content-encoding"))
        } catch {
            stop(.failure(failure("\(error)")))
            return false
        }
        // Compressed or not, the bytes sent are bounded too.
        if let length = headerValue("content-length").flatMap({ Int64($0) }), length > limits.options.maxBytes {
            stop(.failure(tooLarge))
            return false
        }
        let file: DownloadFile
        do throws(DownloadFile.Failure) {
            file = try DownloadFile(creating: destination)
        } catch {
            stop(.failure(storing(error)))
            return false
        }
        etag = headerValue("etag")
        lastModified = headerValue("last-modified")
        phase = .body(ContentDecoder(coding: coding, maxBytes: limits.options.maxBytes), file)
        return true
    }

    /// A chunk of the body as sent; false stops the transfer.
    private func body(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard case .body(let decoder, let file) = phase else { return false }
        lastActivity = .now
        if let reason = stopReason() {
            stop(.failure(reason))
            return false
        }
        if decoder.encodedBytes + Int64(chunk.count) > limits.options.maxBytes {
            stop(.failure(tooLarge))
            return false
        }
        var writeError: DownloadFile.Failure?
        do throws(ContentDecoder.Failure) {
            let going = try decoder.decode(chunk) { piece in
                do throws(DownloadFile.Failure) {
                    try file.write(piece)
                } catch {
                    writeError = error
                    return false
                }
                // A bomb inflates fast: look at the clock and the cancel flag between pieces too.
                return !limits.control.isCancelled && ContinuousClock.now < limits.deadline
            }
            if !going {
                stop(.failure(writeError.map(storing) ?? stopReason() ?? failure("stopped")))
                return false
            }
        } catch .tooLarge {
            stop(.failure(tooLarge))
            return false
        } catch {
            stop(.failure(failure("\(error)")))
            return false
        }
        return true
    }

    /// Opens the socket for `address`, or refuses it (the hop then fails naming it).
    private func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        if !mayReachPrivate {
            let checked = NetworkAddress(
                socketAddress: ccurl_socket_address(address), length: Int(address.pointee.addrlen))
            guard let checked, checked.isPublic else {
                let what = checked.map { "\($0.scope.phrase) (\($0))" } ?? "an address of an unknown kind"
                stop(.failure(refusedRedirect(to: url.display, what: what)))
                return ccurl_socket_bad()
            }
        }
        return socket(
            address.pointee.family, address.pointee.socktype | Int32(SOCK_CLOEXEC.rawValue), address.pointee.protocol)
    }

    // MARK: - Messages

    /// `cannot download URL: reason`, at the URL.
    func failure(_ reason: String) -> ImportError {
        ImportError(.io, "cannot download \(limits.display): \(reason)", at: SourceLocation(source: limits.display))
    }

    /// A redirect refused because it leads to a non-public address.
    func refusedRedirect(to target: String, what: String) -> ImportError {
        failure(
            "refused the redirect to \(target), \(what): redirects may not lead to loopback, link-local or private "
                + "addresses (--allow-private-fetch allows them)")
    }

    private var tooLarge: ImportError {
        ImportError(
            .tooLarge,
            "cannot download \(limits.display): larger than \(limits.options.maxBytes / (1024 * 1024)) MB "
                + "(--max-download-mb)", at: SourceLocation(source: limits.display))
    }

    private func storing(_ error: DownloadFile.Failure) -> ImportError {
        ImportError(
            .io, "cannot store the download of \(limits.display): \(ByteSource.describe(errno: error.number))",
            at: SourceLocation(source: limits.display))
    }

    /// libcurl's failure in words.
    private func describe(_ code: CURLcode) -> ImportError {
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return ContinuousClock.now >= limits.deadline - .milliseconds(50) ? deadlinePassed : silence
        case CURLE_COULDNT_CONNECT:
            var number = 0
            _ = ccurl_getinfo_long(easy, CURLINFO_OS_ERRNO, &number)
            switch Int32(number) {
            case ECONNREFUSED: return failure("connection refused")
            case ENETUNREACH, EHOSTUNREACH: return failure("no route to the host")
            default: return failure("cannot connect")
            }
        case CURLE_COULDNT_RESOLVE_HOST: return failure("host not found (DNS lookup failed)")
        case CURLE_GOT_NOTHING: return failure("the server closed the connection without an answer")
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE: return failure("the connection was lost")
        case CURLE_UNSUPPORTED_PROTOCOL: return failure("only http and https URLs can be downloaded")
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE,
            CURLE_SSL_CERTPROBLEM:
            return failure("TLS connection failed (\(String(cString: curl_easy_strerror(code))))")
        default:
            return failure(String(cString: curl_easy_strerror(code)).lowercased())
        }
    }

    /// The reason phrase of common statuses (ours: the server's own text is not shown).
    private static func reason(_ status: Int) -> String? {
        let phrases = [
            400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
            406: "Not Acceptable", 408: "Request Timeout", 410: "Gone", 429: "Too Many Requests",
            500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
            504: "Gateway Timeout",
        ]
        return phrases[status]
    }

    static func seconds(_ interval: TimeInterval) -> String {
        interval == interval.rounded() ? "\(Int(interval)) s" : "\(interval) s"
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(clamping: seconds) &* 1000 &+ Int(attoseconds / 1_000_000_000_000_000)
    }
}
