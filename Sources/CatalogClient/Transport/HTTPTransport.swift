import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An HTTP answer as the client library reads it.
struct HTTPAnswer: Sendable {
    /// The status code.
    var status: Int
    /// The body (empty for 304 and HEAD).
    var body: Data
    /// Header fields by lower-cased name.
    var headers: [String: String]

    subscript(header name: String) -> String? { headers[name.lowercased()] }
}

/// Sends requests and reads their answers as the bytes arrive, so that a time limit counts the
/// server's silence, never a transfer that is still flowing: cancelling the calling task cancels
/// the request, and every failure is a ``CatalogClientError``.
///
/// Requests go through a session of the transport's own, made with the configuration of the
/// session the client was given, whose delegate sees each chunk (a completion handler only sees
/// the end). Two limits, both enforced here with Dispatch timers (FoundationNetworking on Linux
/// keeps the session's 60 s whatever `URLRequest.timeoutInterval` says):
/// - `request.timeoutInterval`: the longest silence, from the start until the answer begins and
///   between any two chunks of it (what Apple's URLSession means by it too);
/// - ``totalTimeout``: the longest a whole request may take, nil for no limit.
final class HTTPTransport: Sendable {
    /// The longest a whole request may take, in seconds; nil for no limit.
    let totalTimeout: TimeInterval?
    /// The identifier of a background configuration the client was given, which cannot carry
    /// its requests (every request is then refused, saying so).
    let backgroundIdentifier: String?
    private let session: URLSession
    private let transfers: TransferTable

    /// A transport with `configuration` (copied: the caller's is never changed); refusing every
    /// request when `configuration` (or, where the platform has none, `backgroundIdentifier`)
    /// names a background session.
    init(configuration: URLSessionConfiguration, totalTimeout: TimeInterval?, backgroundIdentifier: String? = nil) {
        self.totalTimeout = totalTimeout
        self.backgroundIdentifier = configuration.identifier ?? backgroundIdentifier
        transfers = TransferTable()
        session = .transport(configuration: configuration, delegate: transfers) { copy in
            // The limits are the transport's; the session's own must not cut in first.
            copy.timeoutIntervalForRequest = max(copy.timeoutIntervalForRequest, 7 * 24 * 3600)
            copy.timeoutIntervalForResource = max(copy.timeoutIntervalForResource, 7 * 24 * 3600)
        }
    }

    /// Lets running requests finish, then releases the session (and its delegate).
    func invalidate() {
        session.finishTasksAndInvalidate()
    }

    /// Sends `request` and waits for the whole answer.
    ///
    /// - Throws: ``CatalogClientError`` `.cancelled` when the task is cancelled (the request is
    ///   cancelled with it), `.timedOut` when the server was silent for `request.timeoutInterval`
    ///   seconds or the request took longer than ``totalTimeout``, or another transport code.
    func send(_ request: URLRequest) async throws(CatalogClientError) -> HTTPAnswer {
        guard !Task.isCancelled else { throw CatalogClientError(.cancelled, "the request was cancelled") }
        if let backgroundIdentifier {
            // A background session hands its transfers to the system and delivers them to an app
            // that may have been relaunched: it has no data tasks whose bytes arrive here.
            throw CatalogClientError(
                .invalidArgument,
                "the client cannot send requests through a background URLSession configuration "
                    + "(\"\(backgroundIdentifier)\"): give it a session with a default or ephemeral configuration",
                url: request.url.map(CatalogClientError.display))
        }
        let transfer = Transfer(url: request.url)
        let result: Result<HTTPAnswer, CatalogClientError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfer.wait(with: continuation)
                let task = session.dataTask(with: request)
                transfers.add(transfer, for: task)
                transfer.watch(task, silence: request.timeoutInterval, total: totalTimeout)
                task.resume()
            }
        } onCancel: {
            transfer.cancel()
        }
        if case .failure = result, let limit = transfer.timedOut {
            let host = request.url?.host ?? "the server"
            let url = request.url.map(CatalogClientError.display)
            switch limit {
            case .silence(let seconds):
                throw CatalogClientError(
                    .timedOut, "\(host) did not answer in time (silent for \(Self.seconds(seconds)))", url: url)
            case .total(let seconds):
                throw CatalogClientError(
                    .timedOut, "\(host) did not finish the answer within \(Self.seconds(seconds))", url: url)
            }
        }
        if case .failure = result, Task.isCancelled {
            throw CatalogClientError(
                .cancelled, "the request was cancelled", url: request.url.map(CatalogClientError.display))
        }
        return try result.get()
    }

    /// `30 s`, `0.5 s`
    static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

/// The session's delegate: hands each task's events to its ``Transfer``.
final class TransferTable: NSObject, URLSessionDataDelegate, Sendable {
    private let running = Mutex<[Int: Transfer]>([:])

    /// Routes `task`'s events to `transfer` until it completes.
    func add(_ transfer: Transfer, for task: URLSessionTask) {
        running.withLock { $0[task.taskIdentifier] = transfer }
    }

    private func transfer(of task: URLSessionTask) -> Transfer? {
        running.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        transfer(of: dataTask)?.received(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        transfer(of: dataTask)?.received(data)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        // An upload in progress is no silence either.
        transfer(of: task)?.stirred()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let transfer = running.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        transfer?.completed(response: task.response, error: error)
    }
}

/// One request's answer as it arrives, its limits, and the continuation its caller waits on.
final class Transfer: Sendable {
    /// Which limit cancelled the request.
    enum Limit: Sendable, Equatable {
        /// Nothing arrived for this many seconds.
        case silence(TimeInterval)
        /// The request took longer than this many seconds.
        case total(TimeInterval)
    }

    private struct State {
        var status = 0
        var headers: [String: String] = [:]
        var body = Data()
        var lastActivity = DispatchTime.now()
        var finished = false
        var cancelled = false
        var timedOut: Limit?
        var task: URLSessionTask?
        var continuation: CheckedContinuation<Result<HTTPAnswer, CatalogClientError>, Never>?
    }

    private let state = Mutex(State())
    private let url: URL?

    init(url: URL?) {
        self.url = url
    }

    /// The limit that cancelled the request, nil when none did.
    var timedOut: Limit? { state.withLock { $0.timedOut } }

    /// Keeps the continuation ``completed(response:error:)`` resumes.
    func wait(with continuation: CheckedContinuation<Result<HTTPAnswer, CatalogClientError>, Never>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Starts the limits' timer for `task` (from now) and cancels it if the call was cancelled
    /// before the task existed.
    func watch(_ task: URLSessionTask, silence: TimeInterval, total: TimeInterval?) {
        let started = DispatchTime.now()
        let cancelled = state.withLock { state -> Bool in
            state.task = task
            state.lastActivity = started
            return state.cancelled
        }
        if cancelled {
            task.cancel()
            return
        }
        check(at: Self.next(after: started, silence: silence, started: started, total: total)) { [self] in
            verdict(silence: silence, started: started, total: total)
        }
    }

    /// The earlier of the moment the silence limit runs out and the total deadline.
    private static func next(
        after activity: DispatchTime, silence: TimeInterval, started: DispatchTime, total: TimeInterval?
    )
        -> DispatchTime
    {
        let quiet = activity + silence
        guard let total else { return quiet }
        return min(quiet, started + total)
    }

    /// Runs `verdict` at `time`; it answers when to look again (nil: never).
    private func check(at time: DispatchTime, _ verdict: @escaping @Sendable () -> DispatchTime?) {
        DispatchQueue.global().asyncAfter(deadline: time) { [self] in
            if let again = verdict() { check(at: again, verdict) }
        }
    }

    /// Cancels the task when a limit has run out; otherwise the next time to look.
    private func verdict(silence: TimeInterval, started: DispatchTime, total: TimeInterval?) -> DispatchTime? {
        let now = DispatchTime.now()
        let (task, next) = state.withLock { state -> (URLSessionTask?, DispatchTime?) in
            guard !state.finished, state.timedOut == nil else { return (nil, nil) }
            if let total, now >= started + total {
                state.timedOut = .total(total)
                return (state.task, nil)
            }
            if now >= state.lastActivity + silence {
                state.timedOut = .silence(silence)
                return (state.task, nil)
            }
            return (nil, Self.next(after: state.lastActivity, silence: silence, started: started, total: total))
        }
        task?.cancel()
        return next
    }

    /// Something arrived or left: the silence starts again.
    func stirred() {
        state.withLock { $0.lastActivity = .now() }
    }

    /// The answer's status and headers arrived.
    func received(_ response: URLResponse) {
        let http = response as? HTTPURLResponse
        var headers: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        state.withLock { state in
            state.status = http?.statusCode ?? 0
            state.headers = headers
            state.lastActivity = .now()
        }
    }

    /// A chunk of the body arrived.
    func received(_ data: Data) {
        state.withLock { state in
            state.body.append(data)
            state.lastActivity = .now()
        }
    }

    /// The task ended: the caller gets the answer or the error.
    func completed(response: URLResponse?, error: (any Error)?) {
        if let response, error == nil, state.withLock({ $0.status == 0 }) { received(response) }
        let (continuation, result) = state.withLock {
            state -> (
                CheckedContinuation<Result<HTTPAnswer, CatalogClientError>, Never>?,
                Result<HTTPAnswer, CatalogClientError>
            ) in
            state.finished = true
            // The limits' timer keeps this object until its next look: not the body too.
            let body = state.body
            state.body = Data()
            let continuation = state.continuation
            state.continuation = nil
            if let error { return (continuation, .failure(.transport(error, url: url))) }
            guard state.status != 0 else {
                return (
                    continuation,
                    .failure(
                        CatalogClientError(
                            .transport, "the answer is not HTTP", url: url.map(CatalogClientError.display)))
                )
            }
            return (continuation, .success(HTTPAnswer(status: state.status, body: body, headers: state.headers)))
        }
        continuation?.resume(returning: result)
    }

    /// Cancels the task, now or as soon as it exists.
    func cancel() {
        let task = state.withLock { state -> URLSessionTask? in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }
}
