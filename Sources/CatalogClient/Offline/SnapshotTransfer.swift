import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One snapshot request streamed into a partial file: a 200 starts the file over, a 206 appends
/// to it, anything else is kept in memory (an error's JSON, at most 64 KiB). Progress is reported
/// as bytes arrive.
final class SnapshotTransfer: NSObject, URLSessionDataDelegate, Sendable {
    /// How the request ended.
    struct Outcome: Sendable {
        var status: Int
        var headers: [String: String]
        /// The error body, for statuses other than 200 and 206.
        var body: Data
        /// Bytes in the partial file now.
        var fileBytes: Int64
    }

    private struct State {
        var status = 0
        var headers: [String: String] = [:]
        var body = Data()
        var handle: FileHandle?
        var fileBytes: Int64 = 0
        var total: Int64?
        var failure: CatalogClientError?
        var continuation: CheckedContinuation<Result<Outcome, CatalogClientError>, Never>?
    }

    private let partial: URL
    private let progress: (@Sendable (DownloadProgress) -> Void)?
    private let state = Mutex(State())

    init(partial: URL, progress: (@Sendable (DownloadProgress) -> Void)?) {
        self.partial = partial
        self.progress = progress
    }

    /// Sends `request` through a session of its own (with `configuration`) and waits for the end;
    /// cancelling the task cancels the transfer, leaving the partial file for a resume.
    func run(_ request: URLRequest, configuration: URLSessionConfiguration) async -> Result<Outcome, CatalogClientError>
    {
        let session = URLSession.transport(configuration: configuration, delegate: self)
        defer { session.finishTasksAndInvalidate() }
        let slot = TaskSlot()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.withLock { $0.continuation = continuation }
                let task = session.dataTask(with: request)
                task.resume()
                if slot.hold(task) { task.cancel() }
            }
        } onCancel: {
            slot.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        let status = http?.statusCode ?? 0
        var headers: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        state.withLock { state in
            state.status = status
            state.headers = headers
            guard status == 200 || status == 206 else { return }
            let manager = FileManager.default
            if status == 200 || !manager.fileExists(atPath: partial.path) {
                _ = manager.createFile(atPath: partial.path, contents: nil)
            }
            do {
                let handle = try FileHandle(forWritingTo: partial)
                if status == 200 {
                    try handle.truncate(atOffset: 0)
                    state.fileBytes = 0
                } else {
                    state.fileBytes = Int64(try handle.seekToEnd())
                }
                state.handle = handle
            } catch {
                state.failure = CatalogClientError(.storage, "cannot write \(partial.path)")
            }
            let length = http.map { $0.expectedContentLength } ?? -1
            state.total = length >= 0 ? state.fileBytes + length : nil
            if status == 206 {
                // `bytes START-END/TOTAL`: the part must continue exactly where the file ends.
                let range = ContentRange(headers["content-range"])
                if range?.start != state.fileBytes {
                    state.failure = CatalogClientError(.http, "the server resumed the download at the wrong place")
                    try? state.handle?.close()
                    state.handle = nil
                }
                if let total = range?.total { state.total = total }
            }
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let report: DownloadProgress? = state.withLock { state in
            guard state.failure == nil else { return nil }
            if let handle = state.handle {
                do {
                    try handle.write(contentsOf: data)
                    state.fileBytes += Int64(data.count)
                } catch {
                    state.failure = CatalogClientError(.storage, "cannot write \(partial.path)")
                    dataTask.cancel()
                    return nil
                }
                return DownloadProgress(received: state.fileBytes, total: state.total)
            }
            if state.body.count < 64 * 1024 { state.body.append(data.prefix(64 * 1024 - state.body.count)) }
            return nil
        }
        if let report { progress?(report) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, result) = state.withLock {
            state -> (
                CheckedContinuation<Result<Outcome, CatalogClientError>, Never>?, Result<Outcome, CatalogClientError>
            ) in
            try? state.handle?.close()
            state.handle = nil
            let continuation = state.continuation
            state.continuation = nil
            if let failure = state.failure { return (continuation, .failure(failure)) }
            if let error { return (continuation, .failure(.transport(error, url: task.originalRequest?.url))) }
            return (
                continuation,
                .success(
                    Outcome(status: state.status, headers: state.headers, body: state.body, fileBytes: state.fileBytes))
            )
        }
        continuation?.resume(returning: result)
    }
}

/// How far a download is.
public struct DownloadProgress: Sendable, Hashable {
    /// Bytes of the file received so far (a resumed download counts what it had).
    public var received: Int64
    /// The file's size, when the server said.
    public var total: Int64?

    /// Creates a progress value.
    public init(received: Int64, total: Int64?) {
        self.received = received
        self.total = total
    }

    /// From 0 to 1, nil when the size is not known.
    public var fraction: Double? {
        guard let total, total > 0 else { return nil }
        return min(1, Double(received) / Double(total))
    }
}

/// A `Content-Range: bytes START-END/TOTAL` header.
struct ContentRange: Equatable {
    var start: Int64
    var end: Int64
    var total: Int64?

    init?(_ header: String?) {
        guard let header, header.hasPrefix("bytes ") else { return nil }
        let parts = header.dropFirst(6).split(separator: "/", maxSplits: 1)
        let bounds = parts.first?.split(separator: "-", maxSplits: 1) ?? []
        guard bounds.count == 2, let start = Int64(bounds[0]), let end = Int64(bounds[1]), start <= end else {
            return nil
        }
        self.start = start
        self.end = end
        total = parts.count == 2 ? Int64(parts[1]) : nil
    }
}
