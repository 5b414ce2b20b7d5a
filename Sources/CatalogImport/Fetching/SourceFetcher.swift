#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import CatalogModel
import CatalogSupport
import Foundation

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
/// - An `http` or `https` URL is downloaded with libcurl into a registered temporary file of our
///   own (``TemporaryFiles``), which the returned ``FetchedSource`` deletes when done. The
///   download has a total deadline as well as a timeout for silence, and a size limit on the
///   bytes sent and on the decoded bytes (a gzip or deflate body is inflated by
///   ``ContentDecoder`` as it arrives), each checked as the bytes arrive. Redirects are followed
///   (at most 10), but not to loopback, link-local or private addresses unless
///   ``Options/allowPrivate``, or the redirect stays on the URL's own origin. User and password
///   in the URL are sent as basic authentication, to that origin only, and never shown in
///   messages. With validators from an earlier download (``Options/etag``,
///   ``Options/lastModified``) it is a conditional GET, and a 304 answer is ``Fetch/notModified``.
/// - Any other scheme (`file://`, `ftp://`, …) is refused with `.invalidArgument`.
///
/// The `async` entry points suit Swift concurrency (the download runs on a thread of its own, and
/// cancelling the task stops it at once); the blocking ones download on the calling thread and are
/// meant for plain threads (a CLI's main thread, the refresher's threads), never for the
/// cooperative pool.
public struct SourceFetcher: Sendable {
    /// How to download.
    public struct Options: Sendable, Equatable {
        /// The longest silence (waiting for the connection or for more data), in seconds.
        public var timeout: TimeInterval
        /// The most the whole download may take, in seconds.
        public var deadline: TimeInterval
        /// The largest body accepted, in bytes: as sent, and once decoded.
        public var maxBytes: Int64
        /// The `ETag` of the copy we have: sent as `If-None-Match`.
        public var etag: String?
        /// The `Last-Modified` of the copy we have: sent as `If-Modified-Since`.
        public var lastModified: String?
        /// Whether a redirect may lead to a loopback, link-local, private or other non-public
        /// address (`--allow-private-fetch`). The URL given may always be anywhere, and so may a
        /// redirect that stays on its origin.
        public var allowPrivate: Bool

        /// The defaults: 30 s of silence, 10 minutes in all, 1024 MB, no redirects to private
        /// addresses.
        public init(
            timeout: TimeInterval = 30, deadline: TimeInterval = 600, maxBytes: Int64 = Self.defaultMaxBytes,
            etag: String? = nil, lastModified: String? = nil, allowPrivate: Bool = false
        ) {
            self.timeout = timeout
            self.deadline = deadline
            self.maxBytes = maxBytes
            self.etag = etag
            self.lastModified = lastModified
            self.allowPrivate = allowPrivate
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
    ///   DNS failure, refused connection, timeout, a refused redirect, a corrupt compressed body),
    ///   `.tooLarge` above `maxBytes` (sent or decoded), `.invalidArgument` for other schemes.
    ///   Cancelling the task cancels the download.
    public func fetch(
        _ source: String, timeout: TimeInterval = 30, maxBytes: Int64 = Options.defaultMaxBytes
    ) async throws(ImportError) -> FetchedSource {
        let options = Options(timeout: timeout, deadline: timeout, maxBytes: maxBytes)
        guard case .file(let fetched) = try await fetch(source, options: options) else {
            throw ImportError(
                .io, "cannot download \(Credentials.redacted(url: source)): no response",
                at: SourceLocation(source: Credentials.redacted(url: source)))
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
            let control = DownloadControl()
            let result = await withTaskCancellationHandler {
                await withCheckedContinuation {
                    (continuation: CheckedContinuation<Result<HTTPDownload.Outcome, ImportError>, Never>) in
                    // libcurl blocks: a thread of its own, never the cooperative pool.
                    let thread = Thread {
                        continuation.resume(
                            returning: HTTPDownload.run(source, to: destination, options: options, control: control))
                    }
                    thread.name = "catalog-download"
                    thread.start()
                }
            } onCancel: {
                control.cancel()
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
            throw ImportError(
                .io, "cannot download \(Credentials.redacted(url: source)): no response",
                at: SourceLocation(source: Credentials.redacted(url: source)))
        }
        return fetched
    }

    /// Finds or downloads `source` with `options`, blocking the calling thread until done;
    /// `isCancelled`, asked at least once a second, stops the download (an `.io` error, "cancelled").
    ///
    /// - Throws: as ``fetch(_:timeout:maxBytes:)``.
    public func fetchBlocking(
        _ source: String, options: Options, isCancelled: @escaping @Sendable () -> Bool = { false }
    ) throws(ImportError) -> Fetch {
        switch try Self.classify(source) {
        case .path(let path):
            return .file(try Self.localFile(path, displayName: source))
        case .remote(let url):
            let destination = TemporaryFiles.create(kind: "download", extension: url.pathExtension)
            let result = HTTPDownload.run(
                source, to: destination, options: options, control: DownloadControl(isCancelled: isCancelled))
            return try Self.fetch(from: result.get(), destination: destination, source: source)
        }
    }

    // MARK: - Internals

    private enum Target {
        case path(String)
        case remote(URL)
    }

    private static func fetch(
        from outcome: HTTPDownload.Outcome, destination: URL, source: String
    ) -> Fetch {
        switch outcome {
        case .notModified:
            return .notModified
        case .file(let bytes, let etag, let lastModified):
            return .file(
                FetchedSource(
                    fileURL: destination, displayName: Credentials.redacted(url: source), isTemporary: true,
                    byteCount: bytes,
                    etag: etag,
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
        let location = SourceLocation(source: Credentials.redacted(url: source))
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
                    throw ImportError(
                        .invalidArgument, "not a valid URL: \(Credentials.redacted(url: source))", at: location)
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
}
