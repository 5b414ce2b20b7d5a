import CatalogHTTP
import CatalogImport
import CatalogModel
import CatalogCollation
import CatalogStorage
import Foundation

/// `POST /api/v1/catalogs/{id}/import`: an administrator uploads a file (XML, JSON, CSV or an
/// SQLite database) and it is imported like `catalog import` does: in one transaction, so a bad
/// file changes nothing and the error (422) says where the problem is.
///
/// The upload goes to a temporary file first; the import runs on a thread of its own (the
/// server's import lane), so the workers keep answering everyone else, and readers never wait:
/// the file is read and indexed without any lock, and only the final write takes the database's
/// write lock. The import stops, changing nothing, when the client goes away, when it runs
/// longer than the time limit (`--import-timeout`), or when the server stops.
struct ImportAPI {
    let stores: any CatalogDatabase
    let authentication: RequestAuthentication
    let timeout: Duration
    /// The largest upload accepted (`--max-upload-mb`): the route's body limit.
    let maxUploadBytes: Int
    /// The imports that run in the background.
    let jobs: ImportJobs
    /// How a source given by URL (`?url=`) is downloaded: the refresher's limits, and its rule
    /// on redirects to private addresses.
    let fetch: SourceFetcher.Options

    /// Imports run on the import lane, take uploads up to the limit, and are for administrators.
    var options: RouteOptions {
        RouteOptions(
            lane: RouteLane(ServerLanes.imports), bodyLimit: maxUploadBytes, authentication: .admin,
            rateClass: .expensive)
    }

    /// A job's state: for the user who started it (or an administrator).
    static let jobOptions = RouteOptions(authentication: .signedIn)

    func register(in routes: inout RouterBuilder) {
        let api = self
        routes.on(.post, "/api/v1/catalogs/{id}/import", options: options) { request, context in
            let user = try api.authentication.signedIn(request, context)
            let id = try Self.catalogID(context)
            if Self.prefersAsync(request) {
                return try api.start(request, catalog: id, user: user)
            }
            let upload = try ImportUpload(request, catalog: id, stores: api.stores)
            defer { upload.remove() }
            let deadline = ContinuousClock.now + api.timeout
            let cancelled: @Sendable () -> Bool = { context.isCancelled() || ContinuousClock.now > deadline }
            let summary = try Self.stoppingAtTimeout(timedOut: { ContinuousClock.now > deadline }, limit: api.timeout) {
                try api.run(upload, progress: nil, isCancelled: cancelled)
            }
            return try JSONResponse.make(summary)
        }
        routes.on(.post, "/api/v1/catalogs/{id}/import/preview", options: options) { request, context in
            _ = try api.authentication.authorized(request, context)
            return try api.preview(request, catalog: try Self.catalogID(context)) { context.isCancelled() }
        }
        routes.get("/api/v1/imports/{job}", options: Self.jobOptions) { request, context in
            let user = try api.authentication.signedIn(request, context)
            return try api.status(try context.require("job", as: String.self), user: user)
        }
    }

    /// The catalog id of the route, checked.
    static func catalogID(_ context: RequestContext) throws -> String {
        let id = try context.require("id", as: String.self)
        guard CatalogDefinition.isValidID(id) else {
            throw HTTPError.badParameter("invalid catalog id: use 1 to 64 letters, digits, '-' or '_'")
        }
        return id
    }

    /// Whether the client asked for a background job (`Prefer: respond-async`, RFC 7240).
    static func prefersAsync(_ request: Request) -> Bool {
        request.headers.values("Prefer").contains { header in
            header.split(separator: ",").contains {
                $0.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "respond-async"
            }
        }
    }

    /// Imports `upload` the way `catalog import` does: in one transaction, so a bad file changes
    /// nothing and the error says where the problem is. `progress` hears how far it got.
    func run(_ upload: ImportUpload, progress: ImportJobs.Progress?, isCancelled: @escaping @Sendable () -> Bool)
        throws -> ImportSummary
    {
        var importer = SourceImporter(collation: { try ICUCollation.forImport(locale: $0) })
        importer.countryNames = { ICUCountryNames.names(locale: $0) }
        importer.isCancelled = isCancelled
        if let progress {
            let report = progress.report
            importer.sizeKnown = { report(.size($0)) }
            importer.bytesRead = { report(.bytes($0)) }
            importer.recordsRead = { report(.records($0)) }
            importer.readingDone = { report(.readingDone($0)) }
        }
        let fetched = try upload.fetched(options: fetch, isCancelled: isCancelled)
        defer { fetched.discard() }
        return try importer.importFetched(fetched, plan: upload.plan, database: stores)
    }

    /// `POST …/import` with `Prefer: respond-async`: the import becomes a job of `user`'s;
    /// 202 with its state and `Location`.
    func start(_ request: Request, catalog: String, user: User) throws -> Response {
        let upload = try ImportUpload(request, catalog: catalog, stores: stores)
        let api = self
        let deadline = ContinuousClock.now + timeout
        let job: ImportJob
        do {
            job = try jobs.start(catalog: catalog, owner: user.id) { progress in
                defer { upload.remove() }
                let timedOut: @Sendable () -> Bool = { ContinuousClock.now > deadline }
                return try Self.stoppingAtTimeout(timedOut: timedOut, limit: api.timeout) {
                    try api.run(upload, progress: progress) { timedOut() || progress.isStopped() }
                }
            }
        } catch {
            // Refused (too many jobs, or the server stops): the upload goes now.
            upload.remove()
            throw error
        }
        return try ImportJobs.accepted(job)
    }

    /// `GET /api/v1/imports/{job}`: 404 unless `user` started it or is an administrator.
    func status(_ id: String, user: User) throws -> Response {
        guard let job = jobs.job(id, for: user.id, isAdmin: user.isAdmin) else {
            throw HTTPError.notFound("no such import job")
        }
        var response = try JSONResponse.make(job.document)
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// `POST …/import/preview`: what the import of the same request would make of the source's
    /// first records (`?limit=`, 20 by default), storing nothing.
    func preview(_ request: Request, catalog: String, isCancelled: @escaping @Sendable () -> Bool) throws
        -> Response
    {
        let limit = try request.integer("limit", in: 1...ImportPreview.maxRecords, default: 20)
        let upload = try ImportUpload(request, catalog: catalog, stores: stores)
        defer { upload.remove() }
        let fetched = try upload.fetched(options: fetch, isCancelled: isCancelled)
        defer { fetched.discard() }
        var response = try JSONResponse.make(try ImportPreview.read(fetched, plan: upload.plan, limit: limit))
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// The format from `?format=`, else from the Content-Type; nil for
    /// `application/octet-stream`: found from the file's first bytes, as `catalog import` does.
    static func format(of request: Request) throws -> ImportFormat? {
        if let format = try formatParameter(request) { return format }
        let type = (request.headers["Content-Type"] ?? "").split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        switch type {
        case "application/xml", "text/xml": return .xml
        case "application/json": return .json
        case "text/csv": return .csv
        case "application/vnd.sqlite3", "application/x-sqlite3": return .sqlite
        case "application/octet-stream": return nil
        default:
            throw HTTPError(
                .unsupportedMediaType, code: "unsupported_media_type",
                "send application/xml, application/json, text/csv, application/vnd.sqlite3 or "
                    + "application/octet-stream, or give ?format=")
        }
    }

    /// The format `?format=` names, nil without one.
    static func formatParameter(_ request: Request) throws -> ImportFormat? {
        guard let name = try request.text("format", maxLength: 10) else { return nil }
        guard let format = ImportFormat(rawValue: name) else {
            throw HTTPError.badParameter("'format' must be xml, json, csv or sqlite")
        }
        return format
    }

    static func boolean(_ request: Request, _ name: String) throws -> Bool {
        switch request.query(name)?.lowercased() {
        case nil, "", "false", "0", "no": return false
        case "true", "1", "yes": return true
        default: throw HTTPError.badParameter("'\(name)' must be true or false")
        }
    }

    /// An import stopped by its time limit, whatever it threw on the way out, is a 503 that says
    /// so. Every other failure answers as its error does (``ImportError`` and ``StorageError``
    /// conform to ``HTTPResponseError``): a malformed file is the client's problem (422, with
    /// where), a duplicate id a 409, storage trouble a bare 500.
    static func stoppingAtTimeout<T>(timedOut: () -> Bool, limit: Duration, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch  where timedOut() {
            throw HTTPError(
                .serviceUnavailable, code: "import_timeout",
                "the import took longer than \(limit.components.seconds) s and was stopped; nothing changed")
        }
    }
}

/// An import request of the API, read once: the catalog, how to read the source and map it
/// (`format`, `record`, `table`, `field=ROLE=NAME` as `catalog import --field`), a new catalog's
/// `title` and `locale`, `replace`, and the source: the body, or `url=` (http or https, fetched
/// with the server's download limits). The import, its preview and a job all read it here.
struct ImportUpload: Sendable {
    /// The plan: the request against the catalog as stored now.
    let plan: ImportPlan
    /// The uploaded file, nil when the source is a URL.
    let file: TemporaryFile?

    init(_ request: Request, catalog: String, stores: any CatalogDatabase) throws {
        let url = try request.text("url", maxLength: 2048)
        // A download's format is `?format=`, else its name's or its first bytes'.
        let format = url == nil ? try ImportAPI.format(of: request) : try ImportAPI.formatParameter(request)
        if let url {
            guard SourceFetcher.isRemote(url) else {
                throw HTTPError.badParameter("'url' must be an http or https URL")
            }
            guard request.body.isEmpty else { throw HTTPError.badParameter("send a file or give 'url', not both") }
        } else if request.body.isEmpty {
            throw HTTPError.badParameter("the request body (the file) is empty")
        }
        var upload = ImportRequest(source: url ?? "upload", catalog: catalog)
        upload.title = try request.text("title", maxLength: 200)
        let stored = try ImportPlan.storedCatalog(catalog, in: stores)
        if stored == nil {
            upload.locale = try request.text("locale", maxLength: 35)
        }
        upload.format = format
        upload.record = try request.text("record", maxLength: 200)
        upload.table = try request.text("table", maxLength: 200)
        upload.replace = try ImportAPI.boolean(request, "replace")
        upload.mapping = try Self.mapping(request)
        let plan = try ImportPlan(upload, stored: stored)
        self.plan = plan
        file = url == nil ? try TemporaryFile(contents: request.body) : nil
    }

    /// `field=ROLE=NAME` values: the source field that feeds each role.
    static func mapping(_ request: Request) throws -> [Role: String] {
        var mapping: [Role: String] = [:]
        for value in try request.texts("field", maxLength: 300, maxCount: Role.allCases.count) {
            let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[1].isEmpty else {
                throw HTTPError.badParameter("'field' takes ROLE=NAME, got '\(value.prefix(80))'")
            }
            guard let role = Role(rawValue: parts[0]) else {
                throw HTTPError.badParameter(
                    "'field': unknown role '\(parts[0].prefix(40))'; roles: "
                        + Role.allCases.map(\.rawValue).joined(separator: ", "))
            }
            guard mapping[role] == nil else { throw HTTPError.badParameter("'field': role \(role.rawValue) twice") }
            mapping[role] = parts[1]
        }
        return mapping
    }

    /// The file to read: the upload, or the URL downloaded.
    func fetched(options: SourceFetcher.Options, isCancelled: @escaping @Sendable () -> Bool) throws -> FetchedSource {
        if let file { return FetchedSource.local(file.url, displayName: "upload") }
        guard
            case .file(let fetched) = try SourceFetcher().fetchBlocking(
                plan.request.source, options: options, isCancelled: isCancelled)
        else { throw ImportError(.io, "the server sent no file") }
        return fetched
    }

    /// Removes the uploaded file.
    func remove() {
        file?.remove()
    }
}

/// An upload on disk for the duration of an import: a registered temporary file, so a stopped
/// server removes it and a crashed one's is swept at the next start (``TemporaryFiles``).
struct TemporaryFile: Sendable {
    let url: URL

    init(contents: [UInt8]) throws {
        url = TemporaryFiles.create(kind: "upload")
        guard
            FileManager.default.createFile(
                atPath: url.path, contents: Data(contents), attributes: [.posixPermissions: 0o600])
        else { throw HTTPError(.internalServerError, code: "io", "cannot store the upload") }
    }

    func remove() {
        TemporaryFiles.remove(url)
    }
}
