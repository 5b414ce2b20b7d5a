import CatalogCore
import CatalogModel
import CatalogStorage
import CatalogSupport
import Foundation

/// What to import: a source, the catalog, and how to read and map it — `catalog import`'s
/// options, or a URL-sourced catalog's stored ones for `catalog refresh`.
public struct ImportRequest: Sendable {
    /// A file path or an http(s) URL.
    public var source: String
    /// The catalog's id.
    public var catalog: String
    /// The format; nil finds it from the extension, else the first bytes.
    public var format: ImportFormat?
    /// XML: the record element; JSON: the key holding the records.
    public var record: String?
    /// SQLite: the table.
    public var table: String?
    /// Mappings given for this import (`--field`): merged into the stored ones, and each must
    /// name a field the source has.
    public var mapping: [Role: String] = [:]
    /// Field types given for this import (`--type`), merged into the stored ones.
    public var fieldTypes: [String: FieldType] = [:]
    /// The language whose texts fill the roles (`--lang`).
    public var language: String?
    /// The locale of a new catalog (`--locale`); an existing catalog's cannot change.
    public var locale: String?
    /// The catalog's title (`--title`).
    public var title: String?
    /// Splits one categories value (`--category-separator`).
    public var categorySeparator: String?
    /// CSV: lines starting with this character are skipped (`--comment`).
    public var comment: Character?
    /// Remove records missing from the source (`--replace`).
    public var replace = false
    /// How to download a URL.
    public var fetch = SourceFetcher.Options()
    /// Send the stored `ETag`/`Last-Modified` (`catalog refresh`), so an unchanged feed is not
    /// read at all.
    public var conditional = false

    /// Creates a request.
    public init(source: String, catalog: String) {
        self.source = source
        self.catalog = catalog
    }

    /// The request that fetches a URL-sourced catalog again, conditionally, the way it was read.
    public init?(refreshing definition: CatalogDefinition) {
        guard let feed = definition.source else { return nil }
        self.init(source: feed.url, catalog: definition.id)
        format = feed.format.flatMap(ImportFormat.init(rawValue:))
        record = feed.record
        table = feed.table
        replace = feed.replace
        conditional = true
    }
}

/// What an import did.
public enum ImportResult: Sendable, Equatable {
    /// The records were imported.
    case imported(ImportSummary)
    /// A conditional GET said the source has not changed: nothing was read or written.
    case notModified
}

/// Runs one import of a source end to end — plan, fetch, find the format, build the definition,
/// read, map, and import through CatalogCore's ``CatalogImporter`` — the way `catalog import`,
/// `catalog refresh`, the API's upload and the background refresher of `catalog serve` do.
///
/// ```swift
/// let importer = SourceImporter(collation: { try ICUCollation.forImport(locale: $0) })
/// let plan = try ImportPlan.make(ImportRequest(source: "feed.xml", catalog: "feed"), database: database)
/// let result = try importer.run(plan, database: database)
/// ```
///
/// - A new catalog adopts the definition an export carries (``EmbeddedDefinition``), so an
///   exported file imports without `--field` flags; an existing one keeps its own.
/// - A catalog imported from a URL remembers it (``CatalogDefinition/source``) with the response's
///   `ETag` and `Last-Modified`; one imported from a file forgets any URL.
/// - An import that would re-key the catalog is refused without ``ImportRequest/replace``, before
///   anything is read when the mapping says so (``ImportPlan``), else before anything is committed.
public struct SourceImporter: Sendable {
    /// The sort keys and sections of a locale.
    public var collation: @Sendable (_ locale: String) throws -> any CatalogCollating
    /// Asked while downloading, between records and between the import's steps: true stops the
    /// import, and nothing changes.
    public var isCancelled: @Sendable () -> Bool = { false }
    /// Called with the bytes read so far.
    public var bytesRead: @Sendable (Int64) -> Void = { _ in }
    /// Called with the records read so far.
    public var recordsRead: @Sendable (Int) -> Void = { _ in }
    /// Called once every record is read, with their number.
    public var readingDone: @Sendable (Int) -> Void = { _ in }
    /// Called with the size of the file to read, once it is known.
    public var sizeKnown: @Sendable (Int64?) -> Void = { _ in }
    /// Country names in a language (the catalog's locale and ``CatalogDefinition/language``), folded
    /// as ``CountryCode/nameKey(_:)`` does, to their codes: a `country` field may name countries in
    /// them. None by default; `ICUCountryNames.names(locale:)` gives ICU's.
    public var countryNames: @Sendable (_ locale: String) -> [String: String] = { _ in [:] }

    /// Creates an importer whose sort keys and sections come from `collation`.
    public init(collation: @escaping @Sendable (_ locale: String) throws -> any CatalogCollating) {
        self.collation = collation
    }

    /// Fetches and imports what `plan` says into `database`.
    ///
    /// - Throws: ``ImportError`` (the source, its content, the options) or what the database
    ///   throws. Nothing changes when it throws.
    public func run(_ plan: ImportPlan, database: any CatalogDatabase) throws -> ImportResult {
        guard let fetched = try fetch(plan) else { return .notModified }
        defer { fetched.discard() }
        return .imported(try importFetched(fetched, plan: plan, database: database))
    }

    /// Plans `request` against what `database` holds, then fetches and imports it.
    ///
    /// - Throws: as ``run(_:database:)``, and what planning throws.
    public func run(_ request: ImportRequest, database: any CatalogDatabase) throws -> ImportResult {
        try run(try ImportPlan.make(request, database: database), database: database)
    }

    /// Fetches the plan's source (conditionally when ``ImportRequest/conditional``).
    ///
    /// - Returns: the file to import (a download is deleted with the object), or nil when the
    ///   server said the source has not changed.
    public func fetch(_ plan: ImportPlan) throws -> FetchedSource? {
        guard
            case .file(let fetched) = try SourceFetcher().fetchBlocking(
                plan.request.source, options: plan.fetchOptions, isCancelled: isCancelled)
        else {
            return nil
        }
        return fetched
    }

    /// Imports a local file, an upload for instance, named `displayName` in error messages
    /// (`upload:12:7: …`). The plan's ``ImportRequest/source`` only says whether the catalog keeps
    /// a URL.
    ///
    /// - Returns: what the import did.
    public func importFile(
        at fileURL: URL, displayName: String, plan: ImportPlan, database: any CatalogDatabase
    ) throws -> ImportSummary {
        let size = (try? FileManager.default.attributesOfItem(atPath: fileURL.path)[.size] as? NSNumber)?.int64Value
        let file = FetchedSource(fileURL: fileURL, displayName: displayName, isTemporary: false, byteCount: size)
        return try importFetched(file, plan: plan, database: database)
    }

    /// Imports a file ``fetch(_:)`` returned, the way `plan` says.
    ///
    /// - Returns: what the import did.
    public func importFetched(_ fetched: FetchedSource, plan: ImportPlan, database: any CatalogDatabase)
        throws -> ImportSummary
    {
        let format = try plan.format(of: fetched)
        let definition = plan.definition(for: fetched, format: format)
        sizeKnown(fetched.byteCount)
        let collation = try collation(definition.locale)
        let digest = try Self.sourceDigest(of: fetched, format: format, request: plan.request, collation: collation)
        if let unchanged = plan.unchangedSummary(digest: digest) { return unchanged }
        let progress = bytesRead
        let reader = plan.reader(for: fetched, format: format, definition: definition) { progress($0) }
        let done = readingDone
        let records = recordsRead
        do {
            return try ImportPipeline.run(
                reader, into: database, definition: definition, replace: plan.request.replace,
                collation: collation, requiredSources: plan.request.mapping, source: digest,
                previous: .planned(plan.stored), readingDone: { done($0) }, progress: { records($0) },
                isCancelled: isCancelled, countryNames: localCountryNames(definition))
        } catch let error as ImportError where Self.isGuessedCSV(fetched, request: plan.request, format: format) {
            throw Self.notARecordFile(error, fetched: fetched)
        }
    }

    /// ``countryNames`` in the catalog's locale and its language.
    private func localCountryNames(_ definition: CatalogDefinition) -> [String: String] {
        var names = countryNames(definition.locale)
        if let language = definition.language, language != definition.locale {
            names.merge(countryNames(language)) { own, _ in own }
        }
        return names
    }

    /// Whether `fetched` is read as CSV only because nothing else fit: no `--format`, an extension
    /// that names no format, and first bytes that are not XML, JSON or SQLite.
    static func isGuessedCSV(_ fetched: FetchedSource, request: ImportRequest, format: ImportFormat) -> Bool {
        format == .csv && request.format == nil
            && ImportFormat(fileExtension: URL(fileURLWithPath: fetched.displayName).pathExtension) == nil
    }

    /// An error in the first lines of a guessed CSV file (`pci.ids`) says that the file may not
    /// hold records at all, rather than only what went wrong reading it as CSV.
    static func notARecordFile(_ error: ImportError, fetched: FetchedSource) -> ImportError {
        let content: Set<ImportError.Code> = [.malformed, .invalidValue, .empty, .notFound]
        guard content.contains(error.code), error.location.line <= 2 else { return error }
        return ImportError(
            error.code,
            "not a record file? \(fetched.displayName) was read as CSV because nothing else fits (no --format, "
                + "its name has no known extension, it does not start like XML, JSON or SQLite), and as CSV it "
                + "fails: \(error.message)", at: error.location, field: error.field)
    }

    /// The ``ImportStamp/source`` digest of an import: the file's bytes and everything else that
    /// decides what they become — the format, the request's options and the collator's version
    /// (sort keys and sections).
    ///
    /// The catalog's definition is not part of it: the stamp is only trusted while the stored
    /// definition is the one that import wrote (``ImportStamp/definition``), and importing the
    /// same source the same way onto what it produced gives that again.
    static func sourceDigest(
        of fetched: FetchedSource, format: ImportFormat, request: ImportRequest, collation: any CatalogCollating
    ) throws -> String {
        var digest = ContentDigest()
        // Bump when the same bytes and options would be read into different records.
        digest.update(field: "catalog import 2")
        do {
            digest.update(field: try ContentDigest.file(at: fetched.fileURL))
        } catch {
            throw ImportError(.io, "\(fetched.displayName): cannot read the file (\(error.localizedDescription))")
        }
        digest.update(field: format.rawValue)
        digest.update(field: request.record ?? "")
        digest.update(field: request.table ?? "")
        digest.update(field: request.comment.map(String.init) ?? "")
        digest.update(field: request.replace ? "replace" : "merge")
        for (role, name) in request.mapping.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            digest.update(field: "field \(role.rawValue)")
            digest.update(field: name)
        }
        for (name, type) in request.fieldTypes.sorted(by: { $0.key < $1.key }) {
            digest.update(field: "type \(name)")
            digest.update(field: type.rawValue)
        }
        for option in [request.language, request.locale, request.title, request.categorySeparator] {
            digest.update(field: option.map { "=" + $0 } ?? "-")
        }
        digest.update(field: collation.version)
        return digest.finalized()
    }
}
