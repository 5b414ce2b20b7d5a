import CatalogCollation
import CatalogHTTP
import CatalogImport
import CatalogModel
import CatalogEngines
import CatalogServer
import CatalogStorage
import Foundation

/// `catalog serve`: the HTTP server.
struct ServeCommand: Command {
    static let name = "serve"
    static let summary = "Serve the catalogs over HTTP: JSON API, original endpoints, feeds, images."
    static let options: Set<String> = [
        "host", "port", "threads", "compat-catalog", "images", "public-url", "max-upload-mb", "max-connections",
        "max-connections-per-ip", "timeout", "header-timeout", "host-name", "users-db", "import-timeout",
        "refresh-every", "refresh-timeout", "max-download-mb", "snapshots", "client-cpu-budget",
    ]
    static let flags: Set<String> = ["quiet", "allow-private-fetch"]
    static let help = """
        USAGE: catalog serve [--db PATH] [--users-db PATH] [--host 127.0.0.1] [--port 8080] [--threads N] [--quiet]
                             [--refresh-every DURATION [--refresh-timeout SECONDS] [--max-download-mb N]
                             [--allow-private-fetch]]

        Serves every catalog of the database over HTTP until SIGINT or SIGTERM, which stop
        accepting connections, let requests in flight finish and close the database cleanly.
        Prints "listening on http://HOST:PORT" once ready; one access-log line per request goes to
        standard error (method, path, status, bytes, microseconds) unless --quiet.

        OPTIONS:
          --host ADDRESS               the address to listen on (default: 127.0.0.1; 0.0.0.0 or ::
                                       for every interface)
          --port N                     the port (default: 8080; 0 picks a free one)
          --threads N                  worker threads (default: one per core)
          --compat-catalog ID          the catalog /gethots, /getcategories, /getrecipesbycategory
                                       and /getrecipe answer for (default: cookbook)
          --images DIR                 the stored images served under /images/ (default: the
                                       "images" folder next to the database, when it exists)
          --public-url URL             the server's public URL, for absolute links behind a proxy;
                                       an https URL makes the session cookies Secure
          --host-name NAME             a host name the server answers as (repeatable); absolute
                                       links use the request's Host only when it names one of
                                       these, else the listening address (default: localhost and
                                       the listening address)
          --users-db PATH              the accounts file: users, sessions, tokens, favorites
                                       (default: beside the database, catalog.sqlite →
                                       catalog-users.sqlite)
          --max-upload-mb N            the largest import upload (default: 64)
          --import-timeout SECONDS     stop an import through the API that runs longer (default: 600);
                                       it also stops when its client goes away or the server stops
          --max-connections N          connections at once (default: 1024)
          --max-connections-per-ip N   connections at once from one address (default: 256)
          --timeout SECONDS            close connections silent this long while a body arrives
                                       or an answer is sent (default: 30)
          --header-timeout SECONDS     a request's line and headers must arrive within this long
                                       of the connection opening or its previous answer, or the
                                       connection is closed (default: 10)
          --client-cpu-budget MS       the CPU time one client address may use per second, with
                                       four times as much as a burst; a client past it is served
                                       on one low-priority thread of its own, behind everybody else,
                                       and gets 429 when that queue is full (default: 500; 0: no
                                       limit, for a server behind a proxy that hides addresses)
          --refresh-every DURATION     refresh every catalog imported from a URL this often, in the
                                       background (conditional GET; 90s, 15m, 2h, 1d); three feeds
                                       are fetched at once, so a slow one never holds up the others
          --refresh-timeout SECONDS    each refresh download's deadline (default: 600; at most 30 s
                                       of silence)
          --max-download-mb N          a refresh download's largest size, as sent and once decoded
                                       (gzip, deflate) (default: 1024)
          --allow-private-fetch        let refreshes follow redirects to loopback, link-local and
                                       private addresses (default: refused, unless the redirect
                                       stays on the feed URL's own scheme, host and port)
          --snapshots DIR              where offline snapshots (/api/v1/catalogs/ID/snapshot) are
                                       kept, one file per catalog version (default: beside the
                                       database, catalog.sqlite → catalog-snapshots/)
          --quiet                      no access log

        """

    func run(_ context: CommandContext) throws {
        let arguments = context.arguments
        let path = context.databaseLocation
        var settings = CatalogServerSettings()
        for name in arguments.values("host-name") {
            guard CatalogServerSettings.isValidHostName(name) else {
                throw CLIError.usage("--host-name: '\(name)' is not a host name (letters, digits, '.', '-')")
            }
            settings.hostNames.append(name)
        }
        if let catalog = arguments.value("compat-catalog") { settings.compatCatalog = catalog }
        if let images = arguments.value("images") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: images, isDirectory: &isDirectory), isDirectory.boolValue
            else {
                throw CLIError.usage("--images: \(images) is not a directory")
            }
            settings.imagesDirectory = images
        } else if !CatalogEngines.isPostgres(path) {
            let nextToDatabase = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("images")
                .path
            if FileManager.default.fileExists(atPath: nextToDatabase) { settings.imagesDirectory = nextToDatabase }
        }
        if let url = arguments.value("public-url") {
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                throw CLIError.usage("--public-url must start with http:// or https://")
            }
            settings.publicURL = url
        }
        if let megabytes = try arguments.integer("max-upload-mb", in: 1...4096) {
            settings.maxUploadBytes = megabytes << 20
        }
        if let seconds = try arguments.integer("import-timeout", in: 1...86_400) {
            settings.importTimeout = .seconds(seconds)
        }
        if let directory = arguments.value("snapshots") {
            guard !directory.isEmpty else { throw CLIError.usage("--snapshots takes a directory") }
            settings.snapshotsDirectory = directory
        }

        var configuration = ServerConfiguration()
        configuration.host = arguments.value("host") ?? "127.0.0.1"
        configuration.port = try arguments.integer("port", in: 0...65535) ?? 8080
        if let threads = try arguments.integer("threads", in: 1...256) { configuration.threads = threads }
        if let limit = try arguments.integer("max-connections", in: 1...100_000) {
            configuration.connectionLimit = limit
        }
        if let limit = try arguments.integer("max-connections-per-ip", in: 1...100_000) {
            configuration.perIPConnectionLimit = limit
        }
        if let seconds = try arguments.integer("timeout", in: 1...3600) { configuration.connectionTimeout = seconds }
        if let seconds = try arguments.integer("header-timeout", in: 1...3600) {
            configuration.headerTimeout = .seconds(seconds)
        }
        if let milliseconds = try arguments.integer("client-cpu-budget", in: 0...1_000_000) {
            configuration.clientBudget =
                milliseconds == 0
                ? nil : .init(perSecond: .milliseconds(milliseconds), burst: .milliseconds(4 * milliseconds))
        }
        settings.listenHost = configuration.host
        let refreshInterval = try arguments.value("refresh-every").map { text throws(CLIError) -> TimeInterval in
            guard let seconds = Self.duration(text), seconds >= 1 else {
                throw CLIError.usage("--refresh-every takes a duration such as 90s, 15m, 2h or 1d, got '\(text)'")
            }
            return seconds
        }
        var refreshOptions = SourceFetcher.Options()
        if let seconds = try arguments.integer("refresh-timeout", in: 1...86_400) {
            refreshOptions.deadline = TimeInterval(seconds)
            refreshOptions.timeout = min(TimeInterval(seconds), 30)
        }
        if let megabytes = try arguments.integer("max-download-mb", in: 1...1_048_576) {
            refreshOptions.maxBytes = Int64(megabytes) << 20
        }
        refreshOptions.allowPrivate = arguments.flag("allow-private-fetch")
        TemporaryFiles.removeStale()

        // Fail now, with the reason, rather than on the first request.
        if !CatalogEngines.isPostgres(path) && !FileManager.default.fileExists(atPath: path) {
            throw CLIError.failure("no database at \(path); create one with 'catalog demo' or 'catalog import'")
        }
        var engineOptions = context.engineOptions
        engineOptions.server = true
        engineOptions.mustExist = true
        let options = CatalogServerOptions(database: try CatalogEngines.open(path, options: engineOptions), settings)

        // Block the stop signals before any thread starts, so every worker inherits the mask and
        // only sigwait below receives them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        signal(SIGPIPE, SIG_IGN)

        let application = CatalogApplication(
            options: options, accessLog: arguments.flag("quiet") ? nil : AccessLog())
        application.configure(&configuration)
        let server = HTTPServer(configuration: configuration, responder: application.responder)
        let port: Int
        do {
            port = try server.start()
        } catch {
            application.stores.close()
            throw CLIError.failure(error.description)
        }
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        application.listening(on: "http://\(host):\(port)")
        context.output.line("listening on http://\(host):\(port)")
        context.output.flush()

        let refresher = refreshInterval.map { interval in
            let refresher = CatalogRefresher(
                interval: interval, importer: .withICU, database: application.stores, fetchOptions: refreshOptions,
                log: { printError("catalog serve: \($0)") })
            refresher.start()
            return refresher
        }

        var received: Int32 = 0
        sigwait(&signals, &received)
        printError("catalog serve: \(received == SIGINT ? "SIGINT" : "SIGTERM"): stopping")
        refresher?.stop()
        server.shutdown()
        application.close()
        TemporaryFiles.removeRegistered()
        printError("catalog serve: stopped")
    }

    /// `90s`, `15m`, `2h`, `1d` or plain seconds, as seconds.
    static func duration(_ text: String) -> TimeInterval? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        if let unit = text.last, let factor = units[unit], let value = Double(text.dropLast()), value > 0 {
            return value * factor
        }
        return Double(text).flatMap { $0 > 0 ? $0 : nil }
    }
}
