import CatalogModel
import Foundation

/// Something that writes ``SourceRecord``s as a document, streaming: a start, each record, an end.
///
/// ```swift
/// var writer = XMLRecordWriter(rootElement: "sequenzer", recordElement: "Produkt")
/// var sink = DataSink()
/// try writer.writeStart(to: &sink)
/// for record in records { try writer.write(record, to: &sink) }
/// try writer.writeEnd(to: &sink)
/// ```
///
/// The conveniences ``write(records:to:)``, ``write(from:to:)`` and ``data(for:)`` do the three
/// steps at once.
public protocol RecordWriter {
    /// Writes what comes before the first record (a declaration, an opening bracket, a header).
    ///
    /// - Throws: `.invalidArgument` when the writer's settings cannot produce a valid document,
    ///   `.io` when the sink fails.
    mutating func writeStart(to sink: inout some ByteSink) throws(ImportError)

    /// Writes one record.
    ///
    /// - Throws: `.io` when the sink fails.
    mutating func write(_ record: SourceRecord, to sink: inout some ByteSink) throws(ImportError)

    /// Writes what comes after the last record and flushes the sink.
    ///
    /// - Throws: `.io` when the sink fails.
    mutating func writeEnd(to sink: inout some ByteSink) throws(ImportError)
}

extension RecordWriter {
    /// Writes a whole document holding `records`.
    ///
    /// - Throws: as ``writeStart(to:)``, ``write(_:to:)`` and ``writeEnd(to:)``.
    public mutating func write(records: some Sequence<SourceRecord>, to sink: inout some ByteSink) throws(ImportError) {
        try writeStart(to: &sink)
        for record in records { try write(record, to: &sink) }
        try writeEnd(to: &sink)
    }

    /// Writes a whole document holding every record of `source`, streaming (a conversion).
    ///
    /// - Throws: what reading `source` throws, or what writing throws.
    public mutating func write(from source: some RecordSource, to sink: inout some ByteSink) throws {
        try writeStart(to: &sink)
        try source.forEachRecord { record in try write(record, to: &sink) }
        try writeEnd(to: &sink)
    }

    /// A whole document holding `records`, in memory.
    ///
    /// - Throws: `.invalidArgument` when the writer's settings cannot produce a valid document.
    public mutating func data(for records: some Sequence<SourceRecord>) throws(ImportError) -> Data {
        var sink = DataSink()
        try write(records: records, to: &sink)
        return sink.data
    }
}
