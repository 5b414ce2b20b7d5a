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
/// - An `http` or `https` URL is downloaded with `URLSession` into a registered temporary file of
///   our own (``TemporaryFiles``, redirects followed), which the returned ``FetchedSource``
///   deletes when done. The download has a total deadline as well as a timeout for silence, and a
///   size limit checked as the bytes arrive. With validators from an earlier download
///   (``Options/etag``, ``Options/lastModified``) it is a conditional GET, and a 304 answer is
///   ``Fetch/notModified``.
/// - Any other scheme (`file://`, `ftp://`, …) is refused with `.invalidArgument`.
///
/// The `async` entry points suit Swift concurrency; the blocking ones wait on a semaphore and are
/// meant for plain threads (a CLI's main thread, the refresher's thread), never for the
/// cooperative pool.
public struct SourceFetcher: Sendable {
    /// How to download.
    public struct Options: Sendable, Equatable {
        /// The longest silence (waiting for the connection or for more data), in seconds.
        public var timeout: TimeInterval
        /// The most the whole download may take, in seconds.
        public var deadline: TimeInterval
        /// The largest body accepted, in bytes.
        public var maxBytes: Int64
        /// The `ETag` of the copy we have: sent as `If-None-Match`.
        public var etag: String?
        /// The `Last-Modified` of the copy we have: sent as `If-Modified-Since`.
        public var lastModified: String?

        /// The defaults: 30 s of silence, 10 minutes in all, 1024 MB.
        public init(
            timeout: TimeInterval = 30, deadline: TimeInterval = 600, maxBytes: Int64 = Self.defaultMaxBytes,
            etag: String? = nil, lastModified: String? = nil
        ) {
            self.timeout = timeout
            self.deadline = deadline
            self.maxBytes = maxBytes
            self.etag = etag
            self.lastModified = lastModified
        }

        /// 1024 MB, `--max-download-mb`'s default.
        public static let defaultMaxBytes: Int64 = 1024 * 1024 * 1024
    }

    /// What fetching found.
    public enum Fetch: Sendable {
        /// A local file, or a download.
        case file(FetchedSource)
        /// The server said the copy we have is current (HTTP 304).
        case notModified
    }

    /// Creates a fetcher.
    public init() {}

    /// Finds or downloads `source`.
    ///
    /// - Parameters:
    ///   - source: a file path or an `http(s)` URL.
    ///   - timeout: for a URL, the longest silence and the whole download's deadline, in seconds.
    ///   - maxBytes: for a URL, the largest body accepted.
    /// - Returns: the local file; for a download, a temporary file deleted with the result.
    /// - Throws: `.io` naming the path or URL (missing file, directory, unreadable, HTTP status,
    ///   DNS failure, refused connection, timeout), `.tooLarge` above `maxBytes`,
    ///   `.invalidArgument` for other schemes. Cancelling the task cancels the download.
    public func fetch(
        _ source: String, timeout: TimeInterval = 30, maxBytes: Int64 = Options.defaultMaxBytes
    ) async throws(ImportError) -> FetchedSource {
        let options = Options(timeout: timeout, deadline: timeout, maxBytes: maxBytes)
        guard case .file(let fetched) = try await fetch(source, options: options) else {
            throw ImportError(.io, "cannot download \(source): no response", at: SourceLocation(source: source))
        }
        return fetched
    }

    /// Finds or downloads `source` with `options`; a 304 answer is ``Fetch/notModified``.
    ///
    /// - Throws: as ``fetch(_:timeout:maxBytes:)``.
    public func fetch(_ source: String, options: Options) async throws(ImportError) -> Fetch {
        switch try Self.classify(source) {
        case .path(let path):
            return .file(try Self.localFile(path, displayName: source))
        case .remote(let url):
            let destination = TemporaryFiles.create(kind: "download", extension: url.pathExtension)
            let task = Mutex<URLSessionTask?>(nil)
            let result = await withTaskCancellationHandler {
                await withCheckedContinuation {
                    (continuation: CheckedContinuation<Result<DownloadDelegate.DownloadOutcome, ImportError>, Never>) in
                    let started = Self.startDownload(url, source: source, to: destination, options: options) {
                        result in
                        continuation.resume(returning: result)
                    }
                    task.withLock { $0 = started }
                    if Task.isCancelled { started.cancel() }
                }
            } onCancel: {
                task.withLock { $0?.cancel() }
            }
            return try Self.fetch(from: result.get(), destination: destination, source: source)
        }
    }

    /// Finds or downloads `source`, blocking the calling thread until done.
    ///
    /// Parameters, result and errors are those of ``fetch(_:timeout:maxBytes:)``. Call it from a
    /// plain thread, not from Swift concurrency's cooperative pool.
    public func fetchBlocking(
        _ source: String, timeout: TimeInterval = 30, maxBytes: Int64 = Options.defaultMaxBytes
    ) throws(ImportError) -> FetchedSource {
        let options = Options(timeout: timeout, deadline: timeout, maxBytes: maxBytes)
        guard case .file(let fetched) = try fetchBlocking(source, options: options) else {
            throw ImportError(.io, "cannot download \(source): no response", at: SourceLocation(source: source))
        }
        return fetched
    }

    /// Finds or downloads `source` with `options`, blocking the calling thread until done.
    ///
    /// - Throws: as ``fetch(_:timeout:maxBytes:)``.
    public func fetchBlocking(_ source: String, options: Options) throws(ImportError) -> Fetch {
        switch try Self.classify(source) {
        case .path(let path):
            return .file(try Self.localFile(path, displayName: source))
        case .remote(let url):
            let destination = TemporaryFiles.create(kind: "download", extension: url.pathExtension)
            let done = DispatchSemaphore(value: 0)
            let outcome = Mutex<Result<DownloadDelegate.DownloadOutcome, ImportError>?>(nil)
            _ = Self.startDownload(url, source: source, to: destination, options: options) { result in
                outcome.withLock { $0 = result }
                done.signal()
            }
            done.wait()
            let result = outcome.withLock { $0 } ?? .failure(ImportError(.io, "cannot download \(source)"))
            return try Self.fetch(from: result.get(), destination: destination, source: source)
        }
    }

    // MARK: - Internals

    private enum Target {
        case path(String)
        case remote(URL)
    }

    private static func fetch(
        from outcome: DownloadDelegate.DownloadOutcome, destination: URL, source: String
    ) -> Fetch {
        switch outcome {
        case .notModified:
            return .notModified
        case .file(let bytes, let etag, let lastModified):
            return .file(
                FetchedSource(
                    fileURL: destination, displayName: source, isTemporary: true, byteCount: bytes, etag: etag,
                    lastModified: lastModified))
        }
    }

    /// Whether `source` is an http(s) URL (rather than a path).
    public static func isRemote(_ source: String) -> Bool {
        if case .remote? = try? classify(source) { return true }
        return false
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

    /// Starts the download; `completion` runs once, on the session's queue.
    private static func startDownload(
        _ url: URL, source: String, to destination: URL, options: Options,
        completion: @escaping DownloadDelegate.Completion
    ) -> URLSessionTask {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = options.timeout
        configuration.timeoutIntervalForResource = options.deadline
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        let delegate = DownloadDelegate(
            source: source, destination: destination, maxBytes: options.maxBytes, timeout: options.timeout,
            deadline: options.deadline, completion: completion)
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        var request = URLRequest(url: url)
        request.timeoutInterval = options.timeout
        if let etag = options.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified = options.lastModified {
            request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since")
        }
        let task = session.dataTask(with: request)
        // URLSession's own resource timeout is not enforced everywhere: keep a deadline of our own.
        DispatchQueue.global().asyncAfter(deadline: .now() + options.deadline) { [weak task] in
            guard let task, task.state == .running else { return }
            delegate.deadlinePassed(task)
        }
        task.resume()
        return task
    }
}
