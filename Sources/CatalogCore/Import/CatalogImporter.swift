import CatalogModel
import CatalogStorage

/// How an import goes, the same on every engine: the records are read, numbered and indexed
/// into temporary files without holding any lock, compared with the catalog's current records,
/// and only then written in one transaction, which replaces the catalog's previous version as a
/// whole. On any error nothing changes; an import that changes nothing writes nothing.
public enum CatalogImporter {
    /// Imports records into a catalog.
    ///
    /// - Parameters:
    ///   - database: where the catalog is.
    ///   - definition: the catalog's definition (stored, replacing the previous one).
    ///   - replace: when true, records missing from the source are removed; otherwise kept.
    ///   - collation: sort keys and sections for the definition's locale.
    ///   - temporaryDirectory: where temporary files go (the system's when nil).
    ///   - records: hands every record to its argument (``Intake``), once each; returns the
    ///     definition to store if reading taught something (field order), or nil to store
    ///     `definition`.
    ///   - categoryNumbers: the numbers categories keep (a copy keeps its source's); nil: the
    ///     catalog's current ones.
    ///   - progress: called now and then with the number of records read.
    ///   - isCancelled: checked between records; when it returns true the import stops with
    ///     ``StorageError/Code/cancelled`` and nothing changes.
    ///   - source: the digest of the source and the options it is read with, stored as the
    ///     definition's ``CatalogDefinition/lastImport`` so the same import later has nothing to do.
    ///   - previous: what the catalog held when the import was planned, if the caller read it
    ///     already (``Previous/planned(_:)``); by default it is read here.
    /// - Returns: what the import did.
    public static func run(
        into database: any CatalogDatabase, definition: CatalogDefinition, replace: Bool,
        collation: any CatalogCollating, temporaryDirectory: String? = nil, source: String? = nil,
        previous: Previous = .current,
        records: (_ add: Intake) throws -> CatalogDefinition?,
        categoryNumbers: [String: Int]? = nil, progress: ((Int) -> Void)? = nil,
        isCancelled: @escaping () -> Bool = { false }
    ) throws -> ImportSummary {
        guard CatalogDefinition.isValidID(definition.id) else {
            throw StorageError(
                .invalidArgument,
                "invalid catalog id \"\(definition.id.prefix(80))\": use 1 to 64 letters, digits, '-' or '_'")
        }
        // Reading, numbering and indexing happen without any lock, against a snapshot; what the
        // catalog holds is looked at again under the write lock, in case another writer changed it.
        let (existing, previousHashes) = try database.read { snapshot in
            let existing: StoredCatalog?
            switch previous {
            case .current: existing = try snapshot.catalog(definition.id)
            case .planned(let planned): existing = planned
            }
            return (existing, try existing.map { try snapshot.itemHashes(of: $0) })
        }
        let builder = try CatalogIndexBuilder(
            definition: definition, collation: collation,
            existingCategories: categoryNumbers
                ?? Dictionary(
                    (existing?.categories ?? []).map { ($0.name, $0.id) }, uniquingKeysWith: { first, _ in first }),
            temporaryDirectory: temporaryDirectory)
        if let previousHashes {
            builder.previousHashes = previousHashes
            builder.collectsTermsLater = true
        }
        let intake = Intake(builder: builder, progress: progress, isCancelled: isCancelled)
        let learned = try ImportProfile.step("read and index records") { try records(intake) }
        let read = intake.count
        progress?(read)
        if let learned {
            guard learned.id == definition.id, learned.locale == definition.locale else {
                throw StorageError(.invalidArgument, "an import cannot change a catalog's id or locale while reading")
            }
            builder.storedDefinition = learned
        }
        if let source {
            builder.storedDefinition.lastImport = ImportStamp(
                source: source, definition: builder.storedDefinition.contentDigest)
        }
        if isCancelled() { throw StorageError(.cancelled, "the import was cancelled") }
        var appliedAsChanges = false
        let summary = try database.write { writer in
            let current = try writer.reader.catalog(definition.id)
            // The import's definition was made from the planned one: a catalog created, renamed,
            // re-localized or re-mapped meanwhile (``CatalogManagement``) is not overwritten with it.
            if let current, existing.map({ !current.definition.isEquivalent(to: $0.definition) }) ?? true {
                throw StorageError(
                    .constraint,
                    "catalog \"\(definition.id)\" was \(existing == nil ? "created" : "changed") while the import was "
                        + "read; nothing was imported: run it again")
            }
            if current?.versionKey != existing?.versionKey {
                // Another writer changed the catalog meanwhile: count against what it holds now.
                let hashes = try current.map { try writer.reader.itemHashes(of: $0) } ?? [:]
                builder.recount(against: hashes)
            }
            var removed = 0
            if let current {
                let matched = builder.changedCount + builder.unchangedCount
                if replace {
                    removed = builder.previousHashes.count - matched
                } else if matched < builder.previousHashes.count {
                    // Records the source does not have are kept.
                    try writer.reader.forEachItem(of: current) { hit in
                        guard !builder.contains(id: hit.id) else { return }
                        if isCancelled() { throw StorageError(.cancelled, "the import was cancelled") }
                        try builder.add(try hit.record(), counted: false)
                    }
                }
            }
            let summary = ImportSummary(
                read: read, total: builder.count, added: builder.addedCount, updated: builder.changedCount,
                removed: removed)
            if let current, summary.added == 0, summary.updated == 0, summary.removed == 0,
                current.definition.isEquivalent(to: builder.storedDefinition),
                current.collationVersion == collation.version
            {
                // The same records the same way: only what remembers this import is written.
                if current.definition != builder.storedDefinition {
                    try writer.updateDefinition(builder.storedDefinition)
                }
                return summary
            }
            if let current,
                summary.added + summary.updated + summary.removed
                    <= CatalogEditor.reimportLimit(total: current.summary.count),
                current.definition.isEquivalent(to: builder.storedDefinition),
                current.collationVersion == collation.version
            {
                // A re-import that changes little is a change like any other: the changed records
                // become a segment and the change log lists each of them.
                var edits = try builder.changedRecords().map { RecordEdit(.upsert($0)) }
                if replace { edits += builder.missingIDs().map { RecordEdit(.delete(id: $0)) } }
                _ = try ImportProfile.step("apply \(edits.count) changes") {
                    try CatalogEditor.apply(
                        edits, to: definition.id, writer: writer, collation: collation,
                        temporaryDirectory: temporaryDirectory)
                }
                if current.definition != builder.storedDefinition {
                    try writer.updateDefinition(builder.storedDefinition)
                }
                appliedAsChanges = true
                return summary
            }
            let version = try writer.beginVersion(of: definition.id)
            let built = try builder.finish(into: version, isCancelled: isCancelled)
            try ImportProfile.step("commit") { try version.commit(built) }
            try StoredImageEditor.removeUnnamed(of: definition.id, writer: writer)
            try writer.loadWrittenIndexes(of: definition.id)
            return summary
        }
        if appliedAsChanges {
            // The changes' segment is merged as edits' segments are, in transactions of its own.
            // The import has committed: a merge that fails leaves the catalog as it is, merged later.
            _ = try? SegmentMerger.mergeAll(
                catalog: definition.id, in: database, temporaryDirectory: temporaryDirectory)
        }
        return summary
    }

    /// What an import's records are handed to, one at a time: `add(record)`.
    public final class Intake {
        private let builder: CatalogIndexBuilder
        private let progress: ((Int) -> Void)?
        private let isCancelled: () -> Bool
        /// How many records were added.
        public private(set) var count = 0

        init(builder: CatalogIndexBuilder, progress: ((Int) -> Void)?, isCancelled: @escaping () -> Bool) {
            self.builder = builder
            self.progress = progress
            self.isCancelled = isCancelled
        }

        /// Adds a record.
        ///
        /// - Throws: ``StorageError`` `.cancelled` once the import is cancelled; what
        ///   ``CatalogIndexBuilder/add(_:counted:)-(Record,_)`` throws (an id seen before: `.constraint`).
        public func callAsFunction(_ record: Record) throws {
            try callAsFunction(PreparedRecord(record, collation: builder.collation))
        }

        /// Adds a record prepared with the import's collation (on a reading thread).
        ///
        /// - Throws: as ``callAsFunction(_:)-(Record)``.
        public func callAsFunction(_ prepared: PreparedRecord) throws {
            if count % 256 == 0 && isCancelled() { throw StorageError(.cancelled, "the import was cancelled") }
            try builder.add(prepared)
            count += 1
            if count % 10_000 == 0 { progress?(count) }
        }

        /// The arrival number (0 for the first) of the record added with `id`, if one was: for
        /// naming where a repeated id was first seen.
        public func arrival(ofID id: String) -> Int? { builder.arrival(ofID: id) }
    }

    /// The version of the catalog an import starts from: its records are compared with it, and
    /// the write checks that it is still the current one (else it counts again).
    public enum Previous: Sendable {
        /// Read the catalog's current version when the import starts.
        case current
        /// The version read when the import was planned (nil: the catalog did not exist).
        case planned(StoredCatalog?)
    }
}
