import CatalogAuth
import CatalogHTTP
import CatalogStorage
import Foundation
import Synchronization

/// How `catalog serve` serves, besides the database and the address: checked before anything
/// opens.
public struct CatalogServerSettings: Sendable {
    /// The catalog the original cookbook endpoints (`/gethots` …) answer for.
    public var compatCatalog: String = "cookbook"
    /// The directory of stored images served under `/images/` (demo pictures are built in).
    public var imagesDirectory: String?
    /// The server's public URL (`https://example.org`) for absolute links, when behind a proxy.
    public var publicURL: String?
    /// The largest upload accepted by `POST /api/v1/catalogs/{id}/import`.
    public var maxUploadBytes: Int = 64 << 20

    /// The defaults.
    public init() {}
}

/// What `catalog serve` serves, besides the address it listens on.
@dynamicMemberLookup
public struct CatalogServerOptions: Sendable {
    /// The catalog database (SQLite or PostgreSQL), opened by the caller.
    public var database: any CatalogDatabase
    /// Everything else.
    public var settings: CatalogServerSettings

    /// Options serving `database`.
    public init(database: any CatalogDatabase, _ settings: CatalogServerSettings = CatalogServerSettings()) {
        self.database = database
        self.settings = settings
    }

    public subscript<T>(dynamicMember keyPath: WritableKeyPath<CatalogServerSettings, T>) -> T {
        get { settings[keyPath: keyPath] }
        set { settings[keyPath: keyPath] = newValue }
    }
}

/// The catalog server's routes and middleware, ready for an ``HTTPServer``.
///
/// Where a request goes: `Web/` (the web app's pages and assets), `API/` (JSON API v1 and its
/// OpenAPI document), `Compat/` (the original apps' endpoints and feeds), `Images/`; `Core/` holds
/// what they share (stores, snapshots, parameters, errors, authentication).
///
/// ```swift
/// let application = CatalogApplication(options: options, accessLog: AccessLog())
/// let server = HTTPServer(configuration: configuration, responder: application.responder)
/// ```
public final class CatalogApplication: Sendable {
    /// The database.
    public let stores: any CatalogDatabase
    /// The router (for tests that skip the middleware).
    public let router: Router
    /// The router inside logging, errors, CORS, compression and conditional GET.
    public let responder: any Responder
    private let listening: Listening

    /// Builds the routes.
    ///
    /// - Parameters:
    ///   - options: database, compat catalog, images, public URL, upload limit.
    ///   - accessLog: where request lines go; nil for none (`--quiet`).
    ///   - errorLog: where unexpected errors are described.
    public init(
        options: CatalogServerOptions, accessLog: AccessLog?,
        errorLog: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    ) {
        let stores = options.database
        let listening = Listening()
        let baseURL = BaseURL(
            configured: options.publicURL.map { String($0.trimmingSuffix("/")) }, listening: listening)
        var routes = RouterBuilder()
        let authenticator = Authenticator()
        let authentication = RequestAuthentication(stores: stores, authenticator: authenticator)
        WebRoutes(stores: stores, authenticator: authenticator).register(in: &routes)
        CatalogAPI(stores: stores).register(in: &routes)
        FavoritesAPI(stores: stores, authentication: authentication).register(in: &routes)
        ImportAPI(stores: stores, authentication: authentication).register(in: &routes)
        OpenAPIRoute().register(in: &routes)
        CompatRoutes(stores: stores, catalog: options.compatCatalog, baseURL: baseURL).register(in: &routes)
        ImageRoutes(store: ImageStore(directory: options.imagesDirectory), thumbnails: ThumbnailCache())
            .register(in: &routes)
        let router = routes.build()
        var middleware: [any Middleware] = []
        if let accessLog { middleware.append(AccessLogMiddleware(log: accessLog)) }
        middleware += [
            ErrorMiddleware(log: errorLog, render: ErrorPage.render),
            CORSMiddleware(pathPrefix: "/api/", allowedMethods: { router.allowedMethods(segments: $0) }),
            SecurityHeadersMiddleware(),
            CompressionMiddleware(),
            ConditionalGetMiddleware(),
            ResponseCache(stores: stores),
        ]
        self.stores = stores
        self.router = router
        self.listening = listening
        responder = router.wrapped(in: middleware)
    }

    /// Tells the application where the server listens (for absolute URLs without a Host header).
    public func listening(on url: String) {
        listening.set(url)
    }

    /// The request bodies allowed beyond the server's default limit: catalog uploads.
    public static func bodyLimit(options: CatalogServerOptions) -> @Sendable (HTTPMethod, String) -> Int? {
        let limit = options.maxUploadBytes
        return { method, path in
            method == .post && path.hasPrefix("/api/v1/catalogs/") && path.hasSuffix("/import") ? limit : nil
        }
    }
}

/// The address the server listens on, known once it started.
final class Listening: Sendable {
    private let url = Mutex("http://localhost")

    func set(_ value: String) { url.withLock { $0 = value } }
    var value: String { url.withLock { $0 } }
}

extension StringProtocol {
    func trimmingSuffix(_ suffix: String) -> SubSequence {
        var text = self[...]
        while text.hasSuffix(suffix) { text = text.dropLast(suffix.count) }
        return text
    }
}
