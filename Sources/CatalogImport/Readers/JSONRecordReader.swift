import CatalogModel
import Foundation

/// Reads records from JSON, streaming: a top-level array of objects, an object one of whose
/// keys holds that array, or an object whose members are the records keyed by their ids
/// (`{"3040051": {"name": …}, …}`: the key is the record's `id` field, its first).
///
/// ```swift
/// let reader = JSONRecordReader(fileURL: url, recordPath: "recipes")
/// try reader.forEachRecord { record in print(record.values(of: "title")) }
/// ```
///
/// Each record object becomes a ``SourceRecord`` whose fields keep their JSON type
/// (``SourceField/kind``):
/// - strings as they are (escapes decoded); numbers as their literal, exactly as written
///   (`12.50` stays `12.50`, `1e3` stays `1e3`); booleans; `null` as a field of kind `null`;
/// - an array repeats the key once per element, each marked ``SourceField/isListElement`` (so a
///   one-element array stays a list; arrays of arrays are flattened the same way, with a note); an empty array
///   is one field of kind ``SourceField/Kind/emptyList``; an empty object adds no field;
/// - a nested object is flattened with `.` (`dimensions.width`), and so is every object in an
///   array (`images.url`, repeated).
///
/// Keyed records are found when the top-level object holds nothing but objects and no array of
/// records. They stream in one pass like an array's: the first members are held back until 256 of
/// them (or the first MiB of them) are all objects, in case a later member is the array of records
/// (`{"meta": {…}, "items": [{…}]}` reads `items`), then every member is handed on as soon as it
/// is read; a member that is not an object after that is an error. A syntax error inside a member
/// names its key. A `recordPath` naming an object of objects reads them as keyed records at once.
///
/// The input is validated strictly against RFC 8259 (no comments, trailing commas, leading zeros,
/// unescaped control characters or lone surrogates; nothing after the top-level value), also in
/// the parts that are not records. Containers nested deeper than 64 levels are refused with
/// `.tooLarge`. Memory stays bounded by the largest record; the file is read in 64 KiB chunks.
/// Columns in error locations count Unicode scalars, from 1.
public struct JSONRecordReader: RecordSource {
    private let input: ReaderInput
    /// The key that holds the records, or nil to take the first top-level key whose value is an
    /// array of objects. A dotted path (`data.items`) descends into nested objects; a key that
    /// itself contains dots is matched whole first.
    public var recordPath: String?
    /// Called every 64 KiB with the number of input bytes consumed so far, and once at the end.
    public var progress: ((Int64) -> Void)?

    /// Creates a reader for a JSON file.
    ///
    /// - Parameters:
    ///   - fileURL: the file to read (it is opened by ``read(cancellation:fieldNames:_:)``).
    ///   - recordPath: the key holding the array of records when the top-level value is an object;
    ///     nil finds it. It must be nil when the top-level value is an array.
    ///   - sourceName: the name used in error locations; the file's path when nil (give the URL
    ///     for a downloaded file).
    ///   - progress: called every so often with the number of bytes consumed.
    public init(
        fileURL: URL, recordPath: String? = nil, sourceName: String? = nil, progress: ((Int64) -> Void)? = nil
    ) {
        self.input = .file(fileURL, name: sourceName ?? fileURL.path)
        self.recordPath = recordPath
        self.progress = progress
    }

    /// Creates a reader over JSON text in memory (tests, small inputs).
    ///
    /// - Parameters:
    ///   - data: the UTF-8 bytes.
    ///   - sourceName: the name used in error locations.
    ///   - recordPath: as for ``init(fileURL:recordPath:sourceName:progress:)``.
    ///   - progress: called every so often with the number of bytes consumed.
    public init(data: Data, sourceName: String, recordPath: String? = nil, progress: ((Int64) -> Void)? = nil) {
        self.input = .data(data, name: sourceName)
        self.recordPath = recordPath
        self.progress = progress
    }

    /// Calls `body` with each record in document order.
    ///
    /// - Returns: the records read and the bytes read.
    /// - Throws: an ``ImportError`` (`.malformed`, `.encoding`, `.empty`, `.notFound`, `.tooLarge`,
    ///   `.io`) with the line and column of the problem, ``ReadCancellation/Cancelled``, or whatever
    ///   `body` throws. Records before the problem have already been delivered.
    public func read(
        cancellation: ReadCancellation, fieldNames: ([String]) -> Void, _ body: (SourceRecord) throws -> Void
    ) throws -> ReadSummary {
        try ReadingPass.read(
            input, progress: progress, cancellation: cancellation, fieldNames: fieldNames, body
        ) { pass, _, body in
            var parser = JSONParser(scanner: try pass.scanner(), recordPath: recordPath)
            try parser.run(body)
            pass.notes += parser.notes
        }
    }
}
