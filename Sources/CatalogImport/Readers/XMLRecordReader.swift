import CatalogModel
import Foundation

/// Reads records from XML, streaming, on libxml2's push parser with SAX2 callbacks (no tree, no
/// Foundation objects per event).
///
/// ```swift
/// let reader = XMLRecordReader(fileURL: url, recordElement: "Produkt")
/// try reader.forEachRecord { record in print(record.values(of: "TitelText")) }
/// ```
///
/// ## Records and fields
/// Every element named ``recordElement`` is a record. When it is nil the reader finds it: the
/// first name that occurs twice among the root element's children (so `<feed><title/><item/>
/// <item/></feed>` gives `item`), or the root's first child when no name repeats; records are then
/// only the root's children of that name. A named record element matches at any depth.
///
/// Inside a record:
/// - each child element is a field named after it, with its text (entities and CDATA decoded,
///   whitespace kept exactly, text pieces joined); an empty element gives an empty value;
/// - a repeated child gives repeated fields of the same name, in document order;
/// - attributes of the record element are fields named after the attribute; attributes of a
///   child are `child@attribute`; they come first, in document order, followed by the
///   attributes an internal DTD declares with a default (`<!ATTLIST p kind CDATA "x">`). An
///   element with attributes and no text at all (`<img src="a.png"/>`) gives only its attribute
///   fields. Namespace declarations are attributes like any other (`xmlns:dc`, `child@xmlns`);
/// - `xml:lang` is not a field: it is the ``SourceField/language`` of the element's field and of
///   every field inside it (the nearest `xml:lang` wins), so translations can be told apart;
/// - deeper elements are flattened with `/` (`image/url`, `image/url@type`). An element that has
///   child elements gives no field of its own when its own text is just whitespace;
/// - mixed content: an element whose own text is not just whitespace gives one field with its
///   whole text, its inline children's text included in document order
///   (`<d>The <em>appstreamcli</em> tool</d>` is `d` = "The appstreamcli tool"), and its inline
///   children give no fields of their own;
/// - the record element's own text, when not just whitespace, is the field `#text` (with its
///   inline children's text, as for any mixed content);
/// - `<field name="x">…</field>` as a direct child of the record is the field `x` (the form
///   ``XMLRecordWriter`` uses for names that are not XML names);
/// - an element named like the record element *inside* a record is not a new record: it is an
///   ordinary child and flattens into the enclosing record (`item/title`).
///
/// Locations are where libxml2 reports the start tag was read (the end of the tag), lines and
/// columns from 1. Names keep their prefix as written: `dc:title` is a name like any other, and
/// a prefix nobody declared is not an error.
///
/// ## Safety and limits
/// The input must be UTF-8 (or US-ASCII); it is checked before libxml2 sees it, so a UTF-16 file,
/// Latin-1 bytes or an XML declaration naming another encoding give `.encoding` at the exact line
/// and column. External entities and DTDs are never loaded. A DTD that declares any entity
/// (internal or external, general or parameter) is refused with `.forbidden` ("DTD entity
/// declarations are not allowed") before the declaration reaches the parser, so entity
/// expansion attacks (billion laughs) and external entity reads (`SYSTEM "file:///etc/passwd"`)
/// fail at once; a reference to an undeclared entity is `.malformed`. An internal DTD's other
/// declarations (`<!ELEMENT>`, `<!ATTLIST>`, `<!NOTATION>`) are fine. Elements may nest at most
/// ``maxDepth`` (256) levels deep, the root counting as one, and a record may hold at most 64 MiB
/// of text and attribute values (both `.tooLarge`, at the line and column). Memory stays linear
/// in the largest record, whatever the nesting.
///
/// With ``recordElement`` nil the reader makes a first, short pass to find the element (it stops
/// at the first repeated child), then the real pass.
public struct XMLRecordReader: RecordSource {
    private let input: ReaderInput
    /// The record element's name, or nil to detect it.
    public var recordElement: String?
    /// Called with the number of input bytes consumed so far after every read (256 KiB, the
    /// parser's chunk size), and once at the end.
    public var progress: ((Int64) -> Void)?

    /// The deepest nesting accepted, the root element counting as 1.
    public static let maxDepth = XMLRecordCollector.maxDepth

    /// Creates a reader for an XML file.
    ///
    /// - Parameters:
    ///   - fileURL: the file to read (it is opened by ``read(cancellation:fieldNames:_:)``).
    ///   - recordElement: the record element's name; nil detects it.
    ///   - sourceName: the name used in error locations; the file's path when nil (give the URL
    ///     for a downloaded file).
    ///   - progress: called every so often with the number of bytes consumed.
    public init(
        fileURL: URL, recordElement: String? = nil, sourceName: String? = nil, progress: ((Int64) -> Void)? = nil
    ) {
        self.input = .file(fileURL, name: sourceName ?? fileURL.path)
        self.recordElement = recordElement
        self.progress = progress
    }

    /// Creates a reader over XML in memory (tests, small inputs). It is streamed to libxml2 in
    /// chunks the same way as a file.
    ///
    /// - Parameters:
    ///   - data: the UTF-8 bytes.
    ///   - sourceName: the name used in error locations.
    ///   - recordElement: the record element's name; nil detects it.
    ///   - progress: called every so often with the number of bytes consumed.
    public init(data: Data, sourceName: String, recordElement: String? = nil, progress: ((Int64) -> Void)? = nil) {
        self.input = .data(data, name: sourceName)
        self.recordElement = recordElement
        self.progress = progress
    }

    /// Calls `body` with each record in document order.
    ///
    /// - Returns: the records read and the document's shape (root element and its attributes,
    ///   record element, record attributes), so an export can write the same shape.
    /// - Throws: an ``ImportError`` (`.malformed`, `.encoding`, `.forbidden`, `.empty`, `.tooLarge`,
    ///   `.io`) with the line and column of the problem, ``ReadCancellation/Cancelled``, or whatever
    ///   `body` throws. Records before the problem have already been delivered.
    public func read(
        cancellation: ReadCancellation, fieldNames: ([String]) -> Void, _ body: (SourceRecord) throws -> Void
    ) throws -> ReadSummary {
        try ReadingPass.read(
            input, progress: progress, cancellation: cancellation, fieldNames: fieldNames, body, parse: readRecords)
    }

    /// The XML part of a read.
    private func readRecords(_ pass: ReadingPass, fieldNames: ([String]) -> Void, _ body: (SourceRecord) throws -> Void)
        throws
    {
        let mode: XMLRecordCollector.Mode
        let element: String
        if let recordElement {
            element = recordElement
            mode = .collect(element: recordElement, depth: nil)
        } else {
            element = try detectRecordElement(pass)
            mode = .collect(element: element, depth: 2)
        }
        try withoutActuallyEscaping(body) { body in
            let collector = XMLRecordCollector(mode: mode, sourceName: pass.name, body: body)
            let stream = try parse(pass, with: collector, reportsProgress: true)
            if let root = collector.rootName {
                pass.shape = XMLDocumentShape(
                    rootElement: root, rootAttributes: collector.rootAttributes, recordElement: element,
                    recordAttributes: collector.recordAttributeNames)
            }
            pass.notes = collector.notes
            guard collector.recordCount == 0 else { return }
            guard case .collect(let element, _) = mode else { return }
            throw noRecords(looking: element, collector: collector, stream: stream)
        }
    }

    /// The first pass for a nil ``recordElement``.
    private func detectRecordElement(_ pass: ReadingPass) throws -> String {
        let collector = XMLRecordCollector(mode: .detect, sourceName: pass.name, body: nil)
        let stream = try parse(pass, with: collector, reportsProgress: false)
        if let element = collector.detectedElement ?? collector.firstChild { return element }
        throw noRecords(looking: nil, collector: collector, stream: stream)
    }

    /// Runs one parse with `collector` receiving the events.
    ///
    /// - Throws: what `body` threw, else the first problem found.
    private func parse(_ pass: ReadingPass, with collector: XMLRecordCollector, reportsProgress: Bool) throws
        -> XMLInputStream
    {
        let stream = XMLInputStream(source: try pass.open(), progress: reportsProgress ? pass.bytesReporter : nil)
        let parser = try LibXML2PushParser(collector: collector, sourceName: input.name)
        collector.parser = parser
        defer { collector.parser = nil }
        let capacity = Self.chunkSize
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var streamFailed = false
        while !collector.stopped {
            let count = stream.read(buffer, maxLength: capacity)
            if count < 0 {
                streamFailed = true
                break
            }
            parser.parse(buffer, count: count, terminate: count == 0)
            if count == 0 { break }
        }
        if let error = collector.bodyError { throw error }
        if collector.rootName == nil, !stream.sawContent, stream.failure == nil {
            // Only whitespace (libxml2 calls that a premature end).
            throw ImportError(
                .empty, "no records found: the document is empty",
                at: SourceLocation(source: input.name, line: 1, column: 1))
        }
        if let failure = collector.failure { throw failure }
        if let failure = stream.failure { throw failure }
        if !streamFailed, !parser.wellFormed, collector.detectedElement == nil {
            let location = SourceLocation(source: input.name, line: parser.line, column: parser.column)
            throw LibXML2Error.importError(
                code: parser.errorNumber, at: location, openElement: nil, rootClosed: collector.rootClosed)
        }
        return stream
    }

    /// Bytes handed to libxml2 per call.
    static let chunkSize = 256 * 1024

    /// The error for a document without records.
    private func noRecords(looking element: String?, collector: XMLRecordCollector, stream: XMLInputStream)
        -> ImportError
    {
        let location = SourceLocation(source: input.name, line: 1, column: 1)
        guard let root = collector.rootName else {
            if stream.sawContent {
                return ImportError(.malformed, "no root element: the document must contain an element", at: location)
            }
            return ImportError(.empty, "no records found: the document is empty", at: location)
        }
        guard let element else {
            return ImportError(
                .empty, "no records found: the root element <\(root)> has no child elements", at: location)
        }
        let seen = collector.seenNames.map { "<\($0)>" }.joined(separator: ", ")
        return ImportError(.empty, "no records found: no <\(element)> elements (elements seen: \(seen))", at: location)
    }
}
