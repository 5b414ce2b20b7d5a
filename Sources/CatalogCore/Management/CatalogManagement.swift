import CatalogModel
import CatalogStorage

/// Creating, changing and deleting whole catalogs, the same on every engine and for every caller:
/// `POST`, `PATCH` and `DELETE /api/v1/catalogs…`, `catalog create`, `catalog set-catalog` and
/// `catalog delete` all call these.
///
/// Each operation is one write transaction: it reads the catalog inside it, checks the revision
/// the caller names (`If-Match`), and either changes nothing or all of it; readers keep the
/// previous version until it commits.
///
/// - A change of the title, field order, labels, scopes or list options stores the definition
///   (``CatalogSettings/Change/definition``).
/// - A change of the locale builds the catalog again from its stored records with the new
///   locale's collation: sections, sort keys and the search index are made again
///   (``CatalogSettings/Change/rebuild``).
/// - A change of roles or types maps every stored record again, as an export with the old
///   definition imported with the new one would: the record's source shape (``RecordMapper/sourceRecord(from:typedRoles:)``)
///   is read with the new mapping, so a value moves between a role and the extra fields, and a
///   field typed anew becomes a number, a boolean or a text. Records keep their ids. Refused,
///   while the catalog has records: a new id role (the ids would change, and favorites name
///   records by id), a new title role when the ids were derived from titles, and any record the
///   new mapping cannot read (no title, a price that is no number), each with the member to blame
///   (``CatalogSettings/Change/remap``).
///
/// ```swift
/// let management = CatalogManagement.withICU   // CatalogEngines: ICU's collations and locales
/// let created = try management.create("pantry", settings: CatalogSettings(title: "Kamra", locale: "hu"), in: database)
/// let changed = try management.update("pantry", in: database, ifRevision: [created.revision]) { current in
///     var settings = current.settings
///     settings.locale = "de"
///     return settings
/// }
/// ```
public struct CatalogManagement: Sendable {
    /// Opens the collation of a locale, throwing an error whose description users can read for
    /// one it cannot open (CatalogCollation's `ICUCollation.forImport(locale:)`).
    public typealias Collation = @Sendable (_ locale: String) throws -> any CatalogCollating

    /// Where sort keys and sections come from.
    public var collation: Collation
    /// What is wrong with a locale a catalog is created with or changed to, nil when nothing is
    /// (CatalogCollation's `ICUCollation.problem(knownLocale:)`: a language ICU has data for). A
    /// catalog keeps the locale it has when other settings change.
    public var localeProblem: @Sendable (_ locale: String) -> String?
    /// Where the index builder's temporary files go (the system's when nil).
    public var temporaryDirectory: String?
    /// Removes a deleted catalog from every account's favorites and roles, after the deletion
    /// committed (`UserStore.removeCatalog(_:)`): the one place both the API and the command line
    /// reach.
    public var removeFavorites: @Sendable (_ catalog: String, _ database: any CatalogDatabase) throws -> Void = {
        catalog, database in try database.users().removeCatalog(catalog)
    }

    /// Management that opens collations with `collation` and accepts the locales
    /// `localeProblem` finds nothing wrong with.
    public init(
        collation: @escaping Collation, localeProblem: @escaping @Sendable (_ locale: String) -> String? = { _ in nil }
    ) {
        self.collation = collation
        self.localeProblem = localeProblem
    }

    // MARK: - Creating

    /// Creates catalog `id`, empty, with `settings`.
    ///
    /// - Returns: the catalog as `GET` shows it, with its revision.
    /// - Throws: ``CatalogChangeError`` `.invalid` for a bad id or bad settings (an unknown
    ///   locale at `/locale`), ``StorageError`` `.constraint` when a catalog has the id already.
    public func create(_ id: String, settings: CatalogSettings, in database: any CatalogDatabase) throws
        -> ManagedCatalog
    {
        var problems: [CatalogChangeError.Problem] = []
        if !CatalogDefinition.isValidID(id) {
            problems.append(
                .init(
                    pointer: "/id",
                    message: "\(CatalogDocument.quoted(id)) is not an id: use 1 to 64 letters, digits, '-' or '_'"))
        }
        problems += settings.problems(localeProblem: localeProblem)
        problems += Self.collationProblems(settings.locale, problems: problems, collation: collation)
        guard problems.isEmpty else { throw CatalogChangeError.invalid(problems) }
        let collation = try open(settings.locale)
        let definition = settings.applied(to: CatalogDefinition(id: id, title: settings.title, locale: settings.locale))
        try database.write { writer in
            if try writer.reader.catalog(id) != nil {
                throw StorageError(.constraint, "a catalog named \"\(id)\" exists already")
            }
            let builder = try CatalogIndexBuilder(
                definition: definition, collation: collation, temporaryDirectory: temporaryDirectory)
            let version = try writer.beginVersion(of: id)
            try version.commit(try builder.finish(into: version))
        }
        return try Self.managed(id, change: .definition, in: database)
    }

    // MARK: - Changing

    /// Changes catalog `id` to the settings `change` makes of it, as `GET` shows it now.
    ///
    /// - Parameters:
    ///   - revisions: when given, the change is refused unless the catalog is at one of them.
    ///   - isCancelled: checked while a rebuild runs; true stops it, changing nothing.
    ///   - change: the new settings, from the catalog as it is inside the transaction; it may
    ///     throw (a merge patch with problems).
    /// - Returns: the catalog as `GET` shows it afterwards, its revision and how much changed.
    /// - Throws: ``StorageError`` `.catalogNotFound`; ``CatalogChangeError`` `.staleRevision`,
    ///   or `.invalid` for bad settings and for a change of roles or types the records refuse;
    ///   what `change` throws.
    public func update(
        _ id: String, in database: any CatalogDatabase, ifRevision revisions: Set<String>? = nil,
        isCancelled: () -> Bool = { false }, change: (CatalogDetail) throws -> CatalogSettings
    ) throws -> ManagedCatalog {
        let kind = try database.write { writer in
            let current = try Self.current(id, reader: writer.reader, revisions: revisions)
            let before = CatalogSettings(definition: current.definition)
            let settings = try change(writer.reader.detail(of: current))
            let problems = settings.problems(localeProblem: { $0 == before.locale ? nil : localeProblem($0) })
            guard problems.isEmpty else { throw CatalogChangeError.invalid(problems) }
            let kind = before.change(to: settings)
            var definition = settings.applied(to: current.definition)
            switch kind {
            case .none:
                break
            case .definition:
                try writer.updateDefinition(definition)
            case .rebuild, .remap:
                try checkRemapping(from: current, to: settings, kind: kind)
                try rebuild(current, as: definition, writer: writer, isCancelled: isCancelled) { builder in
                    if kind == .remap {
                        let mapped = try remap(
                            current, reader: writer.reader, into: builder, definition: definition, isCancelled)
                        definition.fieldOrder = mapped.fieldOrder
                        definition.translatedFields = mapped.translatedFields
                        builder.storedDefinition = definition
                    } else {
                        try Self.addStoredRecords(of: current, reader: writer.reader, to: builder, isCancelled)
                    }
                }
            }
            return kind
        }
        return try Self.managed(id, change: kind, in: database)
    }

    /// Builds catalog `current` again as `definition` (its collation, its searchable fields) in
    /// the write transaction of `writer`: `add` gives the builder the records, then the new
    /// version commits with the definition; readers keep the previous version until then.
    func rebuild(
        _ current: StoredCatalog, as definition: CatalogDefinition, writer: any CatalogWriter,
        isCancelled: () -> Bool, add: (CatalogIndexBuilder) throws -> Void
    ) throws {
        let builder = try CatalogIndexBuilder(
            definition: definition, collation: try open(definition.locale),
            existingCategories: Dictionary(
                current.categories.map { ($0.name, $0.id) }, uniquingKeysWith: { first, _ in first }),
            temporaryDirectory: temporaryDirectory)
        try add(builder)
        let version = try writer.beginVersion(of: current.id)
        try version.commit(try builder.finish(into: version, isCancelled: isCancelled))
    }

    /// Gives `builder` every stored record of `current`, as it is; `recordsRead` hears how many
    /// so far, every ``progressStep`` records and at the end.
    static func addStoredRecords(
        of current: StoredCatalog, reader: any CatalogReader, to builder: CatalogIndexBuilder,
        _ isCancelled: () -> Bool, recordsRead: ((Int) -> Void)? = nil
    ) throws {
        var read = 0
        try reader.forEachItem(of: current) { hit in
            if isCancelled() { throw StorageError(.cancelled, "the change was cancelled") }
            try builder.add(try hit.record())
            read += 1
            if read % progressStep == 0 { recordsRead?(read) }
        }
        recordsRead?(read)
    }

    /// How often a rebuild reports its progress, in records.
    static let progressStep = 1000

    /// Refuses a new mapping the stored records cannot follow without changing their ids.
    private func checkRemapping(from current: StoredCatalog, to settings: CatalogSettings, kind: CatalogSettings.Change)
        throws(CatalogChangeError)
    {
        guard kind == .remap, current.summary.count > 0 else { return }
        let before = CatalogSettings(definition: current.definition)
        var problems: [CatalogChangeError.Problem] = []
        if before.sourceName(for: .id) != settings.sourceName(for: .id) {
            problems.append(
                .init(
                    pointer: "/roles/id",
                    message:
                        "the id role cannot change while the catalog has records: their ids would change, and "
                        + "favorites name records by id; export the catalog and import it with the new mapping and "
                        + "--replace instead"))
        }
        if case .title(let field) = current.definition.idSource, field != settings.sourceName(for: .title) {
            problems.append(
                .init(
                    pointer: "/roles/title",
                    message:
                        "the records' ids were derived from their titles (field \"\(field)\"): with another title "
                        + "field the next import would give them other ids; map an id field first"))
        }
        if !problems.isEmpty { throw .invalid(problems) }
    }

    /// Maps every record of `current` again with `definition` into `builder`; returns the mapper
    /// (the field order and translated fields it learned).
    private func remap(
        _ current: StoredCatalog, reader: any CatalogReader, into builder: CatalogIndexBuilder,
        definition: CatalogDefinition, _ isCancelled: () -> Bool
    ) throws -> RecordMapper {
        let old = RecordMapper(definition: current.definition)
        var new = RecordMapper(definition: definition)
        // A field typed as text anew takes its numbers and booleans as their text.
        let nowText = Set(
            definition.fieldTypes.filter { $0.value == .text && current.definition.fieldTypes[$0.key] != .text }.keys)
        try reader.forEachItem(of: current) { hit in
            if isCancelled() { throw StorageError(.cancelled, "the change was cancelled") }
            let record = try hit.record()
            var source = old.sourceRecord(from: record)
            if !nowText.isEmpty {
                for index in source.fields.indices
                where nowText.contains(source.fields[index].name)
                    && (source.fields[index].kind == .number || source.fields[index].kind == .bool)
                {
                    source.fields[index].kind = .text
                }
            }
            var mapped: Record
            do {
                mapped = try new.record(from: source)
            } catch let error as ImportError {
                throw CatalogChangeError.invalid(
                    at: Self.pointer(of: error, settings: definition),
                    "record \"\(record.id.prefix(80))\": \(error.message)")
            }
            mapped.id = record.id
            try builder.add(mapped)
        }
        return new
    }

    /// The member to blame for a record the new mapping cannot read: the field's type, else the
    /// role the field feeds, else the title role (a record without a title).
    private static func pointer(of error: ImportError, settings definition: CatalogDefinition) -> String {
        guard let field = error.field else { return "/roles/title" }
        if definition.fieldTypes[field] != nil { return JSONPointer.make("types", field) }
        if let role = Role.allCases.first(where: { definition.sourceName(for: $0) == field }) {
            return JSONPointer.make("roles", role.rawValue)
        }
        return "/roles"
    }

    // MARK: - Deleting

    /// Deletes catalog `id` with its records, then its favorites (``removeFavorites``).
    ///
    /// - Parameters:
    ///   - revisions: when given, the deletion is refused unless the catalog is at one of them.
    ///   - collectingImages: whether to read every record for the images they name (for a cache
    ///     of them: a server's thumbnails); this costs a read of the whole catalog.
    /// - Returns: what was deleted.
    /// - Throws: ``StorageError`` `.catalogNotFound`; ``CatalogChangeError`` `.staleRevision`.
    public func delete(
        _ id: String, in database: any CatalogDatabase, ifRevision revisions: Set<String>? = nil,
        collectingImages: Bool = false
    ) throws -> DeletedCatalog {
        let deleted = try database.write { writer in
            let current = try Self.current(id, reader: writer.reader, revisions: revisions)
            var images: Set<String> = Set(current.categories.compactMap(\.image))
            if collectingImages {
                try writer.reader.forEachItem(of: current) { hit in
                    if let image = try hit.record().image { images.insert(image) }
                }
            }
            guard try writer.deleteCatalog(id) else {
                throw StorageError(.catalogNotFound, "no catalog named \"\(id.prefix(80))\"")
            }
            return DeletedCatalog(id: id, count: current.summary.count, images: images.sorted())
        }
        try removeFavorites(id, database)
        return deleted
    }

    // MARK: - Shared

    /// The catalog, at one of `revisions` when they are given.
    static func current(_ id: String, reader: any CatalogReader, revisions: Set<String>?) throws
        -> StoredCatalog
    {
        guard let current = try reader.catalog(id) else {
            throw StorageError(.catalogNotFound, "no catalog named \"\(id.prefix(80))\"")
        }
        if let revisions, !revisions.contains(current.revision) {
            throw CatalogChangeError(
                .staleRevision,
                "catalog \"\(id)\" is no longer at the revision the change was made against; read it again and "
                    + "repeat the change")
        }
        return current
    }

    /// The problem of a locale whose collation does not open, when the other checks found none
    /// at `/locale`.
    private static func collationProblems(
        _ locale: String, problems: [CatalogChangeError.Problem], collation: Collation
    ) -> [CatalogChangeError.Problem] {
        guard !problems.contains(where: { $0.pointer == "/locale" }) else { return [] }
        do {
            _ = try collation(locale)
            return []
        } catch {
            return [CatalogChangeError.Problem(pointer: "/locale", message: String(describing: error))]
        }
    }

    /// The collation of a locale already checked; its error as the locale's problem all the same.
    func open(_ locale: String) throws -> any CatalogCollating {
        do {
            return try collation(locale)
        } catch {
            throw CatalogChangeError.invalid(at: "/locale", String(describing: error))
        }
    }

    /// The catalog as a read after the change sees it (another writer may have changed it since:
    /// the answer is then the newer catalog, with its own revision).
    private static func managed(_ id: String, change: CatalogSettings.Change, in database: any CatalogDatabase)
        throws -> ManagedCatalog
    {
        try database.read { reader in
            guard let stored = try reader.catalog(id) else {
                throw StorageError(.catalogNotFound, "catalog \"\(id.prefix(80))\" was deleted meanwhile")
            }
            return ManagedCatalog(detail: reader.detail(of: stored), revision: stored.revision, change: change)
        }
    }
}

/// A catalog as a management operation left it.
public struct ManagedCatalog: Sendable, Equatable {
    /// The catalog as `GET /api/v1/catalogs/{id}` shows it.
    public var detail: CatalogDetail
    /// Its revision (``StoredCatalog/revision``): the route's `ETag`, in quotes.
    public var revision: String
    /// How much changed.
    public var change: CatalogSettings.Change

    /// Creates the description.
    public init(detail: CatalogDetail, revision: String, change: CatalogSettings.Change) {
        self.detail = detail
        self.revision = revision
        self.change = change
    }
}

/// A catalog that was deleted.
public struct DeletedCatalog: Sendable, Equatable {
    /// Its id.
    public var id: String
    /// How many records it held.
    public var count: Int
    /// The images its categories named, and its records' when they were collected (URLs or
    /// image-store paths), sorted.
    public var images: [String]

    /// Creates the description.
    public init(id: String, count: Int, images: [String]) {
        self.id = id
        self.count = count
        self.images = images
    }
}
