/// Reads a catalog's XML feed (`/catalogs/{id}/feed.xml`) into source records, the way the
/// server's importer reads XML: every record element under the root is a record; its attributes
/// and child elements are fields (`child@attribute` for a child's attributes, `parent/child` for
/// deeper elements, `<field name="…">` for names that are not XML names, a mixed element's whole
/// text); `xml:lang` is the language of a text. The `<?catalog-definition …?>` instruction the
/// server writes says how the records map.
///
/// A small, strict reader of the XML the server writes, in Swift (no libxml2 on the client):
/// elements, attributes, text, CDATA, comments, processing instructions and the predefined and
/// numeric character references. A document type declaration is refused: the server never writes
/// one, and refusing it keeps entity tricks out.
struct FeedReader {
    /// A failure, with where it happened.
    struct Failure: Error, CustomStringConvertible {
        var message: String
        var line: Int
        var column: Int
        var description: String { "feed.xml:\(line):\(column): \(message)" }
    }

    /// What a feed holds.
    struct Feed {
        /// The definition the feed embeds, as JSON, if it has one.
        var definitionJSON: String?
        /// The root element's name.
        var root: String
        /// The records, in document order.
        var records: [SourceRecord]
    }

    /// The most elements open at once.
    static let maxDepth = 256

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Reads the whole feed; records are the root's children named `recordElement` (nil: named
    /// like the root's first child).
    static func read(_ bytes: [UInt8], recordElement: String? = nil) throws(Failure) -> Feed {
        var reader = FeedReader(bytes)
        return try reader.document(recordElement: recordElement)
    }

    // MARK: - Document

    private struct Frame {
        var name: String
        /// The field path; nil for the root and the record element.
        var path: String?
        var fieldStart: Int
        var textStart: Int
        var hasChildren = false
        var directText = false
        var hasAttributes = false
        var language: String?
        var location: SourceLocation
    }

    private mutating func document(recordElement: String?) throws(Failure) -> Feed {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        var definition: String?
        var root: String?
        var records: [SourceRecord] = []
        var recordName = recordElement
        var stack: [Frame] = []
        var fields: [SourceField] = []
        var text: [UInt8] = []
        var inRecord = false
        var recordLocation = SourceLocation()
        var rootClosed = false

        while index < bytes.count {
            if bytes[index] != 0x3C {
                let start = index
                let chunk = try characterData()
                if inRecord {
                    text += chunk
                    if !chunk.allSatisfy(Self.isSpace) { stack[stack.count - 1].directText = true }
                } else if !chunk.allSatisfy(Self.isSpace) {
                    throw failure("text outside a record", at: start)
                }
                continue
            }
            if starts("<?") {
                let (target, content) = try processingInstruction()
                if target == "catalog-definition", definition == nil, root == nil { definition = content }
                continue
            }
            if starts("<!--") {
                try skip(past: "-->", what: "comment")
                continue
            }
            if starts("<![CDATA[") {
                let start = index
                index += 9
                let end = try find("]]>", what: "CDATA section")
                let chunk = Array(bytes[index..<end])
                advance(to: end + 3)
                guard inRecord else { throw failure("text outside a record", at: start) }
                text += Self.normalizingLineEnds(chunk)
                if !chunk.allSatisfy(Self.isSpace) { stack[stack.count - 1].directText = true }
                continue
            }
            if starts("<!") { throw failure("document type declarations are not allowed", at: index) }
            if starts("</") {
                let start = index
                index += 2
                let name = try self.name()
                skipSpace()
                try expect(0x3E, "'>'")
                guard let frame = stack.popLast(), frame.name == name else {
                    throw failure("</\(name)> does not close the open element", at: start)
                }
                if stack.isEmpty { rootClosed = true }
                if inRecord {
                    if frame.path == nil {
                        // The record ends.
                        inRecord = false
                        if frame.directText {
                            if frame.hasChildren { fields.removeSubrange(frame.fieldStart..<fields.count) }
                            fields.append(
                                SourceField(
                                    name: "#text", value: String(decoding: text, as: UTF8.self),
                                    language: frame.language, location: recordLocation))
                        }
                        records.append(SourceRecord(fields: fields, location: recordLocation))
                        fields = []
                        text = []
                    } else if !frame.hasChildren {
                        if !(text.count == frame.textStart && frame.hasAttributes) {
                            fields.append(
                                SourceField(
                                    name: frame.path!, value: String(decoding: text[frame.textStart...], as: UTF8.self),
                                    language: frame.language, location: frame.location))
                        }
                    } else if frame.directText {
                        fields.removeSubrange(frame.fieldStart..<fields.count)
                        fields.append(
                            SourceField(
                                name: frame.path!, value: String(decoding: text[frame.textStart...], as: UTF8.self),
                                language: frame.language, location: frame.location))
                    }
                }
                continue
            }
            // A start tag.
            let start = index
            let location = self.location(at: start)
            index += 1
            let name = try self.name()
            let (attributes, empty) = try self.attributes()
            if rootClosed { throw failure("content after the root element", at: start) }
            guard stack.count < Self.maxDepth else {
                throw failure("elements nested deeper than \(Self.maxDepth) levels", at: start)
            }
            var language = stack.last?.language
            var ownAttributes = attributes
            if let position = ownAttributes.firstIndex(where: { $0.name == "xml:lang" }) {
                language = ownAttributes.remove(at: position).value
            }
            var frame = Frame(
                name: name, path: nil, fieldStart: fields.count, textStart: text.count, language: language,
                location: location)
            if stack.isEmpty {
                root = name
            } else if !inRecord {
                if recordName == nil, stack.count == 1 { recordName = name }
                if stack.count == 1, name == recordName {
                    inRecord = true
                    recordLocation = location
                    for attribute in ownAttributes {
                        fields.append(SourceField(name: attribute.name, value: attribute.value, location: location))
                    }
                    frame.fieldStart = fields.count
                    frame.hasAttributes = !ownAttributes.isEmpty
                    frame.language = language
                } else {
                    throw failure("<\(name)> where a <\(recordName ?? "record")> record was expected", at: start)
                }
            } else {
                let parent = stack.count - 1
                stack[parent].hasChildren = true
                if stack[parent].path == nil, name == "field", attributes.count == 1, attributes[0].name == "name" {
                    frame.path = attributes[0].value
                } else {
                    let path = stack[parent].path.map { $0 + "/" + name } ?? name
                    frame.path = path
                    for attribute in ownAttributes {
                        fields.append(
                            SourceField(name: path + "@" + attribute.name, value: attribute.value, location: location))
                    }
                    frame.hasAttributes = !ownAttributes.isEmpty
                }
                frame.fieldStart = fields.count
            }
            stack.append(frame)
            if empty {
                // `<a/>` is `<a></a>`.
                closeEmpty(&stack, &fields, &text, &inRecord, &records, recordLocation: recordLocation)
                if stack.isEmpty { rootClosed = true }
            }
        }
        guard let root else { throw failure("the feed has no root element", at: index) }
        guard stack.isEmpty else { throw failure("the feed ends inside <\(stack.last!.name)>", at: index) }
        return Feed(definitionJSON: definition, root: root, records: records)
    }

    /// Ends the element just opened by an empty-element tag.
    private func closeEmpty(
        _ stack: inout [Frame], _ fields: inout [SourceField], _ text: inout [UInt8], _ inRecord: inout Bool,
        _ records: inout [SourceRecord], recordLocation: SourceLocation
    ) {
        guard let frame = stack.popLast() else { return }
        guard inRecord else { return }
        if frame.path == nil {
            inRecord = false
            records.append(SourceRecord(fields: fields, location: recordLocation))
            fields = []
            text = []
        } else if !frame.hasAttributes {
            fields.append(SourceField(name: frame.path!, value: "", language: frame.language, location: frame.location))
        }
    }

    // MARK: - Pieces

    private mutating func characterData() throws(Failure) -> [UInt8] {
        var out: [UInt8] = []
        while index < bytes.count, bytes[index] != 0x3C {
            let byte = bytes[index]
            if byte == 0x26 {
                out += try reference()
                continue
            }
            if byte == 0x0D {
                out.append(0x0A)
                index += 1
                if index < bytes.count, bytes[index] == 0x0A { index += 1 }
                newLine()
                continue
            }
            if byte == 0x0A {
                index += 1
                newLine()
                out.append(0x0A)
                continue
            }
            out.append(byte)
            index += 1
        }
        return out
    }

    /// At `&`: a character or predefined entity reference.
    private mutating func reference() throws(Failure) -> [UInt8] {
        let start = index
        index += 1
        guard let end = bytes[index...].prefix(12).firstIndex(of: 0x3B) else {
            throw failure("an unterminated reference", at: start)
        }
        let name = String(decoding: bytes[index..<end], as: UTF8.self)
        index = end + 1
        switch name {
        case "lt": return [0x3C]
        case "gt": return [0x3E]
        case "amp": return [0x26]
        case "quot": return [0x22]
        case "apos": return [0x27]
        default:
            var value: UInt32?
            if name.hasPrefix("#x") {
                value = UInt32(name.dropFirst(2), radix: 16)
            } else if name.hasPrefix("#") {
                value = UInt32(name.dropFirst(), radix: 10)
            }
            guard let value, let scalar = Unicode.Scalar(value), value != 0 else {
                throw failure("reference to an undeclared entity &\(name);", at: start)
            }
            return Array(String(Character(scalar)).utf8)
        }
    }

    private mutating func name() throws(Failure) -> String {
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if Self.isSpace(byte) || byte == 0x3E || byte == 0x2F || byte == 0x3D || byte == 0x3C || byte == 0x22
                || byte == 0x27
            {
                break
            }
            index += 1
        }
        guard index > start else { throw failure("a name was expected", at: start) }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// A start tag's attributes up to its `>` or `/>`.
    private mutating func attributes() throws(Failure) -> ([(name: String, value: String)], Bool) {
        var attributes: [(name: String, value: String)] = []
        while true {
            skipSpace()
            guard index < bytes.count else { throw failure("the feed ends inside a tag", at: index) }
            if bytes[index] == 0x3E {
                index += 1
                return (attributes, false)
            }
            if starts("/>") {
                index += 2
                return (attributes, true)
            }
            let at = index
            let name = try self.name()
            skipSpace()
            try expect(0x3D, "'='")
            skipSpace()
            guard index < bytes.count, bytes[index] == 0x22 || bytes[index] == 0x27 else {
                throw failure("an attribute value must be quoted", at: index)
            }
            let quote = bytes[index]
            index += 1
            var value: [UInt8] = []
            while true {
                guard index < bytes.count else { throw failure("an unterminated attribute value", at: at) }
                let byte = bytes[index]
                if byte == quote {
                    index += 1
                    break
                }
                if byte == 0x3C { throw failure("'<' in an attribute value", at: index) }
                if byte == 0x26 {
                    value += try reference()
                    continue
                }
                if byte == 0x0A { newLineAfter() }
                // Literal whitespace in attribute values is normalized to spaces (references are not).
                value.append(byte == 0x09 || byte == 0x0A || byte == 0x0D ? 0x20 : byte)
                index += 1
            }
            guard !attributes.contains(where: { $0.name == name }) else {
                throw failure("the attribute \(name) appears twice", at: at)
            }
            attributes.append((name, String(decoding: value, as: UTF8.self)))
        }
    }

    private mutating func processingInstruction() throws(Failure) -> (String, String) {
        index += 2
        let target = try name()
        let end = try find("?>", what: "processing instruction")
        let content = String(decoding: bytes[index..<end], as: UTF8.self)
        advance(to: end + 2)
        return (target, content.drop(while: { $0 == " " }).description)
    }

    private mutating func skip(past terminator: String, what: String) throws(Failure) {
        let end = try find(terminator, what: what)
        advance(to: end + terminator.utf8.count)
    }

    /// Where `terminator` starts from the current index.
    private func find(_ terminator: String, what: String) throws(Failure) -> Int {
        let needle = Array(terminator.utf8)
        var position = index
        while position + needle.count <= bytes.count {
            if bytes[position] == needle[0], bytes[position..<(position + needle.count)].elementsEqual(needle) {
                return position
            }
            position += 1
        }
        throw failure("an unterminated \(what)", at: index)
    }

    /// Moves to `target`, counting lines on the way.
    private mutating func advance(to target: Int) {
        while index < target {
            if bytes[index] == 0x0A {
                index += 1
                newLine()
            } else {
                index += 1
            }
        }
    }

    private func starts(_ text: String) -> Bool {
        let needle = text.utf8
        return bytes.count - index >= needle.count && bytes[index..<(index + needle.count)].elementsEqual(needle)
    }

    private mutating func skipSpace() {
        while index < bytes.count, Self.isSpace(bytes[index]) {
            if bytes[index] == 0x0A {
                index += 1
                newLine()
            } else {
                index += 1
            }
        }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(Failure) {
        guard index < bytes.count, bytes[index] == byte else { throw failure("\(what) was expected", at: index) }
        index += 1
    }

    private mutating func newLine() {
        line += 1
        lineStart = index
    }

    private mutating func newLineAfter() {
        line += 1
        lineStart = index + 1
    }

    private func location(at position: Int) -> SourceLocation {
        SourceLocation(source: "feed.xml", line: line, column: position - lineStart + 1)
    }

    private func failure(_ message: String, at position: Int) -> Failure {
        Failure(message: message, line: line, column: max(1, position - lineStart + 1))
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    static func normalizingLineEnds(_ chunk: [UInt8]) -> [UInt8] {
        guard chunk.contains(0x0D) else { return chunk }
        var out: [UInt8] = []
        var index = 0
        while index < chunk.count {
            if chunk[index] == 0x0D {
                out.append(0x0A)
                if index + 1 < chunk.count, chunk[index + 1] == 0x0A { index += 1 }
            } else {
                out.append(chunk[index])
            }
            index += 1
        }
        return out
    }
}
