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

    /// Imports run on the import lane, take uploads up to the limit, and are for administrators.
    var options: RouteOptions {
        RouteOptions(
            lane: RouteLane(ServerLanes.imports), bodyLimit: maxUploadBytes, authentication: .admin,
            rateClass: .expensive)
    }

    func register(in routes: inout RouterBuilder) {
        let stores = stores
        let authentication = authentication
        let timeout = timeout
        routes.on(.post, "/api/v1/catalogs/{id}/import", options: options) { request, context in
            _ = try authentication.authorized(request, context)
            let id = try context.require("id", as: String.self)
            guard CatalogDefinition.isValidID(id) else {
                throw HTTPError.badParameter("invalid catalog id: use 1 to 64 letters, digits, '-' or '_'")
            }
            let format = try Self.format(of: request)
            guard !request.body.isEmpty else { throw HTTPError.badParameter("the request body (the file) is empty") }
            let replace = try Self.boolean(request, "replace")
            let file = try TemporaryFile(contents: request.body)
            defer { file.remove() }
            let deadline = ContinuousClock.now + timeout
            let cancelled: @Sendable () -> Bool = { context.isCancelled() || ContinuousClock.now > deadline }
            let summary = try Self.stoppingAtTimeout(timedOut: { ContinuousClock.now > deadline }, limit: timeout) {
                // The same import as `catalog import FILE`: a new catalog takes the definition an
                // export carries, and the summary has the import's notes.
                var upload = ImportRequest(source: "upload", catalog: id)
                upload.title = try request.text("title", maxLength: 200)
                let stored = try ImportPlan.storedCatalog(id, in: stores)
                if stored == nil {
                    upload.locale = try request.text("locale", maxLength: 35)
                }
                upload.format = format
                upload.record = try request.text("record", maxLength: 200)
                upload.table = try request.text("table", maxLength: 200)
                upload.replace = replace
                var importer = SourceImporter(collation: { try ICUCollation.forImport(locale: $0) })
                importer.isCancelled = cancelled
                let plan = try ImportPlan(upload, stored: stored)
                return try importer.importFile(at: file.url, displayName: "upload", plan: plan, database: stores)
            }
            return try JSONResponse.make(summary)
        }
    }

    /// The format from `?format=`, else from the Content-Type.
    static func format(of request: Request) throws -> ImportFormat {
        if let name = try request.text("format", maxLength: 10) {
            guard let format = ImportFormat(rawValue: name) else {
                throw HTTPError.badParameter("'format' must be xml, json, csv or sqlite")
            }
            return format
        }
        let type = (request.headers["Content-Type"] ?? "").split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        switch type {
        case "application/xml", "text/xml": return .xml
        case "application/json": return .json
        case "text/csv": return .csv
        case "application/vnd.sqlite3", "application/x-sqlite3": return .sqlite
        default:
            throw HTTPError(
                .unsupportedMediaType, code: "unsupported_media_type",
                "send application/xml, application/json, text/csv or application/vnd.sqlite3, or give ?format=")
        }
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

/// An upload on disk for the duration of an import: a registered temporary file, so a stopped
/// server removes it and a crashed one's is swept at the next start (``TemporaryFiles``).
struct TemporaryFile {
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
