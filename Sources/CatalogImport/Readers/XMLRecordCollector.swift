import CatalogModel
import Foundation
import FoundationXML

/// The `XMLParser` delegate behind ``XMLRecordReader``: turns parser events into records, or
/// (in detection mode) finds the record element.
///
/// Kept cheap per event: one small struct per open element inside a record, text appended in
/// place, locations read only at element starts. The hot properties skip dynamic exclusivity
/// checks (`@exclusivity(unchecked)`): the parser calls the delegate on one thread, one event at
/// a time, and no method hands out an `inout` access to them.
final class XMLRecordCollector: NSObject, XMLParserDelegate {
    /// What a parse is for.
    enum Mode {
        /// Find the first name repeated among the root's children, then stop.
        case detect
        /// Deliver every `element` as a record; `depth` restricts where it may occur (2 for an
        /// auto-detected element: the root's children), nil allows any depth.
        case collect(element: String, depth: Int?)
    }

    /// An element open inside the current record.
    private struct OpenElement {
        var path: String
        var text = ""
        var hasChildren = false
        var hasAttributes: Bool
        var location: SourceLocation
    }

    /// The most text one record may hold.
    static let maxRecordBytes = 64 * 1024 * 1024
    /// The field holding a record element's own text (when it is not just whitespace).
    static let recordTextField = "#text"

    private let mode: Mode
    private let sourceName: String
    private let body: ((SourceRecord) throws -> Void)?

    @exclusivity(unchecked) private var openNames: [String] = []
    /// The root element's name, once seen.
    private(set) var rootName: String?
    /// Whether the root element has ended.
    private(set) var rootClosed = false
    /// Distinct element names seen outside records, in order (at most 20), for messages.
    private(set) var seenNames: [String] = []
    private var seenSet: Set<String> = []

    @exclusivity(unchecked) private var inRecord = false
    @exclusivity(unchecked) private var recordFields: [SourceField] = []
    private var recordLocation = SourceLocation()
    @exclusivity(unchecked) private var recordText = ""
    @exclusivity(unchecked) private var recordBytes = 0
    @exclusivity(unchecked) private var stack: [OpenElement] = []
    private var fieldCapacity = 8
    /// Records delivered.
    private(set) var recordCount = 0

    /// Detection mode: the first name that repeated among the root's children.
    private(set) var detectedElement: String?
    /// Detection mode: the root's first child.
    private(set) var firstChild: String?
    private var rootChildren: Set<String> = []

    /// The first problem found (parse error, forbidden construct, limit), if any.
    private(set) var failure: ImportError?
    /// What `body` threw, if it did.
    private(set) var bodyError: (any Error)?

    /// Creates a delegate; `body` receives records in collect mode.
    init(mode: Mode, sourceName: String, body: ((SourceRecord) throws -> Void)?) {
        self.mode = mode
        self.sourceName = sourceName
        self.body = body
    }

    // MARK: - Elements

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        openNames.append(elementName)
        let depth = openNames.count
        if depth == 1 { rootName = elementName }
        if inRecord {
            startChild(elementName, attributes: attributeDict, parser: parser)
            return
        }
        switch mode {
        case .detect:
            note(elementName)
            guard depth == 2 else { return }
            if firstChild == nil { firstChild = elementName }
            if rootChildren.contains(elementName) {
                detectedElement = elementName
                parser.abortParsing()
            } else {
                rootChildren.insert(elementName)
            }
        case .collect(let element, let requiredDepth):
            guard elementName == element, requiredDepth == nil || requiredDepth == depth else {
                note(elementName)
                return
            }
            inRecord = true
            recordLocation = location(parser)
            recordFields.removeAll(keepingCapacity: true)
            recordFields.reserveCapacity(fieldCapacity)
            recordText = ""
            recordBytes = 0
            if !attributeDict.isEmpty {
                for (name, value) in attributeDict.sorted(by: { $0.key < $1.key }) {
                    recordFields.append(SourceField(name: name, value: value, location: recordLocation))
                }
            }
        }
    }

    /// An element inside a record: its path, its attributes as `path@attribute` fields.
    private func startChild(_ name: String, attributes: [String: String], parser: XMLParser) {
        let here = location(parser)
        var path: String
        var hasAttributes = !attributes.isEmpty
        if let last = stack.indices.last {
            stack[last].hasChildren = true
            path = stack[last].path + "/" + name
        } else if name == "field", attributes.count == 1, let named = attributes["name"] {
            // `<field name="x">` (what XMLRecordWriter writes for names that are not XML names)
            // stands for an element called x.
            path = named
            hasAttributes = false
        } else {
            path = name
        }
        if hasAttributes {
            for (attribute, value) in attributes.sorted(by: { $0.key < $1.key }) {
                recordFields.append(SourceField(name: path + "@" + attribute, value: value, location: here))
            }
        }
        stack.append(OpenElement(path: path, hasAttributes: hasAttributes, location: here))
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
    ) {
        openNames.removeLast()
        if openNames.isEmpty { rootClosed = true }
        guard inRecord else { return }
        if let element = stack.popLast() {
            if element.hasChildren {
                if !Self.isWhitespace(element.text) {
                    recordFields.append(
                        SourceField(name: element.path, value: element.text, location: element.location))
                }
            } else if !(element.text.isEmpty && element.hasAttributes) {
                recordFields.append(SourceField(name: element.path, value: element.text, location: element.location))
            }
            return
        }
        // The record element itself ends.
        inRecord = false
        if !Self.isWhitespace(recordText) {
            recordFields.append(SourceField(name: Self.recordTextField, value: recordText, location: recordLocation))
        }
        recordCount += 1
        fieldCapacity = max(fieldCapacity, recordFields.count)
        let record = SourceRecord(fields: recordFields, location: recordLocation)
        recordFields.removeAll(keepingCapacity: true)
        do {
            try body?(record)
        } catch {
            bodyError = error
            parser.abortParsing()
        }
    }

    // MARK: - Text

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard inRecord else { return }
        append(string, parser: parser)
    }

    func parser(_ parser: XMLParser, foundIgnorableWhitespace whitespaceString: String) {
        guard inRecord else { return }
        append(whitespaceString, parser: parser)
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard inRecord else { return }
        append(String(decoding: CDATABlock, as: UTF8.self), parser: parser)
    }

    @inline(__always)
    private func append(_ text: String, parser: XMLParser) {
        recordBytes += text.utf8.count
        if recordBytes > Self.maxRecordBytes {
            fail(
                ImportError(
                    .tooLarge, "a record holds more than \(Self.maxRecordBytes / (1024 * 1024)) MiB of text",
                    at: recordLocation),
                parser)
            return
        }
        if let last = stack.indices.last {
            stack[last].text += text
        } else {
            recordText += text
        }
    }

    // MARK: - Entities and errors

    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
        let field = inRecord ? stack.last?.path : nil
        fail(
            ImportError(.malformed, "reference to an undeclared entity &\(name);", at: location(parser), field: field),
            parser)
        return nil
    }

    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        failForbidden(parser)
    }

    func parser(
        _ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?
    ) {
        failForbidden(parser)
    }

    func parser(
        _ parser: XMLParser, foundUnparsedEntityDeclarationWithName name: String, publicID: String?,
        systemID: String?, notationName: String?
    ) {
        failForbidden(parser)
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard failure == nil, bodyError == nil, detectedElement == nil else { return }
        let code = (parseError as NSError).code
        guard !LibXML2Error.isIgnorable(code) else { return }
        var error = LibXML2Error.importError(
            code: code, at: location(parser), openElement: openNames.last, rootClosed: rootClosed)
        if inRecord { error.field = stack.last?.path }
        fail(error, parser)
    }

    private func failForbidden(_ parser: XMLParser) {
        fail(ImportError(.forbidden, "DTD entity declarations are not allowed", at: location(parser)), parser)
    }

    private func fail(_ error: ImportError, _ parser: XMLParser) {
        if failure == nil { failure = error }
        parser.abortParsing()
    }

    // MARK: - Helpers

    @inline(__always)
    private func location(_ parser: XMLParser) -> SourceLocation {
        SourceLocation(source: sourceName, line: parser.lineNumber, column: parser.columnNumber)
    }

    private func note(_ name: String) {
        if seenNames.count < 20, seenSet.insert(name).inserted { seenNames.append(name) }
    }

    /// Whether `text` is only XML whitespace (space, TAB, LF, CR); true when empty.
    private static func isWhitespace(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }
    }
}
