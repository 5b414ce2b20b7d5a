import CatalogCore
import CatalogSQLite
import CatalogStorage
import Foundation

/// A catalog on the device: a snapshot file (``CatalogClient/download(catalog:to:progress:)``)
/// browsed and searched with the server's own engine-neutral code, so sections, pages, search
/// results, their order, highlights and counts are exactly what the server answers, without a
/// network. No ICU is needed: the server stored every sort key and section.
///
/// ```swift
/// let offline = try OfflineCatalog(at: snapshotURL)
/// let sections = try await offline.sections(of: offline.id)
/// let results = try await offline.search(SearchRequest(query: "paprik"), in: offline.id)
/// ```
///
/// Reads run on a reading thread of the catalog's own (`ReadWorkers`, as a database's `async`
/// reads do: SQLite blocks, so it never runs on Swift's cooperative threads), one at a time. The
/// file is opened read-only and may be replaced by a new download while it is open: this value
/// keeps reading the version it opened until ``close()``, or until its own ``sync(with:)``
/// replaces the file, after which every read sees the new one (a read that began before sees
/// the old one to its end).
public final class OfflineCatalog: CatalogBrowsing, Sendable {
    /// The snapshot file.
    public let url: URL
    /// The catalog's id (a snapshot holds one catalog).
    public let id: String
    /// The ETag of the snapshot as it was downloaded (what the server's catalog version was), nil
    /// for a catalog file that is not a snapshot. Changes applied by ``sync(with:)`` keep it: the
    /// file is then newer than its ETag says (a download asked with it gets the current file).
    public var etag: String? { file.metadata["etag"] }
    private let workers: ReadWorkers
    let file: FileSlot
    /// The thread a sync changes its copy of the file on (blocking, as reads are).
    let syncWorkers = ReadWorkers(name: "offline.sync", threads: 1)
    /// One sync at a time.
    let syncTurns = Turns()

    /// Opens a snapshot (or any catalog file holding one catalog) read-only.
    ///
    /// - Throws: ``CatalogClientError`` `.storage` for a missing or damaged file, or one that is
    ///   not a catalog file.
    public init(at url: URL) throws(CatalogClientError) {
        self.url = url
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CatalogClientError(.storage, "there is no catalog file at \(url.path)")
        }
        let opened: SQLiteCatalogFile
        do {
            opened = try SQLiteCatalogFile(path: url.path)
        } catch let error as StorageError {
            throw CatalogClientError(.storage, error.message)
        } catch {
            throw CatalogClientError(.storage, "cannot open \(url.path)")
        }
        do {
            let catalogs = try opened.reader.catalogs()
            guard let first = catalogs.first else { throw StorageError(.cannotOpen, "\(url.path) holds no catalog") }
            guard catalogs.count == 1 || opened.metadata["catalog"] != nil else {
                throw StorageError(.cannotOpen, "\(url.path) holds several catalogs; open a snapshot of one")
            }
            id = opened.metadata["catalog"] ?? first.id
            // Read once, so a damaged description fails here rather than on the first screen.
            _ = try opened.reader.requireCatalog(id)
        } catch let error as StorageError {
            opened.close()
            throw CatalogClientError(.storage, error.message)
        } catch {
            opened.close()
            throw CatalogClientError(.storage, "\(url.path) is damaged")
        }
        file = FileSlot(opened)
        workers = ReadWorkers(name: "offline.read", threads: 1)
    }

    deinit {
        workers.close()
        syncWorkers.close()
    }

    /// Closes the file once the read in progress, if any, is done; later reads fail with
    /// `.storage`.
    public func close() {
        file.close()
        workers.close()
        syncWorkers.close()
    }

    /// Runs `body` on the catalog's queue with the catalog's reader and description.
    func read<T: Sendable>(
        _ catalog: String, _ body: @escaping @Sendable (SQLiteCatalogReader, StoredCatalog) throws -> T
    ) async throws(CatalogClientError) -> T {
        guard !Task.isCancelled else { throw CatalogClientError(.cancelled, "the read was cancelled") }
        guard catalog == id else {
            throw CatalogClientError(.notFound, "no catalog named \"\(catalog.prefix(80))\"", apiCode: "not_found")
        }
        let file = file
        let id = id
        do {
            return try await workers.run {
                try file.read { opened in try opened.read { reader in try body(reader, try reader.requireCatalog(id)) }
                }
            }
        } catch let error as CatalogClientError {
            throw error
        } catch let error as StorageError {
            throw CatalogClientError.storage(error)
        } catch {
            throw CatalogClientError(.storage, "the offline catalog is damaged")
        }
    }

    // MARK: - CatalogBrowsing

    /// The one catalog of the file.
    public func catalogs() async throws(CatalogClientError) -> [CatalogSummary] {
        try await read(id) { _, catalog in [catalog.summary] }
    }

    /// The catalog's description, as the server's `GET /api/v1/catalogs/{id}` gives it.
    public func catalog(_ id: String) async throws(CatalogClientError) -> CatalogDetail {
        try await read(id) { reader, catalog in reader.detail(of: catalog) }
    }

    /// The non-empty sections in index order.
    public func sections(of catalog: String) async throws(CatalogClientError) -> [SectionCount] {
        try await read(catalog) { reader, catalog in try reader.sections(of: catalog) }
    }

    /// A page in index order (cursors are the server's: a page fetched online continues offline).
    public func items(
        of catalog: String, section: String? = nil, after: String? = nil, before: String? = nil,
        limit: Int = CatalogLimits.defaultPageSize
    ) async throws(CatalogClientError) -> ItemsPage {
        try await read(catalog) { reader, catalog in
            try Self.page(reader.items(of: catalog, section: section, after: after, before: before, limit: limit))
        }
    }

    /// A page starting at a section's label.
    public func items(of catalog: String, startingAt label: String, limit: Int = CatalogLimits.defaultPageSize)
        async throws(CatalogClientError)
        -> ItemsPage
    {
        try await read(catalog) { reader, catalog in
            try Self.page(reader.items(of: catalog, startingAt: label, limit: limit))
        }
    }

    /// Every record in index order, a page at a time.
    public func allItems(of catalog: String, pageSize: Int = 200) -> RecordPages {
        RecordPages(pageSize: pageSize) { cursor, limit throws(CatalogClientError) in
            try await self.items(of: catalog, after: cursor, limit: limit)
        }
    }

    /// One record.
    public func item(_ itemID: String, of catalog: String) async throws(CatalogClientError) -> Record {
        try await read(catalog) { reader, stored in
            guard let hit = try reader.item(of: stored, id: itemID) else {
                throw CatalogClientError(
                    .notFound, "catalog \"\(stored.id)\" has no item \"\(itemID)\"", apiCode: "not_found")
            }
            return try hit.record()
        }
    }

    /// A search, ranked, counted, filtered, faceted, sorted and paged exactly as the server does.
    public func search(_ request: SearchRequest, in catalog: String) async throws(CatalogClientError)
        -> SearchResponse
    {
        let checked: SearchRequest.Checked
        do {
            checked = try request.checked()
        } catch {
            throw CatalogClientError(.badRequest, error.message, apiCode: "bad_parameter")
        }
        return try await read(catalog) { reader, catalog in try reader.search(checked, in: catalog).response() }
    }

    /// Makes what the catalog's first search would otherwise make while the app waits (a ranking
    /// field's order, about 0.4 s at a million records), as the server does after a change: call
    /// it once the file is opened, off the main actor. Later searches find it made.
    public func prepareSearch() async throws(CatalogClientError) {
        _ = try await read(id) { reader, catalog in try reader.prepareSearch(of: catalog) }
    }

    /// The values of a facet that start with `prefix`, counted among the records `request`
    /// matches, as the server counts them (``CatalogClient/facetValues(_:startingWith:for:in:limit:)``).
    public func facetValues(
        _ field: String, startingWith prefix: String = "", for request: SearchRequest = SearchRequest(query: ""),
        in catalog: String, limit: Int = CatalogLimits.defaultSearchLimit
    ) async throws(CatalogClientError) -> [FacetCount] {
        guard let facet = SearchFacet(rawValue: field) else {
            throw CatalogClientError(
                .badRequest, "the field \"\(field.prefix(40))\" cannot be a facet", apiCode: "bad_parameter")
        }
        var values = request
        values.query = prefix
        values.facets = []
        values.sort = .relevance
        values.after = nil
        values.limit = limit
        let checked: SearchRequest.Checked
        do {
            checked = try values.checked()
        } catch {
            throw CatalogClientError(.badRequest, error.message, apiCode: "bad_parameter")
        }
        let search = request.query
        return try await read(catalog) { reader, catalog in
            try reader.facetValues(of: facet, checked, matching: search, limit: limit, in: catalog)
        }
    }

    /// The categories with their counts, in display order.
    public func categories(of catalog: String) async throws(CatalogClientError) -> [CategoryCount] {
        try await read(catalog) { _, catalog in catalog.categories }
    }

    /// A page of one category's records.
    public func items(
        of catalog: String, category: String, after: String? = nil, before: String? = nil,
        limit: Int = CatalogLimits.defaultPageSize
    ) async throws(CatalogClientError) -> ItemsPage {
        try await read(catalog) { reader, catalog in
            try Self.page(reader.items(of: catalog, category: category, after: after, before: before, limit: limit))
        }
    }

    /// The featured records by rank.
    public func featured(of catalog: String, limit: Int = CatalogLimits.defaultPageSize)
        async throws(CatalogClientError) -> [Record]
    {
        guard (1...CatalogLimits.maxFeatured).contains(limit) else {
            throw CatalogClientError(
                .badRequest, "'limit' must be a whole number from 1 to \(CatalogLimits.maxFeatured)",
                apiCode: "bad_parameter")
        }
        return try await read(catalog) { reader, catalog in
            try reader.featured(of: catalog, limit: limit).map { try $0.record() }
        }
    }

    static func page(_ page: BrowsePage) throws -> ItemsPage {
        ItemsPage(items: try page.records(), next: page.next, previous: page.previous)
    }
}

/// The open file, used by one read at a time and closed between reads.
final class FileSlot: @unchecked Sendable {
    // @unchecked: `file` (a connection, not Sendable) is only used, closed and replaced while
    // `lock` is held, so no two threads ever use it at once; `currentMetadata` is only touched
    // under the lock too.
    private let lock = NSLock()
    private var file: SQLiteCatalogFile?
    private var currentMetadata: [String: String]

    init(_ file: SQLiteCatalogFile) {
        self.file = file
        currentMetadata = file.metadata
    }

    /// The open file's snapshot metadata.
    var metadata: [String: String] { lock.withLock { currentMetadata } }

    /// Reads go to `newer` from now on (a read in progress ends first); the old file is closed.
    /// False, and `newer` closed, once the slot is closed.
    @discardableResult
    func replace(with newer: SQLiteCatalogFile) -> Bool {
        lock.withLock {
            guard let old = file else {
                newer.close()
                return false
            }
            old.close()
            file = newer
            currentMetadata = newer.metadata
            return true
        }
    }

    /// Runs `body` with the file.
    ///
    /// - Throws: ``CatalogClientError`` `.storage` once the file is closed, or what `body` throws.
    func read<T>(_ body: (SQLiteCatalogFile) throws -> T) throws -> T {
        try lock.withLock {
            guard let file else { throw CatalogClientError(.storage, "the offline catalog is closed") }
            return try body(file)
        }
    }

    func close() {
        lock.withLock {
            file?.close()
            file = nil
        }
    }

    deinit { file?.close() }
}
