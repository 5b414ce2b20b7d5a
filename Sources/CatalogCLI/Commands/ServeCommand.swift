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
    static let readsEnvironment = true
    static let host = Option<String>(
        "host", value: "ADDRESS", default: "127.0.0.1",
        help: "the address to listen on; 0.0.0.0 or :: for every interface")
    static let port = Option<Int>(
        "port", value: "N", in: 0...65535, default: 8080, help: "the port; 0 picks a free one")
    static let threads = Option<Int?>(
        "threads", value: "N", in: 1...256, showing: "one per core", help: "worker threads")
    static let compatCatalog = Option<String?>(
        "compat-catalog", value: "ID", showing: "cookbook",
        help: "the catalog /gethots, /getcategories, /getrecipesbycategory and /getrecipe answer for")
    static let images = Option<String?>(
        "images", value: "DIR", showing: #"the "images" folder next to the database, when it exists"#,
        help: "the stored images served under /images/")
    static let publicURL = Option<String?>(
        "public-url", value: "URL",
        help:
            "the server's public URL, for absolute links behind a proxy; an https URL makes the session cookies Secure"
    ) { (url: String) throws(CLIError) -> String in
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
            throw CLIError.usage("--public-url must start with http:// or https://")
        }
        return url
    }
    static let hostName = Option<[String]>(
        "host-name", value: "NAME", showing: "localhost and the listening address",
        help:
            "a host name the server answers as (repeatable); absolute links use the request's Host only when it "
            + "names one of these, else the listening address"
    ) { (name: String) throws(CLIError) -> String in
        guard CatalogServerSettings.isValidHostName(name) else {
            throw CLIError.usage("--host-name: '\(name)' is not a host name (letters, digits, '.', '-')")
        }
        return name
    }
    static let dbRead = Option<[String]>(
        "db-read", value: "URL", showing: "none: every read goes to --db",
        help:
            "a PostgreSQL hot standby of --db to read from (repeatable; reads take turns among them); a standby that "
            + "is down or has not replayed the newest write this server knows of is passed over for --db, and "
            + "writes, sign-ins and favorites always go to --db"
    ) { (url: String) throws(CLIError) -> String in
        guard CatalogEngines.isPostgres(url) else {
            throw CLIError.usage("--db-read takes a postgres:// or postgresql:// URL, got '\(url)'")
        }
        return url
    }
    static let usersDB = CommonOptions.usersDB.help(
        "the accounts file: users, sessions, tokens, favorites",
        default: "beside the database, catalog.sqlite → catalog-users.sqlite")
    static let maxUploadMB = Option<Int?>(
        "max-upload-mb", value: "N", in: 1...4096, showing: "64", help: "the largest import upload")
    static let importTimeout = Option<Int?>(
        "import-timeout", value: "SECONDS", in: 1...86_400,
        help:
            "stop an import through the API that runs longer (default: 600); it also stops when its client goes "
            + "away or the server stops")
    static let maxConnections = Option<Int?>(
        "max-connections", value: "N", in: 1...100_000, showing: "1024", help: "connections at once")
    static let maxConnectionsPerIP = Option<Int?>(
        "max-connections-per-ip", value: "N", in: 1...100_000, showing: "256",
        help: "connections at once from one TCP peer (behind a proxy: the proxy's own connections)")
    static let timeout = Option<Int?>(
        "timeout", value: "SECONDS", in: 1...3600, showing: "30",
        help: "close connections silent this long while a body arrives or an answer is sent")
    static let headerTimeout = Option<Int?>(
        "header-timeout", value: "SECONDS", in: 1...3600, showing: "10",
        help:
            "a request's line and headers must arrive within this long of the connection opening or its previous "
            + "answer, or the connection is closed")
    static let bodyTimeout = Option<Int?>(
        "body-timeout", value: "SECONDS", in: 1...86_400, showing: "60",
        help:
            "a request's body must arrive within this long of its headers, however steadily it trickles, or it gets "
            + "408 and the connection is closed")
    static let trustedProxy = Option<[AddressRange]>(
        "trusted-proxy", value: "CIDR", showing: "none: forwarding headers are ignored",
        help:
            "a proxy in front of the server (repeatable: 127.0.0.1/32, 10.0.0.0/8); from these peers the client's "
            + "address and scheme are taken from Forwarded or X-Forwarded-For and X-Forwarded-Proto, and only they "
            + "may choose X-Request-Id"
    ) { (text: String) throws(CLIError) -> AddressRange in
        do throws(HTTPServerError) {
            return try AddressRange(text)
        } catch {
            throw CLIError.usage("--trusted-proxy: \(error.message)")
        }
    }
    static let clientCPUBudget = Option<Int?>(
        "client-cpu-budget", value: "MS", in: 0...1_000_000,
        showing: "500; 0: no limit, for a server behind a proxy that hides addresses (see --trusted-proxy)",
        help:
            "the CPU time one client address may use per second, with four times as much as a burst; a client "
            + "past it is served on one low-priority thread of its own, behind everybody else, and gets 429 when "
            + "that queue is full")
    static let refreshEvery = durationOption(
        "refresh-every",
        help:
            "refresh every catalog imported from a URL this often, in the background (conditional GET; 90s, 15m, "
            + "2h, 1d); three feeds are fetched at once, so a slow one never holds up the others")
    static let refreshTimeout = Option<Int?>(
        "refresh-timeout", value: "SECONDS", in: 1...86_400, showing: "600; at most 30 s of silence",
        help: "each download's deadline: refreshes, and imports from a URL through the API")
    static let maxDownloadMB = CommonOptions.maxDownloadMB.help(
        "a download's largest size (refreshes, API imports from a URL), as sent and once decoded (gzip, deflate)")
    static let allowPrivateFetch = CommonOptions.allowPrivateFetch.help(
        "let refreshes and API imports from a URL follow redirects to loopback, link-local and private addresses "
            + "(default: refused, unless the redirect stays on the URL's own scheme, host and port)")
    static let snapshots = directoryOption(
        "snapshots", showing: "beside the database, catalog.sqlite → catalog-snapshots/",
        help: "where offline snapshots (/api/v1/catalogs/ID/snapshot) are kept, one file per catalog version")
    static let indexFiles = directoryOption(
        "index-files", showing: "beside a SQLite database; for PostgreSQL systemd's CACHE_DIRECTORY, else /var/tmp",
        help:
            "where loaded search indexes keep their lexicons and columns: files made and deleted at once, mapped "
            + "into memory, so the kernel can drop their pages under memory pressure and read them back (use a "
            + "disk, not a tmpfs); 'memory' keeps them on the heap")
    static let keepHistory = Option<Int>(
        "keep-history", value: "DAYS", in: 1...36_500, default: 90,
        help: "how long the change log keeps a change (a record's history, the change feed)")
    static let auditKeep = durationOption(
        "audit-keep", showing: "90d",
        help:
            "how long the audit log keeps a security event (sign-ins, refused requests, changes of roles, accounts "
            + "and catalogs: 'catalog audit'), pruned hourly (12h, 30d)")
    static let backupEvery = durationOption(
        "backup-every",
        help:
            "back the SQLite database and its accounts up this often, in the background (90s, 15m, 6h, 1d), as "
            + "'catalog backup' does, into files named with the UTC time")
    static let backupDir = directoryOption(
        "backup-dir", showing: "beside the database, catalog.sqlite → catalog-backups/",
        help: "where --backup-every writes its backups (created when missing)")
    static let keep = Option<Int?>(
        "keep", value: "N", in: 1...100_000, showing: "7",
        help: "how many of --backup-every's backups to keep, the newest")
    static let quiet = CommonOptions.quiet.help("no access log")
    static let logFormat = Option<AccessLog.Format>(
        "log-format", value: "FORMAT", default: .text,
        help:
            "the access log's lines: text, or json (one object per line: time, request_id, client, method, route, "
            + "path, status, bytes, duration_us, user)"
    ) { (text: String) throws(CLIError) -> AccessLog.Format in
        guard let format = AccessLog.Format(rawValue: text) else {
            throw CLIError.usage("--log-format takes text or json, got '\(text)'")
        }
        return format
    }
    static let metricsAllow = Option<[AddressRange]>(
        "metrics-allow", value: "CIDR", showing: "127.0.0.0/8 and ::1, loopback only",
        help:
            "addresses that may read /metrics on the main port (repeatable: 10.0.0.0/8, 192.0.2.7); others get 404"
    ) { (text: String) throws(CLIError) -> AddressRange in
        do throws(HTTPServerError) {
            return try AddressRange(text)
        } catch {
            throw CLIError.usage("--metrics-allow: \(error.message)")
        }
    }
    static let metricsPort = Option<Int?>(
        "metrics-port", value: "N", in: 0...65535,
        help:
            "serve /metrics on a port of its own (on the same address, to everyone who reaches it) instead of the "
            + "main port")
    /// An option that takes a duration of at least a second (90s, 15m, 2h, 1d; ``duration(_:)``).
    private static func durationOption(_ name: String, showing: String? = nil, help: String) -> Option<TimeInterval?> {
        Option<TimeInterval?>(name, value: "DURATION", showing: showing, help: help) {
            (text: String) throws(CLIError) -> TimeInterval in
            guard let seconds = ServeCommand.duration(text), seconds >= 1 else {
                throw CLIError.usage("--\(name) takes a duration such as 90s, 15m, 2h or 1d, got '\(text)'")
            }
            return seconds
        }
    }

    /// An option that takes a directory (not empty), with the default it shows.
    private static func directoryOption(_ name: String, showing: String, help: String) -> Option<String?> {
        Option<String?>(name, value: "DIR", showing: showing, help: help) { (directory: String) throws(CLIError) in
            guard !directory.isEmpty else { throw CLIError.usage("--\(name) takes a directory") }
            return directory
        }
    }

    static let options: [any OptionDeclaration] = [
        dbRead, host, port, threads, compatCatalog, images, publicURL, hostName, usersDB, maxUploadMB, importTimeout,
        maxConnections, maxConnectionsPerIP, timeout, headerTimeout, bodyTimeout, trustedProxy, clientCPUBudget,
        refreshEvery, refreshTimeout, maxDownloadMB, allowPrivateFetch, snapshots, indexFiles, keepHistory, auditKeep,
        backupEvery,
        backupDir, keep, quiet, logFormat, metricsAllow, metricsPort,
    ]
    static let usage = [
        Usage(
            .option(CommonOptions.db), .option(usersDB), .option(host), .option(port), .option(threads),
            .option(quiet), .group(refreshEvery, refreshTimeout, maxDownloadMB, allowPrivateFetch),
            .group(backupEvery, backupDir, keep))
    ]
    static let discussion = """
        Serves every catalog of the database over HTTP until SIGINT or SIGTERM, which stop
        accepting connections, let requests in flight finish and close the database cleanly.
        Prints "listening on http://HOST:PORT" once ready; one access-log line per request goes to
        standard error (method, path, status, bytes, microseconds; --log-format json for JSON lines)
        unless --quiet. Every answer carries an X-Request-Id. GET /healthz and /readyz answer
        probes; GET /metrics shows Prometheus metrics to loopback (see --metrics-allow and
        --metrics-port); none of them is logged or throttled.
        """

    func run(_ context: CommandContext) throws {
        let arguments = context.arguments
        let path = context.databaseLocation
        var settings = CatalogServerSettings()
        settings.hostNames += try arguments[Self.hostName]
        if let catalog = try arguments[Self.compatCatalog] { settings.compatCatalog = catalog }
        if let images = try arguments[Self.images] {
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
        if let url = try arguments[Self.publicURL] { settings.publicURL = url }
        if let megabytes = try arguments[Self.maxUploadMB] {
            settings.maxUploadBytes = megabytes << 20
        }
        if let seconds = try arguments[Self.importTimeout] {
            settings.importTimeout = .seconds(seconds)
        }
        if let directory = try arguments[Self.snapshots] { settings.snapshotsDirectory = directory }
        let allowed = try arguments[Self.metricsAllow]
        if !allowed.isEmpty { settings.metricsAllowed = allowed }
        let metricsPort = try arguments[Self.metricsPort]
        settings.metricsOnMainPort = metricsPort == nil
        let logFormat = try arguments[Self.logFormat]

        var configuration = ServerConfiguration()
        configuration.host = try arguments[Self.host]
        configuration.port = try arguments[Self.port]
        if let threads = try arguments[Self.threads] { configuration.threads = threads }
        if let limit = try arguments[Self.maxConnections] {
            configuration.connectionLimit = limit
        }
        if let limit = try arguments[Self.maxConnectionsPerIP] {
            configuration.perIPConnectionLimit = limit
        }
        if let seconds = try arguments[Self.timeout] { configuration.connectionTimeout = seconds }
        if let seconds = try arguments[Self.headerTimeout] {
            configuration.headerTimeout = .seconds(seconds)
        }
        if let seconds = try arguments[Self.bodyTimeout] { configuration.bodyTimeout = .seconds(seconds) }
        configuration.trustedProxies = try arguments[Self.trustedProxy]
        if let milliseconds = try arguments[Self.clientCPUBudget] {
            configuration.clientBudget =
                milliseconds == 0
                ? nil : .init(perSecond: .milliseconds(milliseconds), burst: .milliseconds(4 * milliseconds))
        }
        settings.listenHost = configuration.host
        let refreshInterval = try arguments[Self.refreshEvery]
        var refreshOptions = SourceFetcher.Options()
        if let seconds = try arguments[Self.refreshTimeout] {
            refreshOptions.deadline = TimeInterval(seconds)
            refreshOptions.timeout = min(TimeInterval(seconds), 30)
        }
        if let megabytes = try arguments[Self.maxDownloadMB] {
            refreshOptions.maxBytes = Int64(megabytes) << 20
        }
        refreshOptions.allowPrivate = arguments[Self.allowPrivateFetch]
        // An import through the API from a URL downloads as a refresh does.
        settings.importFetch = refreshOptions
        TemporaryFiles.removeStale()

        let auditRetention = try arguments[Self.auditKeep] ?? AuditLog.defaultRetention
        let backupInterval = try arguments[Self.backupEvery]
        if backupInterval != nil && CatalogEngines.isPostgres(path) {
            throw CLIError.usage("--backup-every backs up SQLite files; \(DatabaseBackup.postgresAdvice)")
        }
        if backupInterval == nil, try arguments[Self.backupDir] != nil || arguments[Self.keep] != nil {
            throw CLIError.usage("--backup-dir and --keep go with --backup-every")
        }
        let backupDirectory = try arguments[Self.backupDir] ?? ScheduledBackups.defaultDirectory(forDatabase: path)
        let backupsKept = try arguments[Self.keep] ?? 7

        let readReplicas = try arguments[Self.dbRead]
        if !readReplicas.isEmpty && !CatalogEngines.isPostgres(path) {
            throw CLIError.usage("--db-read: \(CatalogEngines.sqliteReplicasAdvice)")
        }
        // Fail now, with the reason, rather than on the first request.
        if !CatalogEngines.isPostgres(path) && !FileManager.default.fileExists(atPath: path) {
            throw CLIError.failure("no database at \(path); create one with 'catalog demo' or 'catalog import'")
        }
        var engineOptions = context.engineOptions
        engineOptions.server = true
        engineOptions.mustExist = true
        engineOptions.readReplicas = readReplicas
        switch try arguments[Self.indexFiles] {
        case "memory": engineOptions.indexFiles = .memory
        case let directory?:
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
            else { throw CLIError.usage("--index-files: no directory at \(directory)") }
            engineOptions.indexFiles = .directory(directory)
        case nil: break
        }
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
            options: options, accessLog: arguments[Self.quiet] ? nil : AccessLog(format: logFormat))
        application.configure(&configuration)
        let server = HTTPServer(configuration: configuration, responder: application.responder)
        application.attach(server)
        let metricsServer = metricsPort.map { port in
            var metricsConfiguration = ServerConfiguration()
            metricsConfiguration.host = configuration.host
            metricsConfiguration.port = port
            metricsConfiguration.threads = 1
            metricsConfiguration.connectionLimit = 64
            metricsConfiguration.perIPConnectionLimit = 16
            metricsConfiguration.clientBudget = nil
            return HTTPServer(configuration: metricsConfiguration, responder: application.metricsResponder)
        }
        let port: Int
        do {
            port = try server.start()
            if let metricsServer {
                let bound = try metricsServer.start()
                let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
                printError("catalog serve: metrics on http://\(host):\(bound)/metrics")
            }
        } catch {
            server.shutdown()
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

        let pruner = HistoryPruner(
            database: application.stores, retention: TimeInterval(try arguments[Self.keepHistory]) * 86_400,
            log: { printError("catalog serve: \($0)") })
        pruner.start()
        application.audit.startPruning(keeping: auditRetention)
        let trimmer = HeapTrimmer()
        trimmer.register(in: application.metrics)
        trimmer.start()

        let backups = backupInterval.map { interval in
            let backups = ScheduledBackups(
                database: path,
                accounts: DatabaseBackup.accountsFile(of: path, usersLocation: engineOptions.usersLocation),
                directory: backupDirectory, keep: backupsKept, interval: interval,
                log: { printError("catalog serve: \($0)") })
            backups.start()
            return backups
        }

        var received: Int32 = 0
        sigwait(&signals, &received)
        printError("catalog serve: \(received == SIGINT ? "SIGINT" : "SIGTERM"): stopping")
        application.beginDraining()
        refresher?.stop()
        backups?.stop()
        pruner.stop()
        trimmer.stop()
        server.shutdown()
        metricsServer?.shutdown()
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
