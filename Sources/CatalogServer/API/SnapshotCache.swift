import CatalogCollation
import CatalogCore
import CatalogEngines
import CatalogHTTP
import CatalogModel
import CatalogStorage
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Offline snapshots on disk, one file per catalog version, built on first request.
///
/// A file is named by its catalog and ETag (`cookbook.3f2a…-1c.sqlite`), written under a
/// temporary name and renamed when complete, so a half-written file is never served. Building a
/// catalog's snapshot removes that catalog's older files (a download in progress keeps reading the
/// file it opened), and at most ``maxFiles`` files are kept, the least recently served going first.
/// Requests for the same catalog wait for one build rather than each making their own.
final class SnapshotCache: Sendable {
    /// The directory of the files.
    let directory: URL
    /// The most files kept.
    let maxFiles: Int
    private let locks = Mutex<[String: NSLock]>([:])

    /// A snapshot ready to send.
    struct File: Sendable {
        var url: URL
        var etag: String
        var size: UInt64
    }

    /// Uses `directory` (created when missing), removing the temporary files a stopped server
    /// left. Several servers of one database may share the directory (a PostgreSQL database's
    /// servers on one machine do): a temporary file carries its process's id, and one whose
    /// process is still running is left alone.
    init(directory: URL, maxFiles: Int = 16) {
        self.directory = directory
        self.maxFiles = max(1, maxFiles)
        try? FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        where name.hasSuffix(".part") && !Self.isRunning(builderOf: name) {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    /// Whether the process that is writing the temporary file `name` (`id.pid.uuid.part`) runs.
    private static func isRunning(builderOf name: String) -> Bool {
        let parts = name.split(separator: ".")
        guard parts.count == 4, let pid = pid_t(parts[1]), pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// The ETag of a catalog's snapshot: it changes exactly when the catalog does (its data
    /// version, definition, categories, labels or count).
    static func etag(of catalog: StoredCatalog) -> String {
        let summary = catalog.summary
        var description = Array(
            [
                "snapshot-v1", catalog.versionKey, catalog.collationVersion, summary.title, summary.locale,
                "\(summary.count)",
            ]
            .joined(separator: "\n").utf8)
        for label in catalog.sectionLabels { description += Array("\u{1F}\(label)".utf8) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        description += (try? encoder.encode(catalog.definition)).map(Array.init) ?? []
        description += (try? encoder.encode(catalog.categories)).map(Array.init) ?? []
        return ConditionalGetMiddleware.etag(of: description)
    }

    /// The snapshot of catalog `id` whose ETag is `etag`, built with `reader` when there is none.
    ///
    /// The file holds the catalog as it is when it is built; if it changed since `etag` was
    /// computed, the file has the newer data and the returned ETag says so.
    ///
    /// With a record `filter` (an API key's), `reader` sees only the records it passes
    /// (``FilteredCatalogReader``): their snapshot is built from a copy of them, indexed as an
    /// import of them would be, as of the catalog's change number, so that its reader follows the
    /// key's change feed from there. Such files leave the catalog's other snapshots in place (the
    /// limit on files removes the least recently served).
    func file(
        catalog id: String, etag: String, filter: RecordFilter? = nil,
        reader: @autoclosure () throws -> any CatalogReader, isCancelled: @escaping @Sendable () -> Bool
    ) throws -> File {
        let lock = locks.withLock { locks in
            if let lock = locks[id] { return lock }
            let lock = NSLock()
            locks[id] = lock
            return lock
        }
        lock.lock()
        defer { lock.unlock() }
        let existing = url(catalog: id, etag: etag)
        if let size = Self.size(of: existing) {
            touch(existing)
            return File(url: existing, etag: etag, size: size)
        }
        let temporary = directory.appendingPathComponent(
            "\(id).\(ProcessInfo.processInfo.processIdentifier).\(UUID().uuidString).part")
        let metadata = { (catalog: StoredCatalog) in
            [
                "catalog": catalog.id, "etag": Self.etag(of: catalog), "format": "1",
                "created": ISO8601DateFormatter().string(from: Date()),
            ]
        }
        let copied =
            filter == nil
            ? try CatalogEngines.writeSnapshot(
                catalog: id, from: reader(), to: temporary.path, isCancelled: isCancelled, metadata: metadata)
            : try writeCopied(catalog: id, from: reader(), to: temporary, isCancelled: isCancelled, metadata: metadata)
        let built = Self.etag(of: copied)
        let final = url(catalog: id, etag: built)
        // rename(2) replaces a file of the same version that another server sharing the directory
        // stored meanwhile, in one step: a download of it keeps reading the file it opened.
        guard rename(temporary.path, final.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw StorageError(.engine, "cannot store the snapshot of \"\(id)\"")
        }
        removeStale(catalog: filter == nil ? id : nil, keeping: final)
        guard let size = Self.size(of: final) else { throw StorageError(.engine, "the snapshot of \"\(id)\" vanished") }
        return File(url: final, etag: built, size: size)
    }

    /// Writes the snapshot of the records `reader` sees of catalog `id` to `path`: they are
    /// imported into a database file of their own beside it (with the catalog's definition and
    /// category numbers), whose snapshot is then written as of the catalog's change number.
    ///
    /// - Returns: the catalog as `reader` describes it.
    private func writeCopied(
        catalog id: String, from reader: any CatalogReader, to path: URL,
        isCancelled: @escaping @Sendable () -> Bool, metadata: (StoredCatalog) -> [String: String]
    ) throws -> StoredCatalog {
        guard let catalog = try reader.catalog(id) else {
            throw StorageError(.catalogNotFound, "no catalog named \"\(id.prefix(80))\"")
        }
        // `id.pid.uuid-records.part`: a temporary file as the others are, removed by a server that
        // starts after this one stopped.
        let records = directory.appendingPathComponent(
            "\(id).\(ProcessInfo.processInfo.processIdentifier).\(UUID().uuidString)-records.part")
        defer {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                try? FileManager.default.removeItem(atPath: records.path + suffix)
            }
        }
        let copy = try CatalogEngines.open(records.path)
        defer { copy.close() }
        _ = try CatalogImporter.run(
            into: copy, definition: catalog.definition, replace: true,
            collation: try ICUCollation.forImport(locale: catalog.definition.locale),
            records: { add in
                try reader.forEachItem(of: catalog) { hit in
                    if isCancelled() { throw StorageError(.cancelled, "the snapshot was cancelled") }
                    try add(try hit.record())
                }
                return nil
            },
            categoryNumbers: Dictionary(catalog.categories.map { ($0.name, $0.id) }) { first, _ in first })
        _ = try copy.read { copied in
            try CatalogEngines.writeSnapshot(
                catalog: id, from: copied, to: path.path, change: catalog.change, isCancelled: isCancelled
            ) { _ in metadata(catalog) }
        }
        return catalog
    }

    /// Removes every snapshot of catalog `id` (it was deleted), waiting for a build of one to end.
    func remove(catalog id: String) {
        let lock = locks.withLock { $0[id] }
        lock?.lock()
        defer { lock?.unlock() }
        let manager = FileManager.default
        for name in (try? manager.contentsOfDirectory(atPath: directory.path)) ?? []
        where name.hasPrefix(id + ".") && name.hasSuffix(".sqlite") {
            // Catalog ids have no dots, so `id.` names this catalog's files only.
            try? manager.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    private func url(catalog id: String, etag: String) -> URL {
        // An ETag is `"hex-hex"`: safe in a file name without its quotes.
        let tag = etag.filter { $0.isHexDigit || $0 == "-" }
        return directory.appendingPathComponent("\(id).\(tag).sqlite")
    }

    private static func size(of url: URL) -> UInt64? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.uint64Value
    }

    private func touch(_ url: URL) {
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path)
    }

    /// Removes the catalog's other snapshots (none when `id` is nil), then the least recently
    /// served files beyond the limit.
    private func removeStale(catalog id: String?, keeping kept: URL) {
        let manager = FileManager.default
        let names = ((try? manager.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
            $0.hasSuffix(".sqlite")
        }
        var others: [(url: URL, modified: Date)] = []
        for name in names where name != kept.lastPathComponent {
            let url = directory.appendingPathComponent(name)
            // Catalog ids have no dots, so `id.` names this catalog's files only.
            if let id, name.hasPrefix(id + ".") {
                try? manager.removeItem(at: url)
            } else {
                let modified =
                    (try? manager.attributesOfItem(atPath: url.path)[.modificationDate] as? Date) ?? .distantPast
                others.append((url, modified))
            }
        }
        let excess = others.count + 1 - maxFiles
        guard excess > 0 else { return }
        for old in others.sorted(by: { $0.modified < $1.modified }).prefix(excess) {
            try? manager.removeItem(at: old.url)
        }
    }
}
