import CatalogModel
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Synchronization

/// The `URLSession` delegate of one download: streams the body into a registered temporary file
/// of our own (so no copy is left anywhere when the process stops), enforces the size limit and
/// the total deadline, checks the HTTP status (304 is "not modified"), and reports exactly once.
final class DownloadDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// What a finished download reports.
    typealias Completion = @Sendable (Result<DownloadOutcome, ImportError>) -> Void

    /// A finished download.
    enum DownloadOutcome: Sendable {
        /// The body is in the file: its size and the response's validators.
        case file(bytes: Int64, etag: String?, lastModified: String?)
        /// The server answered 304: the copy we have is current.
        case notModified
    }

    private struct State {
        var failure: ImportError?
        var notModified = false
        var handle: FileHandle?
        var bytes: Int64 = 0
        var etag: String?
        var lastModified: String?
        var completion: Completion?
    }

    private let source: String
    private let destination: URL
    private let maxBytes: Int64
    private let timeout: TimeInterval
    private let deadline: TimeInterval
    private let state: Mutex<State>

    /// Creates the delegate for downloading `source` to `destination`.
    init(
        source: String, destination: URL, maxBytes: Int64, timeout: TimeInterval, deadline: TimeInterval,
        completion: @escaping Completion
    ) {
        self.source = source
        self.destination = destination
        self.maxBytes = maxBytes
        self.timeout = timeout
        self.deadline = deadline
        self.state = Mutex(State(completion: completion))
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            completionHandler(.allow)
            return
        }
        if http.statusCode == 304 {
            state.withLock { $0.notModified = true }
            completionHandler(.cancel)
            return
        }
        guard (200..<300).contains(http.statusCode) else {
            let reason = HTTPURLResponse.localizedString(forStatusCode: http.statusCode)
            record(ImportError(.io, "cannot download \(source): HTTP \(http.statusCode) \(reason)", at: location))
            // Not `.cancel`: FoundationNetworking then buffers the error page into a temporary
            // file of its own that nobody removes. The first bytes of the body stop the task.
            completionHandler(.allow)
            return
        }
        if http.expectedContentLength > maxBytes {
            record(tooLarge)
            completionHandler(.cancel)
            return
        }
        guard
            FileManager.default.createFile(
                atPath: destination.path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = try? FileHandle(forWritingTo: destination)
        else {
            record(ImportError(.io, "cannot store the download of \(source)", at: location))
            completionHandler(.cancel)
            return
        }
        state.withLock { state in
            state.handle = handle
            state.etag = http.value(forHTTPHeaderField: "ETag")
            state.lastModified = http.value(forHTTPHeaderField: "Last-Modified")
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overflow: Bool = state.withLock { state in
            if state.failure != nil {
                dataTask.cancel()
                return false
            }
            guard let handle = state.handle else { return false }
            state.bytes += Int64(data.count)
            if state.bytes > maxBytes { return true }
            do {
                try handle.write(contentsOf: data)
            } catch {
                state.failure = ImportError(
                    .io, "cannot store the download of \(source): \(error.localizedDescription)", at: location)
            }
            return false
        }
        if overflow {
            record(tooLarge)
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error { record(describe(error)) }
        finish(session)
    }

    /// The total deadline passed: stop the download.
    func deadlinePassed(_ task: URLSessionTask) {
        record(
            ImportError(
                .io, "cannot download \(source): timed out after \(Self.seconds(deadline)) (the whole download)",
                at: location))
        task.cancel()
    }

    private func finish(_ session: URLSession) {
        let (completion, result): (Completion?, Result<DownloadOutcome, ImportError>) = state.withLock { state in
            let completion = state.completion
            state.completion = nil
            try? state.handle?.close()
            state.handle = nil
            if state.notModified { return (completion, .success(.notModified)) }
            if let failure = state.failure { return (completion, .failure(failure)) }
            return (completion, .success(.file(bytes: state.bytes, etag: state.etag, lastModified: state.lastModified)))
        }
        guard let completion else { return }
        switch result {
        case .success(.file): break
        default: TemporaryFiles.remove(destination)
        }
        completion(result)
        session.finishTasksAndInvalidate()
    }

    /// Keeps the first failure.
    private func record(_ failure: ImportError) {
        state.withLock { state in
            if state.failure == nil, !state.notModified { state.failure = failure }
        }
    }

    private var location: SourceLocation { SourceLocation(source: source) }

    private var tooLarge: ImportError {
        ImportError(
            .tooLarge, "cannot download \(source): larger than \(maxBytes / (1024 * 1024)) MB (--max-download-mb)",
            at: location)
    }

    /// An `.io` error naming the URL and what went wrong on the network.
    private func describe(_ error: any Error) -> ImportError {
        let reason: String
        if let urlError = error as? URLError {
            switch urlError.code {
            case .timedOut: reason = "timed out after \(Self.seconds(timeout))"
            case .cannotConnectToHost: reason = "connection refused"
            case .cannotFindHost, .dnsLookupFailed: reason = "host not found (DNS lookup failed)"
            case .networkConnectionLost: reason = "the connection was lost"
            case .notConnectedToInternet: reason = "no network connection"
            case .httpTooManyRedirects: reason = "too many redirects"
            case .badServerResponse: reason = "bad response from the server"
            case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
                .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
                reason = "TLS connection failed (\(urlError.localizedDescription))"
            case .cancelled: reason = "cancelled"
            default: reason = urlError.localizedDescription
            }
        } else {
            reason = error.localizedDescription
        }
        return ImportError(.io, "cannot download \(source): \(reason)", at: location)
    }

    static func seconds(_ interval: TimeInterval) -> String {
        interval == interval.rounded() ? "\(Int(interval)) s" : "\(interval) s"
    }
}
