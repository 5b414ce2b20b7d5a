#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import CatalogModel
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Synchronization

/// Turns what a user typed — a file path or an `http(s)` URL — into a local file to read.
///
/// ```swift
/// let fetcher = SourceFetcher()
/// let fetched = try await fetcher.fetch("https://example.org/sequenzer.xml", timeout: 10)
/// let reader = XMLRecordReader(fileURL: fetched.fileURL, sourceName: fetched.displayName)
/// ```
///
/// - A path is checked (it must exist, be a regular file and be readable) and returned as is; a
///   leading `~` is expanded.
/// - An `http` or `https` URL is downloaded with `URLSession` into a temporary file (redirects
///   followed), which the returned ``FetchedSource`` deletes when done.
/// - Any other scheme (`file://`, `ftp://`, …) is refused with `.invalidArgument`.
///
/// Two entry points: ``fetch(_:timeout:maxBytes:)`` is `async`; ``fetchBlocking(_:timeout:maxBytes:)``
/// waits on a semaphore and is meant for plain threads (a CLI's main thread), never for the
/// cooperative pool.
public struct SourceFetcher: Sendable {
    /// Creates a fetcher.
    public init() {}

    /// Finds or downloads `source`.
    ///
    /// - Parameters:
    ///   - source: a file path or an `http(s)` URL.
    ///   - timeout: for a URL, the longest wait for the connection and for each piece of data,
    ///     in seconds (not a limit on the whole download).
    ///   - maxBytes: for a URL, the largest body accepted.
    /// - Returns: the local file; for a download, a temporary file deleted with the result.
    /// - Throws: `.io` naming the path or URL (missing file, directory, unreadable, HTTP status,
    ///   DNS failure, refused connection, timeout), `.tooLarge` above `maxBytes`,
    ///   `.invalidArgument` for other schemes. Cancelling the task cancels the download.
    public func fetch(
        _ source: String, timeout: TimeInterval = 30, maxBytes: Int64 = 2 * 1024 * 1024 * 1024
    ) async throws(ImportError) -> FetchedSource {
        switch try Self.classify(source) {
        case .path(let path):
            return try Self.localFile(path, displayName: source)
        case .remote(let url):
            let destination = Self.temporaryDestination(for: url)
            let task = Mutex<URLSessionTask?>(nil)
            let result = await withTaskCancellationHandler {
                await withCheckedContinuation {
                    (continuation: CheckedContinuation<Result<Int64, ImportError>, Never>) in
                    let started = Self.startDownload(
                        url, source: source, to: destination, timeout: timeout, maxBytes: maxBytes
                    ) { result in
                        continuation.resume(returning: result)
                    }
                    task.withLock { $0 = started }
                    if Task.isCancelled { started.cancel() }
                }
            } onCancel: {
                task.withLock { $0?.cancel() }
            }
            let bytes = try result.get()
            return FetchedSource(fileURL: destination, displayName: source, isTemporary: true, byteCount: bytes)
        }
    }

    /// Finds or downloads `source`, blocking the calling thread until done.
    ///
    /// Parameters, result and errors are those of ``fetch(_:timeout:maxBytes:)``. Call it from a
    /// plain thread, not from Swift concurrency's cooperative pool.
    public func fetchBlocking(
        _ source: String, timeout: TimeInterval = 30, maxBytes: Int64 = 2 * 1024 * 1024 * 1024
    ) throws(ImportError) -> FetchedSource {
        switch try Self.classify(source) {
        case .path(let path):
            return try Self.localFile(path, displayName: source)
        case .remote(let url):
            let destination = Self.temporaryDestination(for: url)
            let done = DispatchSemaphore(value: 0)
            let outcome = Mutex<Result<Int64, ImportError>?>(nil)
            _ = Self.startDownload(url, source: source, to: destination, timeout: timeout, maxBytes: maxBytes) {
                result in
                outcome.withLock { $0 = result }
                done.signal()
            }
            done.wait()
            let result = outcome.withLock { $0 } ?? .failure(ImportError(.io, "cannot download \(source)"))
            let bytes = try result.get()
            return FetchedSource(fileURL: destination, displayName: source, isTemporary: true, byteCount: bytes)
        }
    }

    // MARK: - Internals

    private enum Target {
        case path(String)
        case remote(URL)
    }

    /// A path, or an http(s) URL; refuses other schemes.
    private static func classify(_ source: String) throws(ImportError) -> Target {
        let location = SourceLocation(source: source)
        guard !source.isEmpty else { throw ImportError(.invalidArgument, "no file or URL given") }
        if let separator = source.range(of: "://") {
            let scheme = source[..<separator.lowerBound]
            let isScheme =
                scheme.first?.isLetter == true
                && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
            if isScheme {
                guard ["http", "https"].contains(scheme.lowercased()) else {
                    throw ImportError(
                        .invalidArgument, "unsupported URL scheme \"\(scheme)\": give a file path or an http(s) URL",
                        at: location)
                }
                guard let url = URL(string: source), url.host != nil else {
                    throw ImportError(.invalidArgument, "not a valid URL: \(source)", at: location)
                }
                return .remote(url)
            }
        }
        return .path(NSString(string: source).expandingTildeInPath)
    }

    /// Checks a local path: it must be a readable regular file (or a pipe, device, …).
    private static func localFile(_ path: String, displayName: String) throws(ImportError) -> FetchedSource {
        let location = SourceLocation(source: displayName)
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw ImportError(.io, "cannot read \(path): \(ByteSource.describe(errno: errno))", at: location)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw ImportError(.io, "cannot read \(path): it is a directory", at: location)
        }
        guard access(path, R_OK) == 0 else {
            throw ImportError(.io, "cannot read \(path): \(ByteSource.describe(errno: errno))", at: location)
        }
        return FetchedSource(
            fileURL: URL(fileURLWithPath: path), displayName: displayName, isTemporary: false,
            byteCount: Int64(info.st_size))
    }

    /// A fresh temporary path, keeping the URL's file extension so format detection still works.
    private static func temporaryDestination(for url: URL) -> URL {
        let ext = url.pathExtension
        let suffix =
            !ext.isEmpty && ext.count <= 10 && ext.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            ? "." + ext : ""
        return FileManager.default.temporaryDirectory.appendingPathComponent(
            "catalog-download-\(UUID().uuidString)\(suffix)")
    }

    /// Starts the download; `completion` runs once, on the session's queue.
    private static func startDownload(
        _ url: URL, source: String, to destination: URL, timeout: TimeInterval, maxBytes: Int64,
        completion: @escaping DownloadDelegate.Completion
    ) -> URLSessionTask {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let delegate = DownloadDelegate(
            source: source, destination: destination, maxBytes: maxBytes, timeout: timeout, completion: completion)
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        var request = URLRequest(url: url)
        request.timeoutInterval = timeout
        let task = session.downloadTask(with: request)
        task.resume()
        return task
    }
}
