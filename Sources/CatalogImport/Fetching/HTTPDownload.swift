import CatalogModel
import CatalogSupport
import Foundation

/// One download of an http(s) URL into a file, redirects included, on the calling thread
/// (blocking: never call it from Swift concurrency's cooperative pool).
///
/// Each hop is a ``CurlTransfer``. Redirects are followed here, at most ``maxRedirects`` of them,
/// each checked: only to http or https, and to a loopback, link-local, private or other
/// non-public address only when ``SourceFetcher/Options/allowPrivate`` is set or the hop stays
/// on the origin (scheme, host and port) of the URL given. The URL given may lead anywhere: who
/// typed `http://127.0.0.1:8000/feed.xml` meant it. Its credentials go to its own origin only.
enum HTTPDownload {
    /// A finished download.
    enum Outcome: Sendable {
        /// The body is in the file: its size and the response's validators.
        case file(bytes: Int64, etag: String?, lastModified: String?)
        /// The server answered 304: the copy we have is current.
        case notModified
    }

    /// The most redirects followed.
    static let maxRedirects = 10

    /// Downloads `source` into `destination` (removed again unless the outcome is a file).
    static func run(
        _ source: String, to destination: URL, options: SourceFetcher.Options, control: DownloadControl
    ) -> Result<Outcome, ImportError> {
        let display = Credentials.redacted(url: source)
        let location = SourceLocation(source: display)
        let result = download(source, display: display, to: destination, options: options, control: control)
        if case .success(.file) = result {} else { TemporaryFiles.remove(destination) }
        return result.mapError { error in
            var error = error
            error.location = location
            return error
        }
    }

    private static func download(
        _ source: String, display: String, to destination: URL, options: SourceFetcher.Options,
        control: DownloadControl
    ) -> Result<Outcome, ImportError> {
        func failure(_ reason: String) -> Result<Outcome, ImportError> {
            .failure(ImportError(.io, "cannot download \(display): \(reason)"))
        }
        guard let given = CurlURL(source) else {
            return .failure(ImportError(.invalidArgument, "not a valid URL: \(display)"))
        }
        let limits = CurlTransfer.Limits(
            options: options, deadline: .now + .seconds(options.deadline), display: display, control: control)
        let origin = given.origin
        var current = given
        var hops = 0
        while true {
            guard ["http", "https"].contains(current.scheme) else {
                return failure("redirected to \(current.display), which is not an http(s) URL")
            }
            let sameOrigin = current.origin == origin
            let mayReachPrivate = options.allowPrivate || hops == 0 || sameOrigin
            guard
                let transfer = CurlTransfer(
                    url: current, limits: limits, destination: destination, mayReachPrivate: mayReachPrivate)
            else { return failure("cannot set up libcurl") }
            // An address in the URL itself is refused before anything is sent.
            if !mayReachPrivate, let address = NetworkAddress(current.host), !address.isPublic {
                return .failure(
                    transfer.refusedRedirect(to: current.display, what: "\(address.scope.phrase) (\(address))"))
            }
            switch transfer.perform() {
            case .body(let bytes, let etag, let lastModified):
                return .success(.file(bytes: bytes, etag: etag, lastModified: lastModified))
            case .notModified:
                return .success(.notModified)
            case .failure(let error):
                return .failure(error)
            case .redirect(let status, let location):
                hops += 1
                guard hops <= maxRedirects else {
                    return failure("too many redirects (more than \(maxRedirects))")
                }
                guard let next = current.resolving(location) else {
                    return failure("HTTP \(status) redirects to a malformed URL")
                }
                if next.origin == origin, !next.hasCredentials { next.copyCredentials(from: given) }
                current = next
            }
        }
    }
}
