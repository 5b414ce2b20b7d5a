import CatalogModel
import CatalogStorage
import Foundation

/// One import, decided once: the request and what the catalog held when it was planned.
///
/// A plan is made at the start of an import, from the request and one read of the stored
/// catalog (its definition, version key, record count); every check that can be made before
/// anything is fetched is made here, once, with its error. Every later step (fetching, picking the
/// reader, building the definition, the source digest, the import itself) takes the plan, and the
/// import compares its records with the planned version (the write transaction checks it is still
/// the current one). `catalog import`, the API's upload and the refresher all make plans this way.
///
/// ```swift
/// let plan = try ImportPlan.make(request, database: database)
/// let result = try importer.run(plan, database: database)
/// ```
public struct ImportPlan: Sendable {
    /// What was asked.
    public let request: ImportRequest
    /// The catalog as it was stored when the import was planned; nil for a new catalog.
    public let stored: StoredCatalog?

    /// Plans `request` against `stored`, the catalog as ``storedCatalog(_:in:)`` read it.
    ///
    /// - Throws: `.invalidArgument` when the import cannot work: a new locale for an existing
    ///   catalog, or a mapping that changes how its records are identified (unless replacing).
    public init(_ request: ImportRequest, stored: StoredCatalog?) throws(ImportError) {
        try Self.check(request, against: stored?.definition)
        self.request = request
        self.stored = stored
    }

    /// Reads the catalog `request` names and plans it.
    ///
    /// - Throws: what ``init(_:stored:)`` throws, or what the database throws.
    public static func make(_ request: ImportRequest, database: any CatalogDatabase) throws -> ImportPlan {
        try ImportPlan(request, stored: try storedCatalog(request.catalog, in: database))
    }

    /// The one read of what is stored that planning makes.
    public static func storedCatalog(_ id: String, in database: any CatalogDatabase) throws -> StoredCatalog? {
        try database.read { try $0.catalog(id) }
    }

    /// The stored definition, nil for a new catalog.
    public var storedDefinition: CatalogDefinition? { stored?.definition }

    /// How to download the source: the request's options, with the stored `ETag` and
    /// `Last-Modified` when the request is conditional and the URL is the one stored.
    public var fetchOptions: SourceFetcher.Options {
        var options = request.fetch
        if request.conditional, let feed = storedDefinition?.source, feed.url == request.source {
            options.etag = feed.etag
            options.lastModified = feed.lastModified
        }
        return options
    }

    /// The format of a fetched file: the request's, else from its extension, else its first bytes.
    func format(of fetched: FetchedSource) throws -> ImportFormat {
        try request.format ?? ImportFormat(fileExtension: fetched.fileURL.pathExtension)
            ?? ImportFormat.detect(fileURL: fetched.fileURL)
    }

    /// The definition to import `fetched` with: the stored one (or a new one, from the embedded
    /// definition when the file carries one) with the request's options applied, where the
    /// catalog was fetched from, XML's record element and CSV's category separator.
    func definition(for fetched: FetchedSource, format: ImportFormat) -> CatalogDefinition {
        let embedded =
            format == .sqlite
            ? SQLiteTableSource.embeddedDefinition(path: fetched.fileURL.path)
            : EmbeddedDefinition.read(fileURL: fetched.fileURL, format: format)
        var definition = definition(embedded: embedded)
        if SourceFetcher.isRemote(request.source) {
            definition.source = FeedSource(
                url: request.source, format: request.format?.rawValue, record: request.record, table: request.table,
                replace: request.replace, etag: fetched.etag, lastModified: fetched.lastModified)
        } else {
            definition.source = nil
        }
        switch format {
        case .xml:
            if let record = request.record { definition.recordElement = record }
        case .csv:
            // A CSV cell holds one value: several categories share it, separated by ';'.
            if definition.categorySeparator == nil { definition.categorySeparator = ";" }
        case .json, .sqlite:
            break
        }
        return definition
    }

    /// The stored definition (or a new one, from `embedded` when the file carries one) with the
    /// request's options applied.
    func definition(embedded: CatalogDefinition?) -> CatalogDefinition {
        var definition: CatalogDefinition
        if let stored = storedDefinition {
            definition = stored
            if let embedded {
                definition.fieldTypes.merge(embedded.fieldTypes) { own, _ in own }
            }
        } else {
            let fresh = CatalogDefinition(
                id: request.catalog, title: request.title ?? embedded?.title ?? request.catalog,
                locale: request.locale ?? embedded?.locale ?? "en")
            definition = embedded.map { EmbeddedDefinition.apply($0, to: fresh) } ?? fresh
            if embedded?.language == nil, request.language == nil, let locale = request.locale {
                definition.language = locale
            }
        }
        if let title = request.title { definition.title = title }
        definition.mapping.merge(request.mapping) { _, new in new }
        definition.fieldTypes.merge(request.fieldTypes) { _, new in new }
        if let language = request.language { definition.language = language }
        if let separator = request.categorySeparator { definition.categorySeparator = separator }
        return definition
    }

    /// The reader for `fetched` in `format`, its errors naming the fetched file's display name.
    func reader(
        for fetched: FetchedSource, format: ImportFormat, definition: CatalogDefinition,
        progress: @escaping (Int64) -> Void
    ) -> any RecordSource {
        let url = fetched.fileURL
        let name = fetched.displayName
        switch format {
        case .xml:
            return XMLRecordReader(
                fileURL: url, recordElement: definition.recordElement, sourceName: name, progress: progress)
        case .json:
            return JSONRecordReader(fileURL: url, recordPath: request.record, sourceName: name, progress: progress)
        case .csv:
            var reader = CSVRecordReader(fileURL: url, sourceName: name, progress: progress)
            reader.comment = request.comment
            return reader
        case .sqlite:
            return SQLiteTableSource(path: url.path, table: request.table)
        }
    }

    /// The summary of an import with nothing to do, when `digest` is the source digest of the
    /// catalog's last import and the stored definition is the one that import wrote; else nil.
    func unchangedSummary(digest: String) -> ImportSummary? {
        guard let stored, let last = stored.definition.lastImport, last.source == digest,
            last.definition == stored.definition.contentDigest
        else { return nil }
        return ImportSummary(
            read: 0, total: stored.summary.count, added: 0, updated: 0, removed: 0, unchanged: true,
            notes: ["the source is the one imported last, byte for byte, read the same way: nothing to do"])
    }

    /// Refuses what cannot work before anything is fetched: a locale change, and a mapping that
    /// changes how the catalog's records are identified (unless replacing).
    static func check(_ request: ImportRequest, against stored: CatalogDefinition?) throws(ImportError) {
        guard let stored else { return }
        if let locale = request.locale, locale != stored.locale {
            throw ImportError(
                .invalidArgument,
                "catalog \"\(stored.id)\" already has locale \"\(stored.locale)\"; it cannot change on import "
                    + "(change it with 'catalog set-catalog \(stored.id) --locale \(locale.prefix(35))' or PATCH "
                    + "/api/v1/catalogs/\(stored.id), then import)")
        }
        guard !request.replace, let before = stored.idSource ?? stored.mapping[.id].map(IDSource.field) else {
            return
        }
        var now: IDSource?
        if let id = request.mapping[.id], id.isEmpty {
            now = .title(request.mapping[.title] ?? stored.sourceName(for: .title))
        } else if let id = request.mapping[.id] {
            now = .field(id)
        } else if case .title = before, let title = request.mapping[.title] {
            now = .title(title)
        }
        try ImportPipeline.checkKeys(catalog: stored.id, before: before, now: now, replace: false)
    }
}
