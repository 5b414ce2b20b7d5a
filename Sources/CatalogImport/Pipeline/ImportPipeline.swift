import CatalogCore
import CatalogModel
import CatalogStorage
import Foundation

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
    ///   - sqliteTable: makes the reader of an SQLite table (the engine lives in another target).
    ///   - progress: called with the bytes read so far.
    ///   - outcome: receives what reading learns (XML root and record elements).
    /// - Returns: the reader.
    public static func reader(
        format: ImportFormat, fileURL: URL, displayName: String, definition: inout CatalogDefinition,
        record: String?, table: String?, sqliteTable: (String, String?) throws -> any RecordSource,
        progress: @escaping (Int64) -> Void, outcome: ReadingOutcome? = nil
    ) throws -> any RecordSource {
        switch format {
        case .xml:
            if let record { definition.recordElement = record }
            var reader = XMLRecordReader(
                fileURL: fileURL, recordElement: definition.recordElement, sourceName: displayName,
                progress: progress)
            reader.shape = { root, record in outcome?.set(rootElement: root, recordElement: record) }
            return reader
        case .json:
            return JSONRecordReader(
                fileURL: fileURL, recordPath: record, sourceName: displayName, progress: progress)
        case .csv:
            // A CSV cell holds one value: several categories share it, separated by ';'.
            if definition.categorySeparator == nil { definition.categorySeparator = ";" }
            return CSVRecordReader(fileURL: fileURL, sourceName: displayName, progress: progress)
        case .sqlite:
            return try sqliteTable(fileURL.path, table)
        }
    }

    /// Maps and imports every record of `reader`: reading and mapping run on their own thread,
    /// feeding the import on this one.
    ///
    /// - Returns: what the import did. Nothing changes when it throws.
    public static func run(
        _ reader: any RecordSource, into database: any CatalogDatabase, definition: CatalogDefinition, replace: Bool,
        collation: any CatalogCollating, outcome: ReadingOutcome? = nil, readingDone: ((Int) -> Void)? = nil,
        progress: @escaping (Int) -> Void, isCancelled: @escaping @Sendable () -> Bool = { false }
    ) throws -> ImportSummary {
        let pipe = RecordPipe()
        let learned = outcome ?? ReadingOutcome()
        var reader = reader
        if var table = reader as? SQLiteTableSource {
            table.isCancelled = { isCancelled() }
            reader = table
        }
        let box = ReaderBox(reader)
        let thread = Thread {
            var mapper = RecordMapper(definition: definition)
            var batch: [Record] = []
            batch.reserveCapacity(Self.batchSize)
            do {
                var sawRecord = false
                try box.reader.forEachRecord { source in
                    sawRecord = true
                    batch.append(try mapper.record(from: source))
                    if batch.count == Self.batchSize {
                        try pipe.send(batch)
                        batch.removeAll(keepingCapacity: true)
                    }
                }
                if !batch.isEmpty { try pipe.send(batch) }
                if !sawRecord { throw ImportError(.empty, "no records found") }
                learned.set(fieldOrder: mapper.fieldOrder)
                pipe.finish(error: nil)
            } catch {
                pipe.finish(error: error)
            }
        }
        thread.stackSize = 8 << 20
        thread.start()
        do {
            return try CatalogImporter.run(
                into: database, definition: definition, replace: replace, collation: collation,
                records: { add in
                    var count = 0
                    while let batch = try pipe.receive() {
                        for record in batch { try add(record) }
                        count += batch.count
                    }
                    readingDone?(count)
                    return learned.applied(to: definition)
                }, progress: progress, isCancelled: isCancelled)
        } catch {
            pipe.cancel()
            // Drain so the reader thread can finish before its reader goes away.
            while (try? pipe.receive()) != nil {}
            throw error
        }
    }

    /// Records per batch handed from the reading thread.
    static let batchSize = 512
}

/// What reading taught about the source, handed from the reading thread to the importing one:
/// the order of its fields and, for XML, its root and record elements (kept for exports).
public final class ReadingOutcome: @unchecked Sendable {
    // @unchecked: the two stored values are read and written only while `lock` is held.
    private let lock = NSLock()
    private var fieldOrder: [String]?
    private var elements: (root: String, record: String)?

    /// Creates an empty outcome.
    public init() {}

    public func set(fieldOrder: [String]) {
        lock.withLock { self.fieldOrder = fieldOrder }
    }

    public func set(rootElement: String, recordElement: String) {
        lock.withLock { elements = (rootElement, recordElement) }
    }

    /// `definition` with what reading learned; elements already set are kept.
    public func applied(to definition: CatalogDefinition) -> CatalogDefinition {
        lock.withLock {
            var result = definition
            if let fieldOrder { result.fieldOrder = fieldOrder }
            if let elements {
                if result.rootElement == nil { result.rootElement = elements.root }
                if result.recordElement == nil { result.recordElement = elements.record }
            }
            return result
        }
    }
}

/// Moves a reader to the reading thread.
final class ReaderBox: @unchecked Sendable {
    // @unchecked: the reader is used by the reading thread only, after it is handed over.
    let reader: any RecordSource

    init(_ reader: any RecordSource) { self.reader = reader }
}
