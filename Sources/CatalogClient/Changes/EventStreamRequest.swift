import CatalogModel
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One open `text/event-stream` request, read as it arrives: a data task of a session of its own
/// whose delegate parses each chunk (``ServerSentEventParser``) into a queue that ``next()``
/// takes from. A stream silent (not even a heartbeat comment) for longer than its idle limit is
/// cancelled as timed out. ``close()`` (or the last reference going) cancels the task.
///
/// Foundation's `URLSession.bytes(for:)` would be shorter, but swift-corelibs-foundation does not
/// have it; a data task's `didReceive data` works on every platform.
final class EventStreamRequest: Sendable {
    /// What the stream has to say next.
    enum Signal: Sendable {
        /// The answer's status and headers (lower-cased names), first.
        case response(status: Int, headers: [String: String])
        /// Events the stream completed, in order.
        case events([ServerSentEvent])
        /// The request ended: with an error, or (nil) because the server closed the stream. `body`
        /// is what a non-200 answer sent (at most 64 KiB).
        case ended(CatalogClientError?, body: Data)
    }

    private let session: URLSession
    private let task: URLSessionDataTask
    private let receiver: Receiver
    private let isClosed = Atomic(false)

    /// Starts `request` through a session made with `configuration`.
    init(_ request: URLRequest, configuration: URLSessionConfiguration, idleTimeout: Duration) {
        receiver = Receiver(url: request.url)
        session = .transport(configuration: configuration, delegate: receiver)
        task = session.dataTask(with: request)
        let seconds = Double(idleTimeout.components.seconds) + Double(idleTimeout.components.attoseconds) / 1e18
        receiver.watch(task, limit: seconds)
        task.resume()
    }

    deinit {
        close()
    }

    /// The reconnection time the stream asked for with `retry:`, in milliseconds.
    var reconnectionTime: Int? { receiver.reconnectionTime }

    /// Cancels the request; ``next()`` then answers `.ended`.
    func close() {
        guard !isClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        receiver.closed()
        task.cancel()
        session.invalidateAndCancel()
    }

    /// The next signal; waits while there is none.
    ///
    /// - Throws: ``CatalogClientError/Code/cancelled`` when the calling task is cancelled (the
    ///   request is cancelled with it).
    func next() async throws(CatalogClientError) -> Signal {
        while true {
            if Task.isCancelled {
                close()
                throw CatalogClientError(.cancelled, "following the changes was cancelled")
            }
            if let signal = receiver.take() { return signal }
            await withTaskCancellationHandler {
                await receiver.waitForMore()
            } onCancel: {
                receiver.wake()
            }
        }
    }

    /// The task's delegate: keeps what arrived until ``EventStreamRequest/next()`` takes it.
    final class Receiver: NSObject, URLSessionDataDelegate, Sendable {
        private struct State {
            var response: (status: Int, headers: [String: String])?
            var responseTaken = false
            var events: [ServerSentEvent] = []
            var body = Data()
            var parser = ServerSentEventParser(maximumLength: 4 * RecordChangeLimits.maxRecordBytes)
            var status = 0
            var ended = false
            var failure: CatalogClientError?
            var timedOut = false
            var lastActivity = DispatchTime.now()
            /// Something arrived since the last look.
            var dirty = false
            var waiter: CheckedContinuation<Void, Never>?
        }

        private let state = Mutex(State())
        private let url: URL?

        init(url: URL?) {
            self.url = url
        }

        var reconnectionTime: Int? { state.withLock { $0.parser.reconnectionTime } }

        /// Cancels `task` once nothing has arrived for more than `limit` seconds (its end then
        /// says it timed out), looking every quarter of the limit until the request ends. A timer
        /// of Dispatch's, not a task: it fires on time even when the cooperative threads are busy.
        func watch(_ task: URLSessionDataTask, limit: Double) {
            DispatchQueue.global().asyncAfter(deadline: .now() + limit / 4) { [self] in
                let verdict = state.withLock { state -> Bool? in
                    guard !state.ended else { return nil }
                    let quiet = Double(DispatchTime.now().uptimeNanoseconds - state.lastActivity.uptimeNanoseconds)
                    guard quiet / 1e9 > limit else { return false }
                    state.timedOut = true
                    return true
                }
                switch verdict {
                case nil: return
                case true?: task.cancel()
                case false?: watch(task, limit: limit)
                }
            }
        }

        /// The request was closed: the watch ends.
        func closed() {
            state.withLock { $0.ended = true }
            wake()
        }

        /// The next signal, nil for none yet.
        func take() -> Signal? {
            state.withLock { state in
                state.dirty = false
                if let response = state.response, !state.responseTaken {
                    state.responseTaken = true
                    return .response(status: response.status, headers: response.headers)
                }
                if !state.events.isEmpty {
                    defer { state.events = [] }
                    return .events(state.events)
                }
                if state.ended { return .ended(state.failure, body: state.body) }
                return nil
            }
        }

        /// Returns once something arrived since the last ``take()`` (at once if it already has).
        func waitForMore() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.dirty || Task.isCancelled { return true }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        }

        /// Ends a wait (new signals, or the caller's cancellation).
        func wake() {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.dirty = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            let http = response as? HTTPURLResponse
            var headers: [String: String] = [:]
            for (name, value) in http?.allHeaderFields ?? [:] {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            state.withLock { state in
                state.status = http?.statusCode ?? 0
                state.response = (state.status, headers)
                state.lastActivity = .now()
            }
            wake()
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let failed = state.withLock { state -> Bool in
                state.lastActivity = .now()
                guard state.failure == nil else { return false }
                guard state.status == 200 else {
                    if state.body.count < 64 * 1024 { state.body.append(data.prefix(64 * 1024 - state.body.count)) }
                    return false
                }
                do {
                    state.events += try state.parser.parse(data)
                    return false
                } catch {
                    state.failure = CatalogClientError(.decoding, "\(error)", url: url.map(CatalogClientError.display))
                    return true
                }
            }
            if failed { dataTask.cancel() }
            wake()
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            state.withLock { state in
                state.ended = true
                if state.failure == nil, let error {
                    state.failure =
                        state.timedOut
                        ? CatalogClientError(
                            .timedOut, "the change stream sent nothing, not even a heartbeat, for too long",
                            url: url.map(CatalogClientError.display))
                        : .transport(error, url: url)
                }
            }
            wake()
        }
    }
}
