import CatalogModel
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Synchronization

/// The `URLSession` delegate of one download: enforces the size limit, checks the HTTP status,
/// moves the body to its destination and reports exactly once.
final class DownloadDelegate: NSObject, URLSessionDownloadDelegate, Sendable {
    /// What a finished download reports.
    typealias Completion = @Sendable (Result<Int64, ImportError>) -> Void

    private struct State {
        var failure: ImportError?
        var bytes: Int64?
        var completion: Completion?
    }

    private let source: String
    private let destination: URL
    private let maxBytes: Int64
    private let timeout: TimeInterval
    private let state: Mutex<State>

    /// Creates the delegate for downloading `source` to `destination`.
    init(source: String, destination: URL, maxBytes: Int64, timeout: TimeInterval, completion: @escaping Completion) {
        self.source = source
        self.destination = destination
        self.maxBytes = maxBytes
        self.timeout = timeout
        self.state = Mutex(State(completion: completion))
    }

    func urlSession(
        _ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
        totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
    ) {
        if totalBytesWritten > maxBytes || totalBytesExpectedToWrite > maxBytes {
            record(ImportError(.tooLarge, "cannot download \(source): larger than \(maxBytes) bytes", at: location))
            downloadTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        if let response = downloadTask.response as? HTTPURLResponse, !(200..<300).contains(response.statusCode) {
            let reason = HTTPURLResponse.localizedString(forStatusCode: response.statusCode)
            record(
                ImportError(.io, "cannot download \(source): HTTP \(response.statusCode) \(reason)", at: self.location))
            return
        }
        do {
            try? FileManager.default.removeItem(at: destination)
            try FileManager.default.moveItem(at: location, to: destination)
            let size = (try? FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? NSNumber)?
                .int64Value
            if let size, size > maxBytes {
                record(
                    ImportError(
                        .tooLarge, "cannot download \(source): larger than \(maxBytes) bytes", at: self.location))
                return
            }
            state.withLock { $0.bytes = size ?? 0 }
        } catch {
            record(
                ImportError(
                    .io, "cannot store the download of \(source): \(error.localizedDescription)", at: self.location))
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            // A body announced or received beyond the limit is the reason, even when the
            // connection then broke (the cancelled download, or a server closing early).
            let announced = task.response?.expectedContentLength ?? -1
            if announced > maxBytes || task.countOfBytesReceived > maxBytes {
                record(ImportError(.tooLarge, "cannot download \(source): larger than \(maxBytes) bytes", at: location))
            }
            record(describe(error))
        }
        let (completion, result): (Completion?, Result<Int64, ImportError>) = state.withLock { state in
            let completion = state.completion
            state.completion = nil
            if let failure = state.failure { return (completion, .failure(failure)) }
            if let bytes = state.bytes { return (completion, .success(bytes)) }
            return (completion, .failure(ImportError(.io, "cannot download \(source): no response", at: location)))
        }
        if case .failure = result { try? FileManager.default.removeItem(at: destination) }
        completion?(result)
        session.finishTasksAndInvalidate()
    }

    /// Keeps the first failure.
    private func record(_ failure: ImportError) {
        state.withLock { state in
            if state.failure == nil { state.failure = failure }
        }
    }

    private var location: SourceLocation { SourceLocation(source: source) }

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

    private static func seconds(_ interval: TimeInterval) -> String {
        interval == interval.rounded() ? "\(Int(interval)) s" : "\(interval) s"
    }
}
