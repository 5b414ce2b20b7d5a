import CatalogCore
import CatalogSQLite
import CatalogStorage
import Foundation

extension OfflineCatalog {
    /// A catalog's copy with more changes behind it than this is downloaded again only when they
    /// also outnumber its records.
    static let smallestBacklog = 1_000

    /// Brings the snapshot up to date from the server's change feed, without downloading it again:
    /// the changes after the file's change number are applied to a copy of the file with the
    /// server's own engine-neutral code (`CatalogEditor`), filed by the sort keys the server
    /// sent with them, and the copy replaces the file in one step. Afterwards the catalog answers
    /// as the server does at that change number.
    ///
    /// ```swift
    /// let offline = try OfflineCatalog(at: file)
    /// switch try await offline.sync(with: client) {
    /// case .current: break
    /// case .applied(let count, let change): print("\(count) changes, now at \(change)")
    /// case .downloaded(let change): print("downloaded again at \(change)")
    /// }
    /// ```
    ///
    /// The snapshot is downloaded again instead (``CatalogClient/download(catalog:to:progress:)``)
    /// when the catalog changed as a whole (an import, a new definition), when the log no longer
    /// reaches back to the file's change, when more changed than the catalog has records, or when
    /// the server sent no sort keys (its collator is not the one the catalog was sorted with).
    ///
    /// Reads go on while a sync runs and see the old file until the new one is in place; syncs of
    /// one catalog take turns. A sync that fails or is cancelled leaves the file as it was.
    ///
    /// - Parameter client: the server the snapshot came from (the feed needs no token).
    /// - Returns: whether anything changed, and the change number the file is at now.
    /// - Throws: ``CatalogClientError``: the client's errors, `.storage` when the copy cannot be
    ///   written or the file is not a snapshot, `.cancelled`.
    @discardableResult
    public func sync(with client: CatalogClient) async throws(CatalogClientError) -> OfflineSync {
        await syncTurns.take()
        defer { syncTurns.give() }
        guard !Task.isCancelled else { throw CatalogClientError(.cancelled, "the sync was cancelled") }
        guard etag != nil else {
            throw CatalogClientError(.storage, "\(url.lastPathComponent) is not a snapshot of a server's catalog")
        }
        let local = try await read(id) { _, catalog in
            LocalCatalog(
                change: catalog.change, count: catalog.summary.count, collationVersion: catalog.collationVersion,
                sectionLabels: catalog.sectionLabels)
        }
        var page = try await client.changeLog(of: id, since: local.change)
        if !page.reload, page.changes.isEmpty, page.change == local.change {
            return .current(change: local.change)
        }
        guard !page.reload, page.change - local.change <= Swift.max(local.count, Self.smallestBacklog) else {
            return try await downloadAgain(with: client)
        }
        var collation = FeedCollation(version: local.collationVersion, sectionLabels: local.sectionLabels)
        var plan = SyncPlan(after: local.change)
        let copy = try await onSyncThread { [url] in try WorkingCopy(of: url) }
        do throws(CatalogClientError) {
            while true {
                guard !page.reload, !page.changes.isEmpty || page.next == nil || page.filtered,
                    plan.add(page.changes, collation: &collation, gaps: page.filtered)
                else {
                    copy.discard()
                    return try await downloadAgain(with: client)
                }
                // The feed has no more for this copy: it is at the server's number.
                if page.filtered && page.next == nil { plan.advance(to: page.change) }
                let groups = plan.take()
                let keys = collation
                let id = id
                guard try await onSyncThread({ try copy.apply(groups, to: id, collation: keys) }) else {
                    // The copy is not where the server's numbers say: start again from a new file.
                    copy.discard()
                    return try await downloadAgain(with: client)
                }
                guard let next = page.next else {
                    guard plan.change == page.change else {
                        copy.discard()
                        return try await downloadAgain(with: client)
                    }
                    break
                }
                guard !Task.isCancelled else { throw CatalogClientError(.cancelled, "the sync was cancelled") }
                page = try await client.changeLog(of: id, since: next)
            }
            try await onSyncThread { [url, file] in
                try copy.install(over: url)
                file.replace(with: try SQLiteCatalogFile(path: url.path))
            }
        } catch {
            copy.discard()
            throw error
        }
        return .applied(count: plan.count, change: plan.change)
    }

    /// Downloads the snapshot again over the file and reads the new one from now on.
    private func downloadAgain(with client: CatalogClient) async throws(CatalogClientError) -> OfflineSync {
        let result = try await client.download(catalog: id, to: url)
        try await onSyncThread { [url, file] in file.replace(with: try SQLiteCatalogFile(path: url.path)) }
        let change = try await read(id) { _, catalog in catalog.change }
        if case .notModified = result { return .current(change: change) }
        return .downloaded(change: change)
    }

    /// Runs blocking file work on the sync thread.
    @discardableResult
    private func onSyncThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T)
        async throws(CatalogClientError) -> T
    {
        do {
            return try await syncWorkers.run(body)
        } catch let error as CatalogClientError {
            throw error
        } catch let error as StorageError {
            throw CatalogClientError.storage(error)
        } catch {
            throw CatalogClientError(.storage, "cannot write a copy of \(url.lastPathComponent)")
        }
    }
}

/// What a sync starts from: the file's change number and how its catalog was sorted.
struct LocalCatalog: Sendable {
    var change: Int
    var count: Int
    var collationVersion: String
    var sectionLabels: [String]
}

/// A private copy of an offline catalog's file that a sync changes, then renames over the file
/// (so a reader sees the old file or the new one, and a sync that stops halfway leaves the file
/// as it was). The copy keeps the snapshot's rollback journal and has no accounts. On Apple's
/// file systems the copy is a clone, which costs nothing until pages change.
final class WorkingCopy: Sendable {
    let url: URL
    private let database: SQLiteDatabase

    /// Copies `original` beside it and opens the copy for writing.
    init(of original: URL) throws {
        url = AtomicFile.temporaryURL(beside: original)
        try FileManager.default.copyItem(at: original, to: url)
        do {
            database = try SQLiteDatabase(path: url.path, options: .snapshot)
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
    }

    /// Applies each group in a transaction of its own, then merges the segments they wrote as the
    /// server does (``SegmentMerger``). False when the copy does not follow the server's numbers
    /// (an edit the copy cannot make, or a number that differs after a group).
    func apply(_ groups: [SyncPlan.Group], to catalog: String, collation: FeedCollation) throws -> Bool {
        for group in groups {
            do {
                let outcome = try CatalogEditor.apply(
                    group.edits, to: catalog, in: database, collation: collation, numbering: group.numbering)
                guard outcome.change == group.change else { return false }
            } catch is EditFailure {
                return false
            }
        }
        _ = try SegmentMerger.mergeAll(catalog: catalog, in: database)
        return true
    }

    /// Drops the copy's change log (a snapshot keeps none), closes it and renames it over `original`.
    func install(over original: URL) throws {
        _ = try database.write { writer in try writer.pruneChanges(before: "9999") }
        database.close()
        try AtomicFile.replace(original, with: url)
    }

    /// Closes and removes the copy.
    func discard() {
        database.close()
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.removeItem(atPath: url.path + "-journal")
    }
}
