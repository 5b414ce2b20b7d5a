import CatalogModel

/// The scaffold the CSV, JSON and XML readers share; each format supplies only its parsing.
///
/// One read of a text source is one `ReadingPass`: it opens the input (once per parse, for
/// formats that parse twice), counts the bytes read and reports them as progress, counts the
/// records handed on, asks the read's ``ReadCancellation`` between records, keeps what the
/// format learned (declared field names, an XML document's shape) and returns all of it as the
/// read's ``ReadSummary``. The encoding check (byte order marks, UTF-8) and line and column
/// counting are the scanners' (``ByteScanner``, ``XMLInputStream``), on ``UTF8Validation`` and
/// ``LinePosition``.
///
/// ```swift
/// public func read(cancellation: ReadCancellation, fieldNames: …, _ body: …) throws -> ReadSummary {
///     try ReadingPass.read(input, progress: progress, cancellation: cancellation, fieldNames: fieldNames, body) {
///         pass, fieldNames, body in try MyParser(scanner: pass.scanner()).run(fieldNames, body)
///     }
/// }
/// ```
///
/// An instance serves one read on one thread.
final class ReadingPass {
    /// The name used in error locations.
    let name: String
    /// The XML document's shape, when the format found one.
    var shape: XMLDocumentShape?
    /// The reader's notes for the user.
    var notes: [String] = []
    private let input: ReaderInput
    private let cancellation: ReadCancellation
    private let progress: ((Int64) -> Void)?
    private var records = 0
    private var bytes: Int64 = 0
    private var fieldNames: [String] = []

    /// Records handed on between two questions to the cancellation.
    static let cancellationInterval = 64

    private init(input: ReaderInput, progress: ((Int64) -> Void)?, cancellation: ReadCancellation) {
        self.name = input.name
        self.input = input
        self.progress = progress
        self.cancellation = cancellation
    }

    /// Runs one read of `input`: `parse` gets the pass, the field-name callback and the record
    /// callback (which counts records and asks `cancellation`), and the summary is returned.
    ///
    /// - Throws: what `parse` throws, ``ReadCancellation/Cancelled`` when cancelled.
    static func read(
        _ input: ReaderInput, progress: ((Int64) -> Void)?, cancellation: ReadCancellation,
        fieldNames: ([String]) -> Void, _ body: (SourceRecord) throws -> Void,
        parse: (ReadingPass, _ fieldNames: ([String]) -> Void, _ body: (SourceRecord) throws -> Void) throws -> Void
    ) throws -> ReadSummary {
        let pass = ReadingPass(input: input, progress: progress, cancellation: cancellation)
        try cancellation.check()
        try withoutActuallyEscaping(fieldNames) { fieldNames in
            try withoutActuallyEscaping(body) { body in
                try parse(
                    pass,
                    { names in
                        pass.fieldNames = names
                        fieldNames(names)
                    },
                    { record in try pass.deliver(record, to: body) })
            }
        }
        return ReadSummary(
            records: pass.records, bytes: pass.bytes, fieldNames: pass.fieldNames, shape: pass.shape,
            notes: pass.notes)
    }

    /// Hands `record` to `body`, asking the cancellation every ``cancellationInterval`` records.
    @inline(__always)
    private func deliver(_ record: SourceRecord, to body: (SourceRecord) throws -> Void) throws {
        if records % Self.cancellationInterval == 0 { try cancellation.check() }
        records += 1
        try body(record)
    }

    /// Opens the input for one parse.
    ///
    /// - Throws: `.io` when the file cannot be opened.
    func open() throws(ImportError) -> ByteSource {
        try input.open()
    }

    /// A chunked, validated scanner over a fresh opening of the input, reporting progress unless
    /// `reportsProgress` is false (a format's second parse).
    func scanner(reportsProgress: Bool = true) throws(ImportError) -> ByteScanner {
        ByteScanner(source: try open(), progress: reportsProgress ? bytesReporter : nil)
    }

    /// The callback a scanner calls with the bytes it has read so far.
    var bytesReporter: (Int64) -> Void {
        { [unowned self] total in
            bytes = max(bytes, total)
            progress?(total)
        }
    }

    /// A location in this input.
    func location(line: Int = 0, column: Int = 0) -> SourceLocation {
        SourceLocation(source: name, line: line, column: column)
    }
}
