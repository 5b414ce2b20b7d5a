import CLibXML2
import CatalogModel

/// The SAX2 event target behind ``XMLRecordReader``: turns libxml2's callbacks into records, or
/// (in detection mode) finds the record element.
///
/// Cheap per event: names arrive as pointers into libxml2's name dictionary, which stay the same
/// for a name during a parse, so each name and each field path (`image/url`, `image@kind`) is
/// made into a Swift string once and then found by those pointers. Text is appended as bytes to
/// one buffer per record and becomes a string only when a field ends. The hot properties skip
/// dynamic exclusivity checks (`@exclusivity(unchecked)`): libxml2 calls back on one thread, one
/// event at a time, and no method hands out an `inout` access to them.
///
/// Memory is linear in the record: the open elements (at most ``maxDepth``), the record's fields
/// and its text. The name and path tables are emptied between records when they grow large.
final class XMLRecordCollector {
    /// What a parse is for.
    enum Mode {
        /// Find the first name repeated among the root's children, then stop.
        case detect
        /// Deliver every `element` as a record; `depth` restricts where it may occur (2 for an
        /// auto-detected element: the root's children), nil allows any depth.
        case collect(element: String, depth: Int?)
    }

    /// An element open inside the current record (the record element itself is the first).
    private struct Frame {
        /// Its field path (an index into `paths`); -1 for the record element.
        var path: Int32
        /// Where its descendants' fields start in `fields` (after its own attribute fields).
        var fieldStart: Int
        /// Where its text starts in `text`.
        var textStart: Int
        var hasChildren = false
        /// Whether some text directly inside it is not just whitespace (mixed content).
        var directText = false
        /// Where text directly inside it was only invisible characters (U+200B, U+FEFF, NBSP…),
        /// ignored unless it turns out to be mixed content.
        var strayLine = 0
        var strayColumn = 0
        var hasAttributes: Bool
        /// Its `xml:lang`, or the nearest ancestor's.
        var language: String?
        var line: Int
        var column: Int
    }

    /// The most text (and attribute values) one record may hold.
    static let maxRecordBytes = 64 * 1024 * 1024
    /// Elements may nest this deep, counting the root as 1.
    static let maxDepth = 256
    /// The field holding a record element's own text (when it is not just whitespace).
    static let recordTextField = "#text"
    /// Name and path tables are emptied between records beyond this many entries.
    private static let tableLimit = 50_000

    private let mode: Mode
    private let sourceName: String
    private let body: ((SourceRecord) throws -> Void)?
    /// The parser delivering events; set right after it is created.
    var parser: LibXML2PushParser?

    /// The names (ids into `nameTexts`) of the open elements, the root first.
    @exclusivity(unchecked) private var openNames: [Int32] = []
    /// The root element's name, once seen.
    private(set) var rootName: String?
    /// The root element's namespace declarations and attributes, in document order.
    private(set) var rootAttributes: [(name: String, value: String)] = []
    /// Whether the root element has ended.
    private(set) var rootClosed = false
    /// Distinct element names seen outside records, in order (at most 20), for messages.
    private(set) var seenNames: [String] = []
    private var seenSet: Set<String> = []
    /// Names of the record element's attributes, in order of first appearance (at most 1,000).
    private(set) var recordAttributeNames: [String] = []
    private var recordAttributeSet: Set<String> = []

    @exclusivity(unchecked) private var inRecord = false
    @exclusivity(unchecked) private var stack: [Frame] = []
    @exclusivity(unchecked) private var fields: [SourceField] = []
    @exclusivity(unchecked) private var text: [UInt8] = []
    @exclusivity(unchecked) private var attributeBytes = 0
    private var recordLocation = SourceLocation()
    private var fieldCapacity = 8
    /// Records delivered.
    private(set) var recordCount = 0
    /// Elements whose children had only invisible characters between them, and the first one.
    private var strayCount = 0
    private var strayNote: (location: SourceLocation, name: String)?
    /// The record element's name, for notes.
    private var recordElementName: String? {
        if case .collect(let element, _) = mode { return element }
        return nil
    }

    /// Name ids by libxml2's pointers: unprefixed names by their local name's pointer, prefixed
    /// ones in `prefixedNames`.
    @exclusivity(unchecked) private var names = DirectMappedCache()
    private var prefixedNames: [NamePointers: Int32] = [:]
    /// Each name id's text (`prefix:local` when prefixed).
    @exclusivity(unchecked) private var nameTexts: [String] = []
    /// Whether each name id is the record element's name.
    @exclusivity(unchecked) private var isRecordName: [Bool] = []
    @exclusivity(unchecked) private var paths: [String] = []
    @exclusivity(unchecked) private var pathIndex = DirectMappedCache()
    private var specialPaths: [String: Int32] = [:]

    /// Detection mode: the first name that repeated among the root's children.
    private(set) var detectedElement: String?
    /// Detection mode: the root's first child.
    private(set) var firstChild: String?
    private var rootChildren: Set<String> = []

    /// The first problem found (parse error, forbidden construct, limit), if any.
    private(set) var failure: ImportError?
    /// What `body` threw, if it did.
    private(set) var bodyError: (any Error)?
    /// Whether the parse was stopped (a failure, the body's error, or detection done).
    private(set) var stopped = false

    /// Creates a collector; `body` receives records in collect mode.
    init(mode: Mode, sourceName: String, body: ((SourceRecord) throws -> Void)?) {
        self.mode = mode
        self.sourceName = sourceName
        self.body = body
    }

    /// Runs `body` with the collector behind a callback's context pointer, without retaining it:
    /// the parse that makes the callbacks holds the collector for its whole duration.
    @inline(__always)
    static func with(_ context: UnsafeMutableRawPointer?, _ body: (XMLRecordCollector) -> Void) {
        guard let context else { return }
        Unmanaged<XMLRecordCollector>.fromOpaque(context)._withUnsafeGuaranteedRef(body)
    }

    // MARK: - Elements

    func startElement(
        localname: UnsafePointer<UInt8>?, prefix: UnsafePointer<UInt8>?, namespaceCount: Int,
        namespaces: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, attributeCount: Int,
        attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
    ) {
        guard let localname else { return }
        let depth = openNames.count + 1
        if depth > Self.maxDepth {
            fail(
                ImportError(
                    .tooLarge, "elements nested deeper than \(Self.maxDepth) levels", at: location(),
                    field: inRecord ? currentPath : nil))
            return
        }
        let nameID = lookUpName(prefix: prefix, localname: localname)
        openNames.append(nameID)
        if depth == 1 {
            rootName = nameTexts[Int(nameID)]
            rootAttributes = Self.declarations(namespaceCount, namespaces).map { ($0.name, $0.uri) }
            forEachAttribute(attributeCount, attributes) { attributeName, _, value in
                rootAttributes.append((attributeName, value))
            }
        }
        if inRecord {
            startChild(
                nameID: nameID, localname: localname, prefix: prefix, namespaceCount: namespaceCount,
                namespaces: namespaces, attributeCount: attributeCount, attributes: attributes)
            return
        }
        let name = nameTexts[Int(nameID)]
        switch mode {
        case .detect:
            note(name)
            guard depth == 2 else { return }
            if firstChild == nil { firstChild = name }
            if rootChildren.contains(name) {
                detectedElement = name
                stop()
            } else {
                rootChildren.insert(name)
            }
        case .collect(_, let requiredDepth):
            guard isRecordName[Int(nameID)], requiredDepth == nil || requiredDepth == depth else {
                note(name)
                return
            }
            startRecord(
                namespaceCount: namespaceCount, namespaces: namespaces, attributeCount: attributeCount,
                attributes: attributes)
        }
    }

    /// The record element starts: its namespace declarations and attributes are its first fields.
    private func startRecord(
        namespaceCount: Int, namespaces: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, attributeCount: Int,
        attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
    ) {
        inRecord = true
        recordLocation = location()
        fields.removeAll(keepingCapacity: true)
        fields.reserveCapacity(fieldCapacity)
        text.removeAll(keepingCapacity: true)
        attributeBytes = 0
        var language: String?
        for declaration in Self.declarations(namespaceCount, namespaces) {
            addRecordAttribute(declaration.name, declaration.uri)
        }
        forEachAttribute(attributeCount, attributes) { attributeName, isLanguage, value in
            if isLanguage {
                language = value
            } else {
                addRecordAttribute(attributeName, value)
            }
        }
        stack.removeAll(keepingCapacity: true)
        stack.append(
            Frame(
                path: -1, fieldStart: fields.count, textStart: 0, hasAttributes: !fields.isEmpty, language: language,
                line: recordLocation.line, column: recordLocation.column))
    }

    private func addRecordAttribute(_ name: String, _ value: String) {
        attributeBytes += value.utf8.count
        fields.append(SourceField(name: name, value: value, location: recordLocation))
        if recordAttributeNames.count < 1000, recordAttributeSet.insert(name).inserted {
            recordAttributeNames.append(name)
        }
    }

    /// An element inside a record: its path, its attributes as `path@attribute` fields.
    private func startChild(
        nameID: Int32, localname: UnsafePointer<UInt8>, prefix: UnsafePointer<UInt8>?,
        namespaceCount: Int, namespaces: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, attributeCount: Int,
        attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
    ) {
        let parent = stack.count - 1
        stack[parent].hasChildren = true
        let parentPath = stack[parent].path
        var language = stack[parent].language
        let line = parser?.line ?? 0
        let column = parser?.column ?? 0
        let path: Int32
        if parentPath == -1,
            let named = Self.fieldConvention(
                localname: localname, prefix: prefix, namespaceCount: namespaceCount, attributeCount: attributeCount,
                attributes: attributes)
        {
            // `<field name="x">` (what XMLRecordWriter writes for names that are not XML names)
            // stands for an element called x.
            path = specialPath(named)
            stack.append(
                Frame(
                    path: path, fieldStart: fields.count, textStart: text.count, hasAttributes: false,
                    language: language, line: line, column: column))
            return
        }
        let here = SourceLocation(source: sourceName, line: line, column: column)
        path = childPath(parent: parentPath, nameID: nameID, attribute: false)
        var attributeFields = 0
        for declaration in Self.declarations(namespaceCount, namespaces) {
            let fieldName = paths[Int(path)] + "@" + declaration.name
            fields.append(SourceField(name: fieldName, value: declaration.uri, location: here))
            attributeBytes += declaration.uri.utf8.count
            attributeFields += 1
        }
        if attributeCount > 0, let attributes {
            for index in 0..<attributeCount {
                let base = attributes + 5 * index
                guard let attributeLocal = base[0], let start = base[3], let end = base[4] else { continue }
                let value = Self.attributeValue(start, end)
                if Self.isLanguageAttribute(localname: attributeLocal, prefix: base[1]) {
                    language = value
                    continue
                }
                let attributeID = lookUpName(prefix: base[1], localname: attributeLocal)
                let fieldName = paths[Int(childPath(parent: path, nameID: attributeID, attribute: true))]
                fields.append(SourceField(name: fieldName, value: value, location: here))
                attributeBytes += end - start
                attributeFields += 1
            }
        }
        if attributeBytes + text.count > Self.maxRecordBytes { failTooLarge() }
        stack.append(
            Frame(
                path: path, fieldStart: fields.count, textStart: text.count, hasAttributes: attributeFields > 0,
                language: language, line: line, column: column))
    }

    func endElement() {
        openNames.removeLast()
        if openNames.isEmpty { rootClosed = true }
        guard inRecord, let frame = stack.popLast() else { return }
        if frame.path == -1 {
            endRecord(frame)
            return
        }
        if !frame.hasChildren {
            if !(text.count == frame.textStart && frame.hasAttributes) {
                fields.append(
                    SourceField(
                        name: paths[Int(frame.path)], value: textString(from: frame.textStart),
                        language: frame.language,
                        location: SourceLocation(source: sourceName, line: frame.line, column: frame.column)))
            }
        } else if !frame.directText, frame.strayLine > 0 {
            noteStray(at: frame)
        } else if frame.directText {
            // Mixed content: the element's whole text, its inline children included.
            fields.removeSubrange(frame.fieldStart..<fields.count)
            fields.append(
                SourceField(
                    name: paths[Int(frame.path)], value: textString(from: frame.textStart),
                    language: frame.language,
                    location: SourceLocation(source: sourceName, line: frame.line, column: frame.column)))
        }
    }

    /// The record element ends: deliver the record.
    private func endRecord(_ frame: Frame) {
        inRecord = false
        if !frame.directText, frame.strayLine > 0, frame.hasChildren { noteStray(at: frame) }
        if frame.directText {
            if frame.hasChildren { fields.removeSubrange(frame.fieldStart..<fields.count) }
            fields.append(
                SourceField(
                    name: Self.recordTextField, value: textString(from: 0), language: frame.language,
                    location: recordLocation))
        }
        recordCount += 1
        fieldCapacity = max(fieldCapacity, fields.count)
        let record = SourceRecord(fields: fields, location: recordLocation)
        fields = []
        if text.capacity > 1 << 22 { text = [] }
        if paths.count > Self.tableLimit {
            paths.removeAll()
            pathIndex.removeAll()
            specialPaths.removeAll()
        }
        do {
            try body?(record)
        } catch {
            bodyError = error
            stop()
        }
    }

    // MARK: - Text

    func characters(_ bytes: UnsafePointer<UInt8>?, count: Int) {
        guard inRecord, let bytes, count > 0 else { return }
        text.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
        let last = stack.count - 1
        if !stack[last].directText, !Self.isWhitespace(bytes, count: count) {
            if Self.isInvisible(bytes, count: count) {
                if stack[last].strayLine == 0 {
                    stack[last].strayLine = parser?.line ?? 0
                    stack[last].strayColumn = parser?.column ?? 0
                }
            } else {
                stack[last].directText = true
            }
        }
        if text.count + attributeBytes > Self.maxRecordBytes { failTooLarge() }
    }

    @inline(__always)
    private func textString(from start: Int) -> String {
        text.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[start...]), as: UTF8.self)
        }
    }

    // MARK: - Entities and errors

    /// A reference to an entity libxml2 does not know (every entity but the predefined ones: the
    /// prolog check refuses declarations before the parser sees them).
    func undeclaredEntity(_ name: UnsafePointer<UInt8>?) {
        let entity = name.map { String(cString: $0) } ?? ""
        fail(
            ImportError(
                .malformed, "reference to an undeclared entity &\(entity);", at: location(),
                field: inRecord ? currentPath : nil))
    }

    /// An entity declaration reached the parser (the prolog check normally refuses it first).
    func entityDeclaration() {
        fail(ImportError(.forbidden, "DTD entity declarations are not allowed", at: location()))
    }

    func parseError(code: Int, level: xmlErrorLevel) {
        guard failure == nil, bodyError == nil, detectedElement == nil else { return }
        guard level.rawValue > XML_ERR_WARNING.rawValue, !LibXML2Error.isIgnorable(code) else { return }
        var error = LibXML2Error.importError(
            code: code, at: location(), openElement: openNames.last.map { nameTexts[Int($0)] },
            rootClosed: rootClosed)
        if inRecord { error.field = currentPath }
        fail(error)
    }

    private func failTooLarge() {
        fail(
            ImportError(
                .tooLarge, "a record holds more than \(Self.maxRecordBytes / (1024 * 1024)) MiB of text",
                at: recordLocation))
    }

    private func fail(_ error: ImportError) {
        if failure == nil { failure = error }
        stop()
    }

    private func stop() {
        guard !stopped else { return }
        stopped = true
        parser?.stop()
    }

    // MARK: - Names and paths

    /// The field path of the innermost open element inside the record (nil at the record level).
    private var currentPath: String? {
        guard let path = stack.last?.path, path >= 0 else { return nil }
        return paths[Int(path)]
    }

    /// A name's id (its text is `nameTexts[id]`: `prefix:local` when it has a prefix), made once
    /// per parse. libxml2 keeps every name of a parse in its dictionary, so this table grows no
    /// faster than libxml2's own.
    @inline(__always)
    private func lookUpName(prefix: UnsafePointer<UInt8>?, localname: UnsafePointer<UInt8>) -> Int32 {
        if prefix == nil, let known = names.value(for: UInt64(UInt(bitPattern: localname))) { return known }
        let key = NamePointers(prefix: prefix, localname: localname)
        if prefix != nil, let known = prefixedNames[key] { return known }
        var name = String(cString: localname)
        if let prefix { name = String(cString: prefix) + ":" + name }
        let id = Int32(nameTexts.count)
        nameTexts.append(name)
        if case .collect(let element, _) = mode {
            isRecordName.append(name == element)
        } else {
            isRecordName.append(false)
        }
        if prefix == nil {
            names.insert(id, for: UInt64(UInt(bitPattern: localname)))
        } else {
            prefixedNames[key] = id
        }
        return id
    }

    /// The path of an element (or, with `attribute`, an attribute) whose name is `nameID` inside
    /// `parent`.
    @inline(__always)
    private func childPath(parent: Int32, nameID: Int32, attribute: Bool) -> Int32 {
        let key =
            UInt64(UInt32(bitPattern: parent)) << 32 | UInt64(UInt32(bitPattern: nameID)) << 1 | (attribute ? 1 : 0)
        if let known = pathIndex.value(for: key) { return known }
        let name = nameTexts[Int(nameID)]
        let text: String
        if parent < 0 {
            text = name
        } else {
            text = paths[Int(parent)] + (attribute ? "@" : "/") + name
        }
        let id = Int32(paths.count)
        paths.append(text)
        pathIndex.insert(id, for: key)
        return id
    }

    private func specialPath(_ name: String) -> Int32 {
        if let known = specialPaths[name] { return known }
        let id = Int32(paths.count)
        paths.append(name)
        specialPaths[name] = id
        return id
    }

    /// The name of `<field name="x">` with that one attribute and no namespace, else nil.
    private static func fieldConvention(
        localname: UnsafePointer<UInt8>, prefix: UnsafePointer<UInt8>?, namespaceCount: Int, attributeCount: Int,
        attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
    ) -> String? {
        guard prefix == nil, namespaceCount == 0, attributeCount == 1, let attributes,
            equals(localname, "field"), attributes[1] == nil, let attributeLocal = attributes[0],
            equals(attributeLocal, "name"), let start = attributes[3], let end = attributes[4]
        else { return nil }
        return attributeValue(start, end)
    }

    /// An attribute value from libxml2. Without entity substitution, libxml2 hands over every `&`
    /// of a decoded attribute value (from `&amp;` or `&#38;`) as the text `&#38;`, for a tree
    /// builder to parse again; a raw `&` cannot occur, so turning `&#38;` back into `&` is exact.
    @inline(__always)
    private static func attributeValue(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> String {
        let buffer = UnsafeBufferPointer(start: start, count: end - start)
        guard buffer.contains(0x26) else { return String(decoding: buffer, as: UTF8.self) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(buffer.count)
        var index = 0
        while index < buffer.count {
            if buffer[index] == 0x26, index + 4 < buffer.count, buffer[index + 1] == 0x23, buffer[index + 2] == 0x33,
                buffer[index + 3] == 0x38, buffer[index + 4] == 0x3B
            {
                bytes.append(0x26)
                index += 5
            } else {
                bytes.append(buffer[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Calls `body` with each attribute's name, whether it is `xml:lang`, and its value.
    private func forEachAttribute(
        _ count: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?,
        _ body: (String, Bool, String) -> Void
    ) {
        guard count > 0, let attributes else { return }
        for index in 0..<count {
            let base = attributes + 5 * index
            guard let local = base[0], let start = base[3], let end = base[4] else { continue }
            let value = Self.attributeValue(start, end)
            let isLanguage = Self.isLanguageAttribute(localname: local, prefix: base[1])
            body(nameTexts[Int(lookUpName(prefix: base[1], localname: local))], isLanguage, value)
        }
    }

    /// Namespace declarations as attribute names (`xmlns`, `xmlns:dc`) and URIs.
    private static func declarations(_ count: Int, _ namespaces: UnsafeMutablePointer<UnsafePointer<UInt8>?>?)
        -> [(name: String, uri: String)]
    {
        guard count > 0, let namespaces else { return [] }
        return (0..<count).map { index in
            let prefix = namespaces[2 * index].map { String(cString: $0) }
            let uri = namespaces[2 * index + 1].map { String(cString: $0) } ?? ""
            return (prefix.map { "xmlns:" + $0 } ?? "xmlns", uri)
        }
    }

    private static func isLanguageAttribute(localname: UnsafePointer<UInt8>, prefix: UnsafePointer<UInt8>?) -> Bool {
        guard let prefix else { return false }
        return equals(prefix, "xml") && equals(localname, "lang")
    }

    /// Whether the NUL-terminated `bytes` spell `text` (ASCII).
    private static func equals(_ bytes: UnsafePointer<UInt8>, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        let expected = text.utf8Start
        for index in 0..<count where bytes[index] != expected[index] { return false }
        return bytes[count] == 0
    }

    // MARK: - Helpers

    @inline(__always)
    private func location() -> SourceLocation {
        SourceLocation(source: sourceName, line: parser?.line ?? 0, column: parser?.column ?? 0)
    }

    private func note(_ name: String) {
        if seenNames.count < 20, seenSet.insert(name).inserted { seenNames.append(name) }
    }

    /// Notes an element whose children came with invisible characters between them.
    private func noteStray(at frame: Frame) {
        strayCount += 1
        guard strayNote == nil else { return }
        let name = frame.path == -1 ? (recordElementName ?? "record") : paths[Int(frame.path)]
        let location = SourceLocation(
            source: sourceName, line: frame.strayLine > 0 ? frame.strayLine : frame.line,
            column: frame.strayLine > 0 ? frame.strayColumn : frame.column)
        strayNote = (location, name)
    }

    /// What the user should know about the text passed over: where invisible characters between
    /// child elements were ignored (the first place, and how many elements had them).
    var notes: [String] {
        guard let (location, name) = strayNote else { return [] }
        let others = strayCount > 1 ? " (and in \(strayCount - 1) more elements)" : ""
        return [
            "\(location): invisible characters (spaces, format characters such as U+200B or U+FEFF) between the "
                + "child elements of <\(name)> are not text; ignored\(others)"
        ]
    }

    /// Whether `bytes` (UTF-8) are only white space and invisible characters: separators (Unicode
    /// categories Zs, Zl, Zp) and format characters (Cf), such as NBSP, U+200B and U+FEFF.
    private static func isInvisible(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        // Most texts begin with an ASCII letter or digit: no ASCII character but white space is
        // a separator or a format character, so a text that starts with one is decided at once.
        if bytes[0] < 0x80 && !Byte.isWhitespace(bytes[0]) { return false }
        var decoder = UTF8()
        var iterator = UnsafeBufferPointer(start: bytes, count: count).makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                switch scalar.properties.generalCategory {
                case .spaceSeparator, .lineSeparator, .paragraphSeparator, .format: continue
                default: if scalar.isASCII && Byte.isWhitespace(UInt8(scalar.value)) { continue }
                }
                return false
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// Whether `bytes` are only XML whitespace (space, TAB, LF, CR).
    @inline(__always)
    private static func isWhitespace(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        for index in 0..<count {
            if !Byte.isWhitespace(bytes[index]) { return false }
        }
        return true
    }
}

/// A name as libxml2 hands it over: pointers into its name dictionary, stable for one parse.
private struct NamePointers: Hashable {
    let prefix: UInt
    let localname: UInt

    init(prefix: UnsafePointer<UInt8>?, localname: UnsafePointer<UInt8>) {
        self.prefix = UInt(bitPattern: prefix)
        self.localname = UInt(bitPattern: localname)
    }
}

/// Integer keys to name or path ids: a direct-mapped cache of 256 entries in front of a
/// dictionary, so the few names of a document's records are found without hashing.
private struct DirectMappedCache {
    private var slotKeys = [UInt64](repeating: .max, count: 256)
    private var slotValues = [Int32](repeating: 0, count: 256)
    private var table: [UInt64: Int32] = [:]

    @inline(__always)
    private static func slot(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 56)
    }

    @inline(__always)
    mutating func value(for key: UInt64) -> Int32? {
        let slot = Self.slot(key)
        if slotKeys[slot] == key { return slotValues[slot] }
        guard let value = table[key] else { return nil }
        slotKeys[slot] = key
        slotValues[slot] = value
        return value
    }

    mutating func insert(_ value: Int32, for key: UInt64) {
        table[key] = value
        let slot = Self.slot(key)
        slotKeys[slot] = key
        slotValues[slot] = value
    }

    mutating func removeAll() {
        table.removeAll()
        for index in slotKeys.indices { slotKeys[index] = .max }
    }
}
