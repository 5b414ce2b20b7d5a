import CatalogModel
import CatalogStorage

extension CatalogManagement {
    /// Changes catalog `id`'s search settings (``SearchSettings``) to what `change` makes of
    /// them: `PATCH /api/v1/catalogs/{id}/settings` and `catalog settings ID` both call this.
    ///
    /// One write transaction stores them in the catalog's definition and counts a change of the
    /// catalog, so every search, on this server or another sharing the database, reads the old
    /// settings or the new ones whole, and the response caches, snapshots and change feeds that
    /// follow the catalog's changes see one. Synonyms, stop words and typo rules apply when a
    /// query is read; new searchable or typo-exempt fields build the catalog's index again from its records in
    /// the same transaction (as a new locale does), readers keeping the previous version until it
    /// commits.
    ///
    /// ```swift
    /// let changed = try management.updateSearchSettings("cookbook", in: database) { settings in
    ///     var settings = settings
    ///     settings.stopWords = ["a", "az"]
    ///     return settings
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - revisions: when given, the change is refused unless the catalog is at one of them.
    ///   - isCancelled: checked while a rebuild runs; true stops it, changing nothing.
    ///   - recordsRead: hears how many records a rebuild has read so far (a job's progress).
    ///   - change: the new settings, from the settings inside the transaction; it may throw (a
    ///     merge patch with problems).
    /// - Returns: the settings as stored, and the catalog's revision.
    /// - Throws: ``StorageError`` `.catalogNotFound`; ``CatalogChangeError`` `.staleRevision`, or
    ///   `.invalid` with every problem at its JSON pointer (`/typos/oneTypoFrom`); what `change`
    ///   throws.
    public func updateSearchSettings(
        _ id: String, in database: any CatalogDatabase, ifRevision revisions: Set<String>? = nil,
        isCancelled: () -> Bool = { false }, recordsRead: ((Int) -> Void)? = nil,
        change: (SearchSettings) throws -> SearchSettings
    ) throws -> ManagedSearchSettings {
        try database.write { writer in
            let current = try Self.current(id, reader: writer.reader, revisions: revisions)
            let settings = try change(current.definition.searchSettings)
            let problems = settings.problems()
            guard problems.isEmpty else { throw CatalogChangeError.invalid(problems) }
            guard settings != current.definition.searchSettings else { return }
            var definition = current.definition
            definition.searchSettings = settings
            if settings.needsRebuild(from: current.definition.searchSettings) && current.summary.count > 0 {
                try rebuild(current, as: definition, writer: writer, isCancelled: isCancelled) { builder in
                    try Self.addStoredRecords(
                        of: current, reader: writer.reader, to: builder, isCancelled, recordsRead: recordsRead)
                }
            } else {
                try writer.updateDefinition(definition)
            }
        }
        return try database.read { reader in
            guard let stored = try reader.catalog(id) else {
                throw StorageError(.catalogNotFound, "catalog \"\(id.prefix(80))\" was deleted meanwhile")
            }
            return ManagedSearchSettings(settings: stored.definition.searchSettings, revision: stored.revision)
        }
    }

    /// Whether changing catalog `id`'s settings as `change` does builds its index again (and how
    /// many records that reads), checking the new settings first: a server runs such a change
    /// as a background job when asked to.
    ///
    /// - Returns: nil when the change needs no rebuild (it applies at once), else the record count.
    /// - Throws: as ``updateSearchSettings(_:in:ifRevision:isCancelled:recordsRead:change:)`` would
    ///   for problems, a missing catalog or a stale revision, before anything changes.
    public func rebuildSize(
        _ id: String, in database: any CatalogDatabase, ifRevision revisions: Set<String>? = nil,
        change: (SearchSettings) throws -> SearchSettings
    ) throws -> Int? {
        try database.read { reader in
            let current = try Self.current(id, reader: reader, revisions: revisions)
            let settings = try change(current.definition.searchSettings)
            let problems = settings.problems()
            guard problems.isEmpty else { throw CatalogChangeError.invalid(problems) }
            let rebuilds =
                settings.needsRebuild(from: current.definition.searchSettings) && current.summary.count > 0
            return rebuilds ? current.summary.count : nil
        }
    }
}

/// A catalog's search settings as a change left them.
public struct ManagedSearchSettings: Sendable, Equatable {
    /// The settings.
    public var settings: SearchSettings
    /// The catalog's revision (``StoredCatalog/revision``): the route's `ETag`, in quotes.
    public var revision: String

    /// Creates the description.
    public init(settings: SearchSettings, revision: String) {
        self.settings = settings
        self.revision = revision
    }
}
