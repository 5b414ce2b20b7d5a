import CatalogCore
import CatalogModel
import CatalogStorage
import Foundation

/// Reading a source into a catalog: records are read and mapped on a reading thread while the
/// store imports them on the calling thread. ``SourceImporter`` (the CLI's `import`, the API's
/// upload, the refresher), the demo catalogs and the test fixtures all go through here.
public enum ImportPipeline {
    /// Maps and imports every record of `reader`: reading and mapping run on their own thread,
    /// feeding the import on this one. What reading learned (field order, how records were
    /// identified, languages, an XML document's shape, the mapper's notes) comes back with the
    /// end of the records and goes into the stored definition.
    ///
    /// - Parameters:
    ///   - requiredSources: the mappings the user gave for this import (`--field`): each must
    ///     name a field the source has, or the import fails before it commits.
    ///   - replace: remove records missing from the source. Without it, an import whose records
    ///     would be identified differently than at the catalog's last import
    ///     (``CatalogDefinition/idSource``) is refused.
    ///   - source: the source's ``ImportStamp/source`` digest, remembered with the catalog.
    ///   - previous: the catalog's version the import was planned against (``ImportPlan``), or
    ///     ``CatalogImporter/Previous/current`` to read it when the import starts.
    ///   - isCancelled: asked by the reader between records and by the import between steps.
    ///   - countryNames: country names in the catalog's languages (``RecordMapper/localCountryNames``).
    /// - Returns: what the import did, with the mapper's notes. Nothing changes when it throws.
    public static func run(
        _ reader: any RecordSource, into database: any CatalogDatabase, definition: CatalogDefinition, replace: Bool,
        collation: any CatalogCollating, requiredSources: [Role: String] = [:], source: String? = nil,
        previous: CatalogImporter.Previous = .current, readingDone: ((Int) -> Void)? = nil,
        progress: @escaping (Int) -> Void, isCancelled: @escaping @Sendable () -> Bool = { false },
        countryNames: [String: String] = [:]
    ) throws -> ImportSummary {
        let pipe = BatchPipe<ReadRecord, Reading>()
        let job = UncheckedReader(reader, collation: collation)
        let cancellation = ReadCancellation(isCancelled)
        let thread = Thread {
            pipe.finish(
                Result {
                    try read(
                        job.reader, definition: definition, requiredSources: requiredSources, replace: replace,
                        countryNames: countryNames, collation: job.collation, cancellation: cancellation, into: pipe)
                })
        }
        thread.stackSize = 8 << 20
        thread.start()
        do {
            var notes: [String] = []
            var summary = try CatalogImporter.run(
                into: database, definition: definition, replace: replace, collation: collation, source: source,
                previous: previous,
                records: { add in
                    // Where each record was read, for naming both places of a repeated id.
                    var places = SourcePlaces()
                    while true {
                        switch try pipe.receive() {
                        case .batch(let batch):
                            for read in batch {
                                do {
                                    try add(read.prepared)
                                } catch let error as StorageError where error.code == .constraint {
                                    guard let first = add.arrival(ofID: read.prepared.record.id) else { throw error }
                                    throw ImportError(
                                        .invalidValue,
                                        "two records have the id \"\(read.prepared.record.id.prefix(200))\": this one "
                                            + "and the one at \(places.location(of: first, in: read.location.source))",
                                        at: read.location, field: read.idField)
                                }
                                places.append(read.location)
                            }
                        case .end(let reading):
                            readingDone?(add.count)
                            notes = reading.notes
                            return reading.applied(to: definition)
                        }
                    }
                }, progress: progress, isCancelled: isCancelled)
            summary.notes = notes
            return summary
        } catch is ReadCancellation.Cancelled {
            pipe.cancelAndDrain()
            throw StorageError(.cancelled, "the import was cancelled")
        } catch {
            // Drain so the reader thread can finish before its reader goes away.
            pipe.cancelAndDrain()
            throw error
        }
    }

    /// The reading thread's work: reads, maps and prepares (``PreparedRecord``) every record of
    /// `reader` into `pipe`, in batches, and returns what reading learned. Repeated ids are found
    /// where records are indexed, in the order they were read: the records read before an error
    /// are sent first, so a repeated id before it is the one reported.
    private static func read(
        _ reader: any RecordSource, definition: CatalogDefinition, requiredSources: [Role: String], replace: Bool,
        countryNames: [String: String], collation: any CatalogCollating, cancellation: ReadCancellation,
        into pipe: BatchPipe<ReadRecord, Reading>
    ) throws -> Reading {
        var mapper = RecordMapper(definition: definition)
        mapper.requiredSources = requiredSources
        mapper.localCountryNames = countryNames
        var batch: [ReadRecord] = []
        batch.reserveCapacity(Self.batchSize)
        // The names a source declares reach the mapper before its first record, so messages
        // list them even when every record leaves them empty.
        var declared: [String] = []
        let idName = definition.sourceName(for: .id)
        let read: ReadSummary
        do {
            read = try reader.read(cancellation: cancellation, fieldNames: { declared = $0 }) { source in
                if !declared.isEmpty {
                    mapper.declare(fieldNames: declared)
                    declared = []
                }
                let record = try mapper.record(from: source)
                // The record's place: its first id field with a line, else the record's own.
                var idField: String?
                var location = source.location
                for field in source.fields where field.name == idName {
                    idField = idName
                    if field.location.line > 0 {
                        location = field.location
                        break
                    }
                }
                batch.append(
                    ReadRecord(
                        prepared: PreparedRecord(record, collation: collation), location: location, idField: idField))
                if batch.count == Self.batchSize {
                    try pipe.send(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
        } catch {
            if !batch.isEmpty, !(error is BatchPipe<ReadRecord, Reading>.Cancelled) { try? pipe.send(batch) }
            throw error
        }
        if !declared.isEmpty { mapper.declare(fieldNames: read.fieldNames) }
        try mapper.finish()
        if read.records == 0 { throw ImportError(.empty, "no records found") }
        try Self.checkKeys(catalog: definition.id, before: definition.idSource, now: mapper.idSource, replace: replace)
        if !batch.isEmpty { try pipe.send(batch) }
        return Reading(mapper: mapper, summary: read)
    }

    /// Refuses an import that would re-key the catalog's records, unless it replaces them.
    ///
    /// - Throws: `.invalidArgument` saying how ids were taken before and now.
    public static func checkKeys(catalog: String, before: IDSource?, now: IDSource?, replace: Bool)
        throws(ImportError)
    {
        guard !replace, let before, let now, before != now else { return }
        throw ImportError(
            .invalidArgument,
            "this import would re-key catalog \"\(catalog)\": its records took their ids from \(before) at the "
                + "last import, these take them from \(now); records that share an id would be merged and the "
                + "others doubled. Give --replace to replace the catalog's records")
    }

    /// Records per batch handed from the reading thread.
    static let batchSize = 512
}

/// What reading taught about the source, returned by the reading thread with the end of its
/// records: the order of its fields, how it identified records, which fields carried languages,
/// the notes for the user and the reader's own ``ReadSummary`` (for XML, the document's shape,
/// kept for exports).
struct Reading: Sendable, Equatable {
    /// Source field names in the order they were first seen.
    var fieldOrder: [String]
    /// Source fields that carried a language and are not roles.
    var translatedFields: [String]
    /// How the records were identified, if they were.
    var idSource: IDSource?
    /// The mapper's notes for the import summary.
    var notes: [String]
    /// What the reader returned.
    var summary: ReadSummary

    /// What `mapper` learned after the last record, and what the reader returned.
    init(mapper: RecordMapper, summary: ReadSummary) {
        self.init(
            fieldOrder: mapper.fieldOrder, translatedFields: mapper.translatedFields, idSource: mapper.idSource,
            notes: summary.notes + mapper.notes, summary: summary)
    }

    /// Creates a reading.
    init(
        fieldOrder: [String], translatedFields: [String], idSource: IDSource?, notes: [String], summary: ReadSummary
    ) {
        self.fieldOrder = fieldOrder
        self.translatedFields = translatedFields
        self.idSource = idSource
        self.notes = notes
        self.summary = summary
    }

    /// `definition` with what reading learned; XML elements already set are kept.
    func applied(to definition: CatalogDefinition) -> CatalogDefinition {
        var result = definition
        result.fieldOrder = fieldOrder
        result.translatedFields = translatedFields
        if let idSource { result.idSource = idSource }
        if let shape = summary.shape { result = shape.applied(to: result) }
        return result
    }
}

/// Moves a reader, and the collation records are prepared with, to the reading thread.
private struct UncheckedReader: @unchecked Sendable {
    // @unchecked: the reader is used by the reading thread only, after it is handed over; the
    // calling thread waits for that thread (the pipe's end) before the reader goes away. The
    // collation is ICU's, whose collators and indexes may be used from several threads at once.
    let reader: any RecordSource
    let collation: any CatalogCollating

    init(_ reader: any RecordSource, collation: any CatalogCollating) {
        self.reader = reader
        self.collation = collation
    }
}

/// A record as the reading thread hands it over: prepared for the index, with where it was read
/// (its id's place when the source gives one) and the source field its id came from, if any.
struct ReadRecord: Sendable {
    var prepared: PreparedRecord
    var location: SourceLocation
    var idField: String?
}

/// Where each record of an import was read, by arrival, in 8 bytes each: the line and column of
/// a million records take 8 MB, where a dictionary of ids and places took six times as much.
struct SourcePlaces {
    private var places: [UInt64] = []

    /// Appends the next record's place; a line or column past 2³² - 1 is kept as that.
    mutating func append(_ location: SourceLocation) {
        places.append(UInt64(UInt32(clamping: location.line)) << 32 | UInt64(UInt32(clamping: location.column)))
    }

    /// The place of the record that arrived `arrival`th, in the file or URL `source`.
    func location(of arrival: Int, in source: String) -> SourceLocation {
        guard places.indices.contains(arrival) else { return SourceLocation(source: source) }
        let place = places[arrival]
        return SourceLocation(source: source, line: Int(place >> 32), column: Int(place & 0xFFFF_FFFF))
    }
}
