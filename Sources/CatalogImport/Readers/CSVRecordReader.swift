import CatalogModel
import Foundation

/// Reads records from CSV (RFC 4180), streaming. The first row names the fields.
///
/// ```swift
/// let reader = CSVRecordReader(fileURL: url)            // separator detected from the header
/// try reader.forEachRecord { record in print(record.values(of: "name")) }
/// ```
///
/// - Cells may be quoted with `"`; inside quotes a doubled `""` is one quote, and separators and
///   line breaks are part of the value. Values are kept exactly (no trimming).
/// - Rows end with LF, CR LF or a lone CR. Empty lines are skipped, and so are lines starting with
///   ``comment`` (before the header and between rows), when it is set.
/// - An empty cell adds no field (the value is missing); a quoted empty cell `""` is the empty
///   string. A row may have fewer cells than the header (the missing ones add no field); a row
///   whose cells are all empty yields no record. A row with more cells than the header is a
///   `.malformed` error at the first extra cell.
/// - A column whose header ends in `:json` (`tags:json`) holds JSON values: `["a","b"]` is a list,
///   `130` a number, `null`, `true`, `"text"`; its field is named without the suffix. This is how
///   ``CSVRecordWriter`` writes lists and typed values so they come back as they were.
/// - A first line `#catalog-definition {…}` (what `catalog export` writes) is skipped.
/// - Errors: an unterminated quoted field (reported where its quote opens), a quote inside an
///   unquoted field, text after a closing quote, empty or duplicate header names.
/// - Columns in error locations count Unicode scalars, from 1. The file is read in 64 KiB chunks.
public struct CSVRecordReader: RecordSource {
    private let input: ReaderInput
    /// The cell separator, or nil to detect `,`, `;` or TAB from the header line (the most
    /// frequent outside quotes; `,` when the header has a single column).
    public var separator: Character?
    /// Called every 64 KiB with the number of input bytes consumed so far, and once at the end.
    public var progress: ((Int64) -> Void)?
    /// Lines starting with this ASCII character are skipped (`#` for tz's `zone1970.tab`).
    public var comment: Character?

    /// Creates a reader for a CSV file.
    ///
    /// - Parameters:
    ///   - fileURL: the file to read (it is opened by ``read(cancellation:fieldNames:_:)``).
    ///   - separator: an ASCII separator other than `"`, CR and LF; nil detects it.
    ///   - sourceName: the name used in error locations; the file's path when nil.
    ///   - progress: called every so often with the number of bytes consumed.
    public init(
        fileURL: URL, separator: Character? = nil, sourceName: String? = nil, progress: ((Int64) -> Void)? = nil
    ) {
        self.input = .file(fileURL, name: sourceName ?? fileURL.path)
        self.separator = separator
        self.progress = progress
    }

    /// Creates a reader over CSV text in memory (tests, small inputs).
    ///
    /// - Parameters:
    ///   - data: the UTF-8 bytes.
    ///   - sourceName: the name used in error locations.
    ///   - separator: as for ``init(fileURL:separator:sourceName:progress:)``.
    ///   - progress: called every so often with the number of bytes consumed.
    public init(data: Data, sourceName: String, separator: Character? = nil, progress: ((Int64) -> Void)? = nil) {
        self.input = .data(data, name: sourceName)
        self.separator = separator
        self.progress = progress
    }

    /// Reads the header, calling `fieldNames` with its names, then calls `body` with each record
    /// (row) in order.
    ///
    /// - Returns: the rows read and the header's names.
    /// - Throws: an ``ImportError`` (`.malformed`, `.encoding`, `.empty`, `.invalidArgument` for a
    ///   bad separator, `.tooLarge`, `.io`) with the line and column of the problem,
    ///   ``ReadCancellation/Cancelled``, or whatever `body` throws. Records before the problem have
    ///   already been delivered.
    public func read(
        cancellation: ReadCancellation, fieldNames: ([String]) -> Void, _ body: (SourceRecord) throws -> Void
    ) throws -> ReadSummary {
        try ReadingPass.read(
            input, progress: progress, cancellation: cancellation, fieldNames: fieldNames, body, parse: parse)
    }

    /// The CSV part of a read.
    private func parse(_ pass: ReadingPass, fieldNames: ([String]) -> Void, _ body: (SourceRecord) throws -> Void)
        throws
    {
        let separatorByte = try Self.separatorByte(separator, source: pass.name)
        let commentByte = try comment.map { character throws(ImportError) -> UInt8 in
            guard let ascii = character.asciiValue, ascii != Byte.lineFeed, ascii != Byte.carriageReturn,
                ascii != Byte.quote, ascii != separatorByte
            else {
                throw ImportError(
                    .invalidArgument,
                    "--comment: the comment character must be one ASCII character other than a quote, "
                        + "a line break or the separator")
            }
            return ascii
        }
        var parser = CSVParser(scanner: try pass.scanner(), separator: separatorByte, comment: commentByte)
        try parser.run(fieldNames: fieldNames, body)
    }

    /// The byte for a separator character.
    ///
    /// - Throws: `.invalidArgument` unless it is one ASCII character other than `"`, CR and LF.
    static func separatorByte(_ separator: Character?, source: String) throws(ImportError) -> UInt8? {
        guard let separator else { return nil }
        guard let ascii = separator.asciiValue, ascii != Byte.quote, ascii != Byte.lineFeed,
            ascii != Byte.carriageReturn
        else {
            throw ImportError(
                .invalidArgument, "the CSV separator must be one ASCII character other than a quote or a line break")
        }
        return ascii
    }
}
