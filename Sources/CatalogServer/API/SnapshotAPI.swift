import CatalogCore
import CatalogHTTP
import CatalogModel
import CatalogStorage
import Foundation

/// `GET /api/v1/catalogs/{id}/snapshot`: one catalog as a self-contained SQLite file (records,
/// sections, sort keys, search index; no accounts) that the client library's `OfflineCatalog`
/// browses and searches exactly as the server does.
///
/// The ETag is the catalog version's (``SnapshotCache/etag(of:)``): `If-None-Match` answers 304
/// without building anything, `Range` (with `If-Range`) resumes a download with 206, HEAD tells the
/// size. The file is built on the server's snapshot lane (threads of their own, off the event
/// loops) the first time a version is asked for, and kept on disk beside the database.
///
/// An API key with a record filter gets the snapshot of its records only (their own file, with
/// an ETag of their own), as of the catalog's change number, so that the key's change feed goes
/// on from there.
struct SnapshotAPI {
    let stores: any CatalogDatabase
    let authentication: RequestAuthentication
    let cache: SnapshotCache

    func register(in routes: inout RouterBuilder) {
        let stores = stores
        let cache = cache
        let authentication = authentication
        routes.get("/api/v1/catalogs/{id}/snapshot", options: Self.options) { request, context in
            let id = try context.require("id", as: String.self)
            let filter = try authentication.recordFilter(for: request)
            return try stores.read(narrowedBy: filter) { reader in
                let catalog = try reader.catalogOr404(id)
                let etag = SnapshotCache.etag(of: catalog)
                if let condition = request.headers["If-None-Match"],
                    ConditionalGetMiddleware.matches(condition, etag: etag)
                {
                    return Response(status: .notModified, headers: Self.headers(etag: etag))
                }
                let file = try cache.file(
                    catalog: id, etag: etag, filter: filter, reader: reader, isCancelled: context.isCancelled)
                var headers = Self.headers(etag: file.etag)
                headers["Content-Type"] = "application/vnd.sqlite3"
                headers["Content-Disposition"] = "attachment; filename=\"\(id).sqlite\""
                // If-Range: a range of the version the client has, else the whole new version.
                let rangeHeader =
                    request.headers["If-Range"].map { $0 == file.etag } ?? true ? request.headers["Range"] : nil
                switch ByteRange.select(rangeHeader, size: file.size) {
                case .whole:
                    return Response(
                        status: .ok, headers: headers, file: FileBody(path: file.url.path, length: file.size))
                case .part(let part):
                    headers["Content-Range"] = ByteRange.contentRange(part, size: file.size)
                    return Response(
                        status: .partialContent, headers: headers,
                        file: FileBody(
                            path: file.url.path, offset: part.lowerBound, length: part.upperBound - part.lowerBound))
                case .unsatisfiable:
                    headers["Content-Range"] = "bytes */\(file.size)"
                    return Response(status: .rangeNotSatisfiable, headers: headers)
                }
            }
        }
    }

    static func headers(etag: String) -> HTTPHeaders {
        HTTPHeaders([("ETag", etag), ("Cache-Control", "no-cache"), ("Accept-Ranges", "bytes")])
    }

    /// Snapshots are built on the snapshot lane (seconds for a large catalog, the first time a
    /// version is asked for).
    static let options = RouteOptions(lane: RouteLane(ServerLanes.snapshots), rateClass: .expensive)

    /// Where snapshots are kept: `--snapshots DIR`, else beside an SQLite file (`catalog.sqlite` →
    /// `catalog-snapshots/`), else in the temporary directory.
    static func directory(configured: String?, databaseLocation: String) -> URL {
        if let configured, !configured.isEmpty { return URL(fileURLWithPath: configured) }
        if !databaseLocation.contains("://") {
            let file = URL(fileURLWithPath: databaseLocation)
            let name = file.deletingPathExtension().lastPathComponent
            return file.deletingLastPathComponent().appendingPathComponent("\(name)-snapshots")
        }
        let tag = ConditionalGetMiddleware.etag(of: Array(databaseLocation.utf8)).filter(\.isHexDigit)
        return FileManager.default.temporaryDirectory.appendingPathComponent("catalog-snapshots-\(tag)")
    }
}
