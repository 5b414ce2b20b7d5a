import CatalogAuth
import CatalogConsole
import CatalogCore
import CatalogEngines
import CatalogHTTP
import CatalogImport
import CatalogModel
import CatalogStorage
import CatalogSupport
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
    /// The largest upload accepted by `POST /api/v1/catalogs/{id}/import` (that route's body
    /// limit).
    public var maxUploadBytes: Int = 64 << 20
    /// Host names the server answers as (`--host-name`): absolute links use the request's `Host`
    /// only when it names one of these or the listening address. Empty: `localhost`.
    public var hostNames: [String] = []
    /// The address the server listens on (`127.0.0.1`), a host name requests may use too.
    public var listenHost: String = "127.0.0.1"
    /// How failed sign-ins are throttled.
    public var signInPolicy = SignInThrottle.Policy()
    /// The time the sign-in throttle reads (the system clock; tests move one of their own).
    public var signInClock: AuthClock = .system
    /// How many audit events are kept in memory and stored per minute (``AuditLog/Limits``).
    public var auditLimits = AuditLog.Limits()
    /// The time audit events are recorded at (the system clock; tests move one of their own).
    public var auditClock: AuthClock = .system
    /// Threads that check passwords (each check: about 0.1 s of CPU and 64 MiB).
    public var passwordThreads: Int = 1
    /// How an import through the API downloads a source given by URL (`?url=`): the refresher's
    /// limits (`--max-download-mb`, `--allow-private-fetch`).
    public var importFetch = SourceFetcher.Options()
    /// How long an import through the API may run before it is stopped (`--import-timeout`).
    public var importTimeout: Duration = .seconds(600)
    /// Where offline snapshots (`GET /api/v1/catalogs/{id}/snapshot`) are kept; nil: beside the
    /// catalog file (`catalog.sqlite` → `catalog-snapshots/`), or in the temporary directory for
    /// PostgreSQL.
    public var snapshotsDirectory: String?
    /// The most snapshot files kept on disk (one per catalog version asked for).
    public var maxSnapshots: Int = 16
    /// How catalogs are created, changed and deleted (`POST`, `PATCH`, `DELETE
    /// /api/v1/catalogs…`): ICU's collations, and its known locales for new and changed ones.
    public var management: CatalogManagement = .withICU
    /// Who may read `GET /metrics` on the main port (`--metrics-allow`): loopback unless
    /// configured; others get 404.
    public var metricsAllowed: [AddressRange] = AddressRange.loopback
    /// Whether the main port serves `/metrics` at all; false when the metrics have a port of
    /// their own (`--metrics-port`, ``CatalogApplication/metricsResponder``).
    public var metricsOnMainPort = true

    /// The defaults.
    public init() {}

    /// Whether `name` may be a host name: letters, digits, `.`, `-` and `_`, at most 253 bytes
    /// (or an IPv6 address in brackets).
    public static func isValidHostName(_ name: String) -> Bool {
        if name.hasPrefix("[") && name.hasSuffix("]") {
            return name.count > 2 && name.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        return !name.isEmpty && name.utf8.count <= 253
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    return true
                default:
                    return false
                }
            }
    }

    /// The host names a request's `Host` may name: the configured ones (else `localhost`) and
    /// the listening address.
    var allowedHostNames: [String] {
        let listen = listenHost.contains(":") ? "[\(listenHost)]" : listenHost
        return (hostNames.isEmpty ? ["localhost"] : hostNames) + [listen]
    }
}

/// What `catalog serve` serves, besides the address it listens on.
@dynamicMemberLookup
public struct CatalogServerOptions: Sendable {
    /// The catalog database (SQLite or PostgreSQL), opened by the caller; it also holds the
    /// accounts (for SQLite in a file of their own beside the catalog file).
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

    public subscript<T>(dynamicMember keyPath: KeyPath<CatalogServerSettings, T>) -> T {
        settings[keyPath: keyPath]
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
    /// The database (catalogs and accounts).
    public let stores: any CatalogDatabase
    /// The router (for tests that skip the middleware).
    public let router: Router
    /// The router inside logging, errors, CORS, compression and conditional GET.
    public let responder: any Responder
    /// Failed sign-ins, per account and per address.
    public let signInThrottle: SignInThrottle
    /// Where security events are recorded (sign-ins, refusals, changes of roles and catalogs):
    /// what other parts of the server record their own events through.
    public let audit: AuditLog
    /// Thumbnails made and kept.
    let thumbnails: ThumbnailCache
    /// The streams that follow catalogs' changes.
    let changeFeed: ChangeFeed
    /// The imports running in the background.
    let importJobs: ImportJobs
    /// Merges the segments that changes leave, on a thread of its own.
    let segmentMaintainer: SegmentMaintainer
    /// Every metric `/metrics` shows: requests, latency, caches, imports, catalogs, and the
    /// server's connections once ``attach(_:)`` tells which server.
    public let metrics: MetricsRegistry
    /// Answers `/metrics` to everyone: for a port of its own (`--metrics-port`).
    public let metricsResponder: any Responder
    private let draining: Draining
    private let listening: Listening
    private let options: CatalogServerOptions

    /// Builds the routes.
    ///
    /// - Parameters:
    ///   - options: database, compat catalog, images, public URL, upload limit.
    ///   - accessLog: where request lines go, as text or JSON; nil for none (`--quiet`).
    ///   - errorLog: where unexpected errors are described (with the request's id).
    public init(
        options: CatalogServerOptions, accessLog: AccessLog?,
        errorLog: @escaping @Sendable (String) -> Void = { StandardStream.error.line(TerminalText.text($0)) }
    ) {
        let stores = options.database
        let listening = Listening()
        let baseURL = BaseURL(
            configured: options.publicURL.map { String($0.trimmingSuffix("/")) }, hostNames: options.allowedHostNames,
            listening: listening)
        let authenticator = Authenticator()
        let authentication = RequestAuthentication(stores: stores, authenticator: authenticator)
        // Every route that names a catalog asks the access policy whether the reader may see it.
        let gate = CatalogVisibilityGate(
            stores: stores, authentication: authentication,
            fixedCatalogs: Dictionary(
                uniqueKeysWithValues: CompatRoutes.cookbookEndpoints.map { ($0, options.compatCatalog) }))
        var routes = RouterBuilder()
        let throttle = SignInThrottle(policy: options.signInPolicy, clock: options.signInClock)
        let audit = AuditLog(database: stores, limits: options.auditLimits, clock: options.auditClock, log: errorLog)
        let feed = ChangeFeed(stores: stores)
        let metrics = MetricsRegistry()
        let httpMetrics = HTTPMetrics(registry: metrics)
        let draining = Draining()
        let maintainer = SegmentMaintainer(database: stores, log: errorLog)
        let records = RecordsAPI(stores: stores, authentication: authentication, feed: feed, maintainer: maintainer)
        CatalogAPI(stores: stores, authentication: authentication, metrics: CatalogMetrics(registry: metrics))
            .register(in: &routes)
        HealthRoutes(stores: stores, isDraining: { draining.value }).register(in: &routes)
        if options.metricsOnMainPort {
            MetricsRoute(registry: metrics, allowed: options.metricsAllowed).register(in: &routes)
        }
        records.register(in: &routes)
        FavoritesAPI(stores: stores, authentication: authentication).register(in: &routes)
        MembersAPI(stores: stores, authentication: authentication, audit: audit).register(in: &routes)
        KeysAPI(stores: stores, authentication: authentication, audit: audit).register(in: &routes)
        SignInAPI(
            stores: stores, authenticator: authenticator, authentication: authentication, throttle: throttle,
            audit: audit
        ).register(in: &routes)
        AuditAPI(stores: stores, authentication: authentication, now: options.auditClock.now).register(in: &routes)
        let snapshots = SnapshotCache(
            directory: SnapshotAPI.directory(configured: options.snapshotsDirectory, databaseLocation: stores.location),
            maxFiles: options.maxSnapshots)
        SnapshotAPI(stores: stores, authentication: authentication, cache: snapshots).register(in: &routes)
        let jobs = ImportJobs(succeeded: { maintainer.notify($0) })
        let imports = ImportAPI(
            stores: stores, authentication: authentication, timeout: options.importTimeout,
            maxUploadBytes: options.maxUploadBytes, jobs: jobs, fetch: options.importFetch)
        imports.register(in: &routes)
        let thumbnails = ThumbnailCache()
        let management = CatalogManagementAPI(
            stores: stores, authentication: authentication, management: options.management, snapshots: snapshots,
            thumbnails: thumbnails, audit: audit)
        management.register(in: &routes)
        SearchSettingsAPI(
            stores: stores, authentication: authentication, management: options.management, jobs: jobs,
            maintainer: maintainer
        ).register(in: &routes)
        WebRoutes(
            stores: stores, authenticator: authenticator,
            settings: WebSessionSettings(publicURL: options.publicURL), throttle: throttle, audit: audit,
            baseURL: baseURL,
            records: records, imports: imports, management: management
        ).register(in: &routes)
        OpenAPIRoute().register(in: &routes)
        CompatRoutes(stores: stores, catalog: options.compatCatalog, baseURL: baseURL).register(in: &routes)
        ImageRoutes(
            store: ImageStore(directory: options.imagesDirectory), thumbnails: thumbnails, stores: stores,
            authentication: authentication
        ).register(in: &routes)
        // Every matched request passes the visibility gate (whether the requester, a key's account
        // too, may see the catalog the route names), then the key gate (what an API key may do):
        // a hidden catalog is missing for a key too, whatever the key's catalogs and actions.
        let keys = APIKeyGate(authentication: authentication, uses: KeyUseRecorder(audit: audit))
        let router = routes.build(routeMiddleware: [gate, keys])
        let responseCache = CacheCounters()
        CatalogMetrics.register(
            .init(
                stores: stores, responseCache: responseCache, thumbnails: thumbnails, throttle: throttle,
                imports: jobs), in: metrics)
        let middleware = Self.middleware(
            stores: stores, router: router, accessLog: accessLog, errorLog: errorLog, audit: audit,
            observation: (httpMetrics, responseCache))
        var metricsRoutes = RouterBuilder()
        MetricsRoute(registry: metrics, allowed: nil).register(in: &metricsRoutes)
        metricsResponder = metricsRoutes.build().wrapped(in: [
            ObservationMiddleware(log: nil, metrics: nil), ErrorMiddleware(log: errorLog),
        ])
        self.metrics = metrics
        self.draining = draining
        self.stores = stores
        self.thumbnails = thumbnails
        importJobs = jobs
        changeFeed = feed
        segmentMaintainer = maintainer
        self.options = options
        signInThrottle = throttle
        self.audit = audit
        self.router = router
        self.listening = listening
        responder = router.wrapped(in: middleware)
    }

    /// The middleware around `router`, outermost first: request ids, metrics and the access log,
    /// private responses, errors (where every error becomes its answer), CORS, the audit log's
    /// refusals, security headers, compression, conditional GET, the response cache.
    static func middleware(
        stores: any CatalogDatabase, router: Router, accessLog: AccessLog?,
        errorLog: @escaping @Sendable (String) -> Void, audit: AuditLog? = nil,
        observation: (metrics: HTTPMetrics, cache: CacheCounters)? = nil
    ) -> [any Middleware] {
        var middleware: [any Middleware] = [
            ObservationMiddleware(log: accessLog, metrics: observation?.metrics, router: router)
        ]
        middleware += [
            PrivateResponsesMiddleware(),
            ErrorMiddleware(log: errorLog, render: { ErrorPage(stores: stores).render($0, $1) }),
            CORSMiddleware(pathPrefix: "/api/", allowedMethods: { router.allowedMethods(segments: $0) }),
        ]
        // Inside CORS, which turns errors into their answers: the audit log sees what was thrown.
        if let audit { middleware.append(AuditMiddleware(audit: audit)) }
        middleware += [
            SecurityHeadersMiddleware(),
            CompressionMiddleware(),
            ConditionalGetMiddleware(),
            ResponseCache(stores: stores, counters: observation?.cache ?? CacheCounters()),
        ]
        return middleware
    }

    /// Closes every database connection. Call after the server stopped.
    public func close() {
        audit.close()
        changeFeed.stop()
        importJobs.stop()
        segmentMaintainer.stop()
        stores.close()
    }

    /// Tells the application which server serves it: its connections, requests in flight and
    /// event streams join the metrics, and `/readyz` answers 503 once the server stops. The
    /// catalogs with a ranking field get its order made now, in the background, rather than on
    /// their first search.
    public func attach(_ server: HTTPServer) {
        server.registerMetrics(in: metrics)
        draining.watch(server)
        let ranked = try? stores.read { reader in
            try reader.catalogs().compactMap { summary in
                try reader.catalog(summary.id)?.definition.searchSettings.rankingKey == nil ? nil : summary.id
            }
        }
        for id in ranked ?? [] { segmentMaintainer.notify(id) }
    }

    /// Marks the application as draining: `/readyz` answers 503 from now on. `catalog serve` calls
    /// it when SIGINT or SIGTERM arrives, before the server stops.
    public func beginDraining() {
        draining.begin()
    }

    /// Tells the application where the server listens (for absolute URLs without a Host header).
    public func listening(on url: String) {
        listening.set(url)
    }

    /// Sets what the HTTP server needs to know about this application: where it finds each
    /// route's options at head time (the upload limit, the lane: password sign-ins, imports,
    /// snapshots and thumbnails run on threads of their own), and the lanes themselves.
    public func configure(_ configuration: inout ServerConfiguration) {
        let router = router
        configuration.routeOptions = { router.options(method: $0, segments: $1) }
        configuration.recordsClientAddress = true
        configuration.offloadLanes = ServerLanes.lanes(passwordThreads: options.passwordThreads)
    }
}

/// Whether the application is draining: told so, or its server is stopping.
final class Draining: Sendable {
    private let state = Mutex<(begun: Bool, server: WeakServer?)>((false, nil))

    func begin() { state.withLock { $0.begun = true } }
    func watch(_ server: HTTPServer) { state.withLock { $0.server = WeakServer(server: server) } }

    var value: Bool {
        let (begun, server) = state.withLock { ($0.begun, $0.server?.server) }
        return begun || server?.isStopping == true
    }

    struct WeakServer: Sendable {
        weak var server: HTTPServer?
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
