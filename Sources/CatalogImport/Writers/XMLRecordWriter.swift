import CatalogModel

/// Writes records as XML that ``XMLRecordReader`` reads back to the same records.
///
/// ```swift
/// var writer = XMLRecordWriter(rootElement: "sequenzer", recordElement: "Produkt")
/// let xml = try writer.data(for: records)
/// ```
///
/// ```xml
/// <?xml version="1.0" encoding="UTF-8"?>
/// <sequenzer>
///   <Produkt id="7">
///     <TitelText>Klangwerk</TitelText>
///     <Kategorie>Windows</Kategorie>
///     <image><url>a.png</url></image>
///   </Produkt>
/// </sequenzer>
/// ```
///
/// Each field becomes a child element of the record, in the record's field order:
/// - a repeated name gives repeated elements;
/// - names in ``recordAttributes`` become attributes of the record element (the first value; any
///   further values of that name become child elements);
/// - `child@attribute` becomes an attribute of the child element (with the text of a following
///   `child` field, if any, as its content);
/// - `/`-flattened names are nested again (`image/url` → `<image><url>…</url></image>`);
///   consecutive fields with the same prefix share the outer element. An element never gets both
///   child elements and text (the reader would read that as mixed content): text after children
///   starts a new element of the same name;
/// - a field's ``SourceField/language`` is the element's `xml:lang`;
/// - `#text` is the record element's own text when the record has no child elements, else it is
///   written as `<field name="#text">`;
/// - a name that is not an XML name (`Product Name`, `1st`, or a prefix the root does not
///   declare, `a:b`), or whose first segment is `field`, is written as
///   `<field name="Product Name">…</field>`, which the reader reads back under the original name.
///   Prefixed names (`dc:creator`) are written as they are when ``rootAttributes`` declares the
///   prefix (`xmlns:dc`).
///
/// Numbers and booleans are written as their text, `null` as an empty element, an empty list not
/// at all. With a ``definition`` the document starts with `<?catalog-definition {…}?>` (the
/// definition as JSON), so importing the file into a new catalog needs no mapping.
///
/// Text is escaped (`&`, `<`, `>`; in attributes also `"`, TAB and LF; CR everywhere as `&#13;`
/// so it survives line-end normalization). Characters XML 1.0 cannot represent at all — control
/// characters other than TAB, LF and CR, and U+FFFE/U+FFFF — are dropped, so the document is
/// always well-formed; that is the one loss. Whitespace is written exactly: records are indented,
/// but nested elements and records with their own text are written on one line so no whitespace
/// is added to any value. An element with attributes and an empty value (`a@x` plus `a = ""`)
/// reads back without the empty `a` field.
public struct XMLRecordWriter: RecordWriter {
    /// The document element's name.
    public var rootElement: String
    /// The name of each record's element.
    public var recordElement: String
    /// Field names written as attributes of the record element.
    public var recordAttributes: Set<String>
    /// Namespace declarations and attributes of the root element, in order.
    public var rootAttributes: [XMLAttribute]
    /// A definition to embed (`<?catalog-definition …?>`), or nil.
    public var definition: CatalogDefinition?
    private var prefixes: Set<String> = ["xml"]

    /// Creates a writer.
    ///
    /// - Parameters:
    ///   - rootElement: the document element's name (an XML name).
    ///   - recordElement: each record's element name (an XML name).
    ///   - recordAttributes: field names to write as attributes of the record element.
    ///   - rootAttributes: attributes of the root element (namespace declarations among them).
    ///   - definition: a catalog definition to embed at the top of the document.
    public init(
        rootElement: String = "records", recordElement: String = "record", recordAttributes: Set<String> = [],
        rootAttributes: [XMLAttribute] = [], definition: CatalogDefinition? = nil
    ) {
        self.rootElement = rootElement
        self.recordElement = recordElement
        self.recordAttributes = recordAttributes
        self.rootAttributes = rootAttributes
        self.definition = definition
    }

    /// Writes the XML declaration, the embedded definition and the root's start tag.
    ///
    /// - Throws: `.invalidArgument` when ``rootElement`` or ``recordElement`` is not an XML name,
    ///   or a root attribute's name is not one.
    public mutating func writeStart(to sink: inout some ByteSink) throws(ImportError) {
        prefixes = ["xml"]
        for attribute in rootAttributes where attribute.name.hasPrefix("xmlns:") {
            prefixes.insert(String(attribute.name.dropFirst(6)))
        }
        for name in [rootElement, recordElement] where !isName(name) {
            throw ImportError(.invalidArgument, "\"\(name)\" is not a valid XML element name")
        }
        var out = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".utf8)
        if let definition {
            out.append(contentsOf: "<?\(EmbeddedDefinition.marker) ".utf8)
            out.append(contentsOf: EmbeddedDefinition.json(definition).utf8)
            out.append(contentsOf: "?>\n".utf8)
        }
        out.append(0x3C)
        out.append(contentsOf: rootElement.utf8)
        for attribute in rootAttributes {
            let declaration = attribute.name.hasPrefix("xmlns:") && XMLText.isName(String(attribute.name.dropFirst(6)))
            guard attribute.name == "xmlns" || declaration || isName(attribute.name) else {
                throw ImportError(.invalidArgument, "\"\(attribute.name)\" is not a valid XML attribute name")
            }
            out.append(0x20)
            out.append(contentsOf: attribute.name.utf8)
            out.append(contentsOf: "=\"".utf8)
            XMLText.appendAttribute(attribute.value, to: &out)
            out.append(0x22)
        }
        out.append(contentsOf: ">\n".utf8)
        try sink.write(out)
    }

    /// Whether `name` can be written as an element or attribute name: an XML name, or
    /// `prefix:local` with a declared prefix.
    private func isName(_ name: String) -> Bool {
        XMLText.isName(name) || XMLText.isQualifiedName(name, prefixes: prefixes)
    }

    /// Writes one record element.
    public mutating func write(_ record: SourceRecord, to sink: inout some ByteSink) throws(ImportError) {
        let element = tree(for: record)
        var out: [UInt8] = []
        out.reserveCapacity(256)
        out.append(contentsOf: "  ".utf8)
        let inline = element.content.contains { if case .text = $0 { true } else { false } }
        if inline || element.content.isEmpty {
            element.serialize(into: &out)
        } else {
            element.serializeStartTag(into: &out)
            for case .element(let child) in element.content {
                out.append(contentsOf: "\n    ".utf8)
                child.serialize(into: &out)
            }
            out.append(contentsOf: "\n  </".utf8)
            out.append(contentsOf: element.name.utf8)
            out.append(0x3E)
        }
        out.append(0x0A)
        try sink.write(out)
    }

    /// Writes the root's end tag and flushes the sink.
    public mutating func writeEnd(to sink: inout some ByteSink) throws(ImportError) {
        try sink.write(Array("</\(rootElement)>\n".utf8))
        try sink.flush()
    }

    // MARK: - Building the element tree

    /// The record element with its fields nested back into elements.
    private func tree(for record: SourceRecord) -> XMLNode {
        let root = XMLNode(name: recordElement)
        var usedAttributes: Set<String> = []
        let hasElements = record.fields.contains {
            $0.name != XMLRecordCollector.recordTextField && !recordAttributes.contains($0.name)
        }
        for field in record.fields where field.kind != .emptyList {
            let name = field.name
            let value = field.value
            if recordAttributes.contains(name), isName(name), field.language == nil,
                usedAttributes.insert(name).inserted
            {
                root.attributes.append((name, value))
            } else if name == XMLRecordCollector.recordTextField, !hasElements, field.language == nil {
                root.content.append(.text(value))
            } else if name != XMLRecordCollector.recordTextField, let path = FieldPath(name, isName: isName) {
                place(value, language: field.language, at: path, in: root)
            } else {
                let fallback = XMLNode(name: "field")
                fallback.attributes.append(("name", name))
                if let language = field.language { fallback.attributes.append(("xml:lang", language)) }
                fallback.content.append(.text(value))
                fallback.hasText = true
                root.content.append(.element(fallback))
            }
        }
        return root
    }

    /// Puts a value at `path` under `root`, reusing the last open element where the reader's
    /// order of fields allows it (attributes first, then children or the element's own text).
    private func place(_ value: String, language: String?, at path: FieldPath, in root: XMLNode) {
        var container = root
        for segment in path.elements.dropLast() {
            if let last = container.lastElement, last.name == segment, !last.hasText, last.language == nil {
                container = last
            } else {
                let node = XMLNode(name: segment)
                container.content.append(.element(node))
                container = node
            }
        }
        let name = path.elements[path.elements.count - 1]
        let last = container.lastElement.flatMap { $0.name == name && !$0.hasText ? $0 : nil }
        if let attribute = path.attribute {
            if let last, last.content.isEmpty, last.language == nil,
                !last.attributes.contains(where: { $0.0 == attribute })
            {
                last.attributes.append((attribute, value))
            } else {
                let node = XMLNode(name: name)
                node.attributes.append((attribute, value))
                container.content.append(.element(node))
            }
        } else if let last, !last.attributes.isEmpty, last.content.isEmpty, last.language == nil {
            last.content.append(.text(value))
            last.hasText = true
            last.language = language
        } else {
            let node = XMLNode(name: name)
            node.content.append(.text(value))
            node.hasText = true
            node.language = language
            container.content.append(.element(node))
        }
    }
}

/// A field name parsed as `a/b/c@attribute`, with every part an XML name.
private struct FieldPath {
    var elements: [String]
    var attribute: String?

    /// Nil when the name cannot be written structurally (empty parts, several `@`, a part that is
    /// not an XML name, or a first part `field`, which the reader treats specially).
    init?(_ name: String, isName: (String) -> Bool) {
        var segments = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let last = segments.last else { return nil }
        let pieces = last.split(separator: "@", omittingEmptySubsequences: false)
        guard pieces.count <= 2 else { return nil }
        segments[segments.count - 1] = String(pieces[0])
        attribute = pieces.count == 2 ? String(pieces[1]) : nil
        guard segments.allSatisfy(isName), attribute.map(isName) ?? true, segments[0] != "field",
            attribute.map({ $0 != "xml:lang" }) ?? true
        else { return nil }
        elements = segments
    }
}

/// An element being built for one record.
private final class XMLNode {
    enum Content {
        case text(String)
        case element(XMLNode)
    }

    let name: String
    var attributes: [(String, String)] = []
    var content: [Content] = []
    /// Whether the element has received its own text (after which the reader would have closed it).
    var hasText = false
    /// Its `xml:lang`.
    var language: String?

    init(name: String) { self.name = name }

    var lastElement: XMLNode? {
        if case .element(let node) = content.last { return node }
        return nil
    }

    func serializeStartTag(into out: inout [UInt8]) {
        out.append(0x3C)
        out.append(contentsOf: name.utf8)
        for (attribute, value) in attributes {
            out.append(0x20)
            out.append(contentsOf: attribute.utf8)
            out.append(contentsOf: "=\"".utf8)
            XMLText.appendAttribute(value, to: &out)
            out.append(0x22)
        }
        if let language {
            out.append(contentsOf: " xml:lang=\"".utf8)
            XMLText.appendAttribute(language, to: &out)
            out.append(0x22)
        }
        out.append(0x3E)
    }

    /// The element on one line, adding no whitespace.
    func serialize(into out: inout [UInt8]) {
        if content.isEmpty, !hasText {
            serializeStartTag(into: &out)
            out.removeLast()
            out.append(contentsOf: "/>".utf8)
            return
        }
        serializeStartTag(into: &out)
        for item in content {
            switch item {
            case .text(let text): XMLText.appendContent(text, to: &out)
            case .element(let child): child.serialize(into: &out)
            }
        }
        out.append(contentsOf: "</".utf8)
        out.append(contentsOf: name.utf8)
        out.append(0x3E)
    }
}
