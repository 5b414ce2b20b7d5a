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

/// Sends requests through a `URLSession`: cancelling the calling task cancels the request, and
/// every failure is a ``CatalogClientError``.
struct HTTPTransport: Sendable {
    let session: URLSession

    /// Sends `request` and waits for the whole answer, at most `request.timeoutInterval` seconds
    /// (enforced here: FoundationNetworking on Linux keeps the session's 60 s instead).
    ///
    /// - Throws: ``CatalogClientError`` `.cancelled` when the task is cancelled (the request is
    ///   cancelled with it), `.timedOut`, or another transport code.
    func send(_ request: URLRequest) async throws(CatalogClientError) -> HTTPAnswer {
        guard !Task.isCancelled else { throw CatalogClientError(.cancelled, "the request was cancelled") }
        let slot = TaskSlot()
        // A timer of Dispatch's, not a task: it fires on time even when the cooperative threads
        // are all busy.
        let timer = DispatchWorkItem { slot.timeOut() }
        DispatchQueue.global().asyncAfter(deadline: .now() + request.timeoutInterval, execute: timer)
        defer { timer.cancel() }
        let result: Result<HTTPAnswer, CatalogClientError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    slot.finish()
                    if let error {
                        continuation.resume(returning: .failure(.transport(error, url: request.url)))
                        return
                    }
                    guard let http = response as? HTTPURLResponse else {
                        continuation.resume(
                            returning: .failure(
                                CatalogClientError(
                                    .transport, "the answer is not HTTP",
                                    url: request.url.map(CatalogClientError.display))))
                        return
                    }
                    var headers: [String: String] = [:]
                    for (name, value) in http.allHeaderFields {
                        if let name = name as? String, let value = value as? String {
                            headers[name.lowercased()] = value
                        }
                    }
                    continuation.resume(
                        returning: .success(HTTPAnswer(status: http.statusCode, body: data ?? Data(), headers: headers))
                    )
                }
                task.resume()
                if slot.hold(task) { task.cancel() }
            }
        } onCancel: {
            slot.cancel()
        }
        if case .failure = result {
            if slot.timedOut {
                throw CatalogClientError(
                    .timedOut, "\(request.url?.host ?? "the server") did not answer in time",
                    url: request.url.map(CatalogClientError.display))
            }
            if Task.isCancelled {
                throw CatalogClientError(
                    .cancelled, "the request was cancelled", url: request.url.map(CatalogClientError.display))
            }
        }
        return try result.get()
    }
}

/// The running URLSession task of one call, so cancellation (which may come first) reaches it.
final class TaskSlot: Sendable {
    private struct State {
        var task: URLSessionTask?
        var cancelled = false
        var timedOut = false
        var finished = false
    }

    private let state = Mutex(State())

    /// Keeps `task`; true when the call was already cancelled (the caller cancels the task).
    func hold(_ task: URLSessionTask) -> Bool {
        state.withLock { state in
            state.task = task
            return state.cancelled
        }
    }

    /// Whether ``timeOut()`` cancelled the task.
    var timedOut: Bool { state.withLock { $0.timedOut } }

    /// Notes that the task's answer or error came: a timer firing later changes nothing, so an
    /// error that came in time (a refused connection) is never reported as a timeout, however
    /// late the calling task gets to look at it.
    func finish() {
        state.withLock { $0.finished = true }
    }

    /// Cancels the task because its time is up, unless it has already finished.
    func timeOut() {
        let late = state.withLock { state -> Bool in
            guard !state.finished else { return false }
            state.timedOut = true
            return true
        }
        if late { cancel() }
    }

    /// Cancels the task, now or as soon as it is held.
    func cancel() {
        let task = state.withLock { state -> URLSessionTask? in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }
}
