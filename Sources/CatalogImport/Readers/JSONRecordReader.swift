import CatalogModel
import Foundation

/// Reads records from JSON, streaming: a top-level array of objects, or an object one of whose
/// keys holds that array.
///
/// ```swift
/// let reader = JSONRecordReader(fileURL: url, recordPath: "recipes")
/// try reader.forEachRecord { record in print(record.values(of: "title")) }
/// ```
///
/// Each record object becomes a ``SourceRecord``:
/// - strings as they are (escapes decoded); numbers as their literal text, exactly as written
///   (`12.50` stays `"12.50"`, `1e3` stays `"1e3"`); booleans as `"true"`/`"false"`;
/// - `null` adds no field; an empty array or object adds no field;
/// - an array repeats the key once per element (arrays of arrays are flattened the same way);
/// - a nested object is flattened with `.` (`dimensions.width`), and so is every object in an
///   array (`images.url`, repeated).
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
    ///   - fileURL: the file to read (it is opened by ``forEachRecord(_:)``).
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
    /// - Throws: an ``ImportError`` (`.malformed`, `.encoding`, `.empty`, `.notFound`, `.tooLarge`,
    ///   `.io`) with the line and column of the problem, or whatever `body` throws. Records before
    ///   the problem have already been delivered.
    public func forEachRecord(_ body: (SourceRecord) throws -> Void) throws {
        let scanner = ByteScanner(source: try input.open(), progress: progress)
        var parser = JSONParser(scanner: scanner, recordPath: recordPath)
        try parser.run(body)
    }
}
