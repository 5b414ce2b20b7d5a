import CatalogSQLite
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What ``CatalogClient/download(catalog:to:progress:)`` did.
public enum SnapshotDownload: Sendable, Hashable {
    /// A new snapshot is at the destination.
    case downloaded(etag: String, bytes: Int64)
    /// The snapshot at the destination is current: nothing was downloaded.
    case notModified(etag: String)

    /// The snapshot's ETag.
    public var etag: String {
        switch self {
        case .downloaded(let etag, _), .notModified(let etag): etag
        }
    }
}

extension CatalogClient {
    /// Downloads a catalog's offline snapshot to `destination`, or confirms the one there is current.
    ///
    /// When `destination` holds a snapshot, the server is asked with its ETag, and an unchanged
    /// catalog costs a 304. A download that breaks off (no network, the task cancelled) leaves
    /// `destination.part` behind and the next call resumes it with a `Range` request, provided
    /// the catalog has not changed meanwhile. The new file replaces the old one in one step once it
    /// is complete and opens as a snapshot of `catalog`; an ``OfflineCatalog`` open on the old file
    /// keeps reading it.
    ///
    /// ```swift
    /// let file = documents.appendingPathComponent("cookbook.sqlite")
    /// _ = try await client.download(catalog: "cookbook", to: file) { progress in
    ///     print(progress.fraction ?? 0)
    /// }
    /// let offline = try OfflineCatalog(at: file)
    /// ```
    ///
    /// - Parameters:
    ///   - catalog: the catalog's id.
    ///   - destination: the snapshot's file.
    ///   - progress: called as bytes arrive, on a thread of the download's own.
    /// - Returns: whether a new file arrived, and its ETag.
    /// - Throws: ``CatalogClientError``; `.storage` when the file cannot be written or what
    ///   arrived is not a snapshot of `catalog`.
    @discardableResult
    public func download(
        catalog: String, to destination: URL, progress: (@Sendable (DownloadProgress) -> Void)? = nil
    ) async throws(CatalogClientError) -> SnapshotDownload {
        let url = url(["api", "v1", "catalogs", try Self.segment(catalog), "snapshot"])
        let partial = destination.appendingPathExtension("part")
        let partialTag = destination.appendingPathExtension("part-etag")
        let current = Self.snapshotETag(at: destination)
        for attempt in 0..<2 {
            guard !Task.isCancelled else {
                throw CatalogClientError(.cancelled, "the download of \"\(catalog)\" was cancelled")
            }
            var request = request("GET", url)
            request.setValue("application/vnd.sqlite3", forHTTPHeaderField: "Accept")
            if let current { request.setValue(current, forHTTPHeaderField: "If-None-Match") }
            let resumeTag = try? String(contentsOf: partialTag, encoding: .utf8)
            let have = Self.size(of: partial)
            if let resumeTag, have > 0 {
                request.setValue("bytes=\(have)-", forHTTPHeaderField: "Range")
                request.setValue(resumeTag, forHTTPHeaderField: "If-Range")
            }
            let transfer = SnapshotTransfer(partial: partial, progress: progress)
            let outcome: SnapshotTransfer.Outcome
            switch await transfer.run(request, configuration: session.configuration) {
            case .success(let result): outcome = result
            case .failure(let error):
                if error.code == .http || error.code == .storage { Self.discard(partial, partialTag) }
                throw error
            }
            switch outcome.status {
            case 304:
                Self.discard(partial, partialTag)
                return .notModified(etag: outcome.headers["etag"] ?? current ?? "")
            case 200, 206:
                guard let etag = outcome.headers["etag"] else {
                    Self.discard(partial, partialTag)
                    throw CatalogClientError(.decoding, "the snapshot came without an ETag")
                }
                try? Data(etag.utf8).write(to: partialTag)
                let expected: Int64? =
                    outcome.status == 206
                    ? ContentRange(outcome.headers["content-range"])?.total
                    : outcome.headers["content-length"].flatMap { Int64($0) }
                if let expected, expected != outcome.fileBytes {
                    // The connection ended early without an error: keep what came for a resume.
                    throw CatalogClientError(.transport, "the download of \"\(catalog)\" broke off")
                }
                // A download cancelled by the time its last byte came leaves the file as it was,
                // as one cancelled earlier does.
                guard !Task.isCancelled else {
                    throw CatalogClientError(.cancelled, "the download of \"\(catalog)\" was cancelled")
                }
                try Self.install(partial, as: destination, catalog: catalog)
                try? FileManager.default.removeItem(at: partialTag)
                return .downloaded(etag: etag, bytes: outcome.fileBytes)
            case 416 where attempt == 0:
                // The partial file is longer than the snapshot: start again.
                Self.discard(partial, partialTag)
                continue
            default:
                throw failure(
                    HTTPAnswer(status: outcome.status, body: outcome.body, headers: outcome.headers), url: url)
            }
        }
        throw CatalogClientError(.http, "the server refused to send the snapshot of \"\(catalog)\"")
    }

    /// The ETag of the snapshot at `url`, nil when there is none (or it is damaged).
    static func snapshotETag(at url: URL) -> String? {
        guard FileManager.default.fileExists(atPath: url.path), let file = try? SQLiteCatalogFile(path: url.path) else {
            return nil
        }
        defer { file.close() }
        return file.metadata["etag"]
    }

    /// Checks that `partial` is a snapshot of `catalog`, then moves it over `destination`.
    static func install(_ partial: URL, as destination: URL, catalog: String) throws(CatalogClientError) {
        do {
            let file = try SQLiteCatalogFile(path: partial.path)
            let holds = file.metadata["catalog"] ?? ((try? file.reader.catalogs())?.first?.id)
            file.close()
            guard holds == catalog else {
                throw CatalogClientError(.storage, "the server sent a snapshot of another catalog")
            }
        } catch let error as CatalogClientError {
            try? FileManager.default.removeItem(at: partial)
            throw error
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw CatalogClientError(.storage, "the server sent something that is not a catalog snapshot")
        }
        do {
            try AtomicFile.replace(destination, with: partial)
        } catch {
            throw CatalogClientError(.storage, "cannot write \(destination.path)")
        }
    }

    static func size(of url: URL) -> Int64 {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? 0
    }

    static func discard(_ partial: URL, _ tag: URL) {
        try? FileManager.default.removeItem(at: partial)
        try? FileManager.default.removeItem(at: tag)
    }
}
