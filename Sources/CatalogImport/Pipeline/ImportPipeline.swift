import CatalogCore
import CatalogModel
import CatalogStorage
import Foundation
import Synchronization

/// Reading a source into a catalog: picks the reader for a format, then maps records on a
/// reading thread while the store imports them on the calling thread. The CLI's `import`, the
/// demo catalogs and the server's import endpoint all go through here.
public enum ImportPipeline {
    /// Picks the reader for a format.
    ///
    /// - Parameters:
    ///   - format: the source's format.
    ///   - fileURL: the source file.
    ///   - displayName: the name errors use (the URL or path the user gave).
    ///   - definition: the catalog's definition; XML's record element and CSV's category
    ///     separator are set here when the caller gave them.
    ///   - record: XML: the record element; JSON: the key holding the records.
    ///   - table: SQLite: the table to read.
    ///   - comment: CSV: lines starting with this character are skipped.
    ///   - progress: called with the bytes read so far.
    ///   - outcome: receives what reading learns (XML root and record elements).
    /// - Returns: the reader.
    public static func reader(
        format: ImportFormat, fileURL: URL, displayName: String, definition: inout CatalogDefinition,
        record: String?, table: String?, comment: Character? = nil,
        progress: @escaping (Int64) -> Void, outcome: ReadingOutcome? = nil
    ) throws -> any RecordSource {
        switch format {
        case .xml:
            if let record { definition.recordElement = record }
            var reader = XMLRecordReader(
                fileURL: fileURL, recordElement: definition.recordElement, sourceName: displayName,
                progress: progress)
            reader.shape = { shape in outcome?.set(shape: shape) }
            return reader
        case .json:
            return JSONRecordReader(
                fileURL: fileURL, recordPath: record, sourceName: displayName, progress: progress)
        case .csv:
            // A CSV cell holds one value: several categories share it, separated by ';'.
            if definition.categorySeparator == nil { definition.categorySeparator = ";" }
            var reader = CSVRecordReader(fileURL: fileURL, sourceName: displayName, progress: progress)
            reader.comment = comment
            return reader
        case .sqlite:
            return SQLiteTableSource(path: fileURL.path, table: table)
        }
    }

    /// Maps and imports every record of `reader`: reading and mapping run on their own thread,
    /// feeding the import on this one.
    ///
    /// - Parameters:
    ///   - requiredSources: the mappings the user gave for this import (`--field`): each must
    ///     name a field the source has, or the import fails before it commits.
    ///   - replace: remove records missing from the source. Without it, an import whose records
    ///     would be identified differently than at the catalog's last import
    ///     (``CatalogDefinition/idSource``) is refused.
    ///   - source: the source's ``ImportStamp/source`` digest, remembered with the catalog.
    /// - Returns: what the import did, with the mapper's notes. Nothing changes when it throws.
    public static func run(
        _ reader: any RecordSource, into database: any CatalogDatabase, definition: CatalogDefinition, replace: Bool,
        collation: any CatalogCollating, requiredSources: [Role: String] = [:], outcome: ReadingOutcome? = nil,
        source: String? = nil, readingDone: ((Int) -> Void)? = nil, progress: @escaping (Int) -> Void,
        isCancelled: @escaping @Sendable () -> Bool = { false }
    ) throws -> ImportSummary {
        let pipe = BatchPipe<Record>()
        let learned = outcome ?? ReadingOutcome()
        var reader = reader
        if var table = reader as? SQLiteTableSource {
            table.isCancelled = { isCancelled() }
            reader = table
        }
        let box = ReaderBox(reader)
        let thread = Thread {
            var mapper = RecordMapper(definition: definition)
            mapper.requiredSources = requiredSources
            var batch: [Record] = []
            batch.reserveCapacity(Self.batchSize)
            do {
                var sawRecord = false
                var declared: [String] = []
                try box.reader.forEachRecord(fieldNames: { declared = $0 }) { source in
                    if !declared.isEmpty {
                        mapper.declare(fieldNames: declared)
                        declared = []
                    }
                    sawRecord = true
                    batch.append(try mapper.record(from: source))
                    if batch.count == Self.batchSize {
                        try pipe.send(batch)
                        batch.removeAll(keepingCapacity: true)
                    }
                }
                if !declared.isEmpty { mapper.declare(fieldNames: declared) }
                try mapper.finish()
                if !sawRecord { throw ImportError(.empty, "no records found") }
                try Self.checkKeys(
                    catalog: definition.id, before: definition.idSource, now: mapper.idSource, replace: replace)
                if !batch.isEmpty { try pipe.send(batch) }
                learned.set(mapper: mapper)
                pipe.finish(error: nil)
            } catch {
                pipe.finish(error: error)
            }
        }
        thread.stackSize = 8 << 20
        thread.start()
        do {
            var summary = try CatalogImporter.run(
                into: database, definition: definition, replace: replace, collation: collation, source: source,
                records: { add in
                    var count = 0
                    while let batch = try pipe.receive() {
                        for record in batch { try add(record) }
                        count += batch.count
                    }
                    readingDone?(count)
                    return learned.applied(to: definition)
                }, progress: progress, isCancelled: isCancelled)
            summary.notes = learned.notes
            return summary
        } catch {
            // Drain so the reader thread can finish before its reader goes away.
            pipe.cancelAndDrain()
            throw error
        }
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

/// What reading taught about the source, handed from the reading thread to the importing one:
/// the order of its fields, how it identified records, which fields carried languages, the
/// notes for the user and, for XML, the document's shape (kept for exports).
public final class ReadingOutcome: Sendable {
    private struct Learned {
        var fieldOrder: [String]?
        var translatedFields: [String] = []
        var idSource: IDSource?
        var notes: [String] = []
        var shape: XMLDocumentShape?
    }

    private let learned = Mutex(Learned())

    /// Creates an empty outcome.
    public init() {}

    /// Keeps what the mapper learned after the last record.
    public func set(mapper: RecordMapper) {
        learned.withLock {
            $0.fieldOrder = mapper.fieldOrder
            $0.translatedFields = mapper.translatedFields
            $0.idSource = mapper.idSource
            $0.notes = mapper.notes
        }
    }

    /// Keeps an XML document's shape.
    public func set(shape: XMLDocumentShape) {
        learned.withLock { $0.shape = shape }
    }

    /// The mapper's notes for the import summary.
    public var notes: [String] {
        learned.withLock { $0.notes }
    }

    /// `definition` with what reading learned; XML elements already set are kept.
    public func applied(to definition: CatalogDefinition) -> CatalogDefinition {
        let learned = learned.withLock { $0 }
        var result = definition
        if let fieldOrder = learned.fieldOrder { result.fieldOrder = fieldOrder }
        result.translatedFields = learned.translatedFields
        if let idSource = learned.idSource { result.idSource = idSource }
        if let shape = learned.shape {
            if result.rootElement == nil { result.rootElement = shape.rootElement }
            if result.recordElement == nil { result.recordElement = shape.recordElement }
            if result.rootElement == shape.rootElement { result.rootAttributes = shape.rootAttributes }
            if result.recordElement == shape.recordElement { result.recordAttributes = shape.recordAttributes }
        }
        return result
    }
}

/// Moves a reader to the reading thread.
final class ReaderBox: @unchecked Sendable {
    // @unchecked: the reader is used by the reading thread only, after it is handed over.
    let reader: any RecordSource

    init(_ reader: any RecordSource) { self.reader = reader }
}
