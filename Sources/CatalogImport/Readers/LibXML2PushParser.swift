import CLibXML2
import CatalogModel

/// One libxml2 push-parser context with the SAX2 callbacks of ``XMLRecordCollector``.
///
/// Owns the C context and frees it in `deinit`. The collector reaches the callbacks through the
/// context's user data, unretained: the parser never outlives the parse that created it, and
/// the parse keeps the collector alive.
///
/// Options: `XML_PARSE_NONET` (never fetch anything), `XML_PARSE_DTDATTR` (attributes declared
/// with a default in the internal DTD appear on their elements), `XML_PARSE_NOCDATA` (CDATA is
/// text), `XML_PARSE_IGNORE_ENC` (the input is checked UTF-8 before it gets here). Not set:
/// `XML_PARSE_NOENT` (entities are never substituted), `XML_PARSE_DTDLOAD` (the external subset
/// is never read), `XML_PARSE_XINCLUDE`, `XML_PARSE_HUGE` (libxml2's own size limits stay). The
/// process-wide external entity loader refuses everything, and no SAX callback loads a DTD or
/// builds a tree, so an internal DTD's declarations (`<!ATTLIST …>`, `<!ELEMENT …>`) are parsed
/// for their defaults and otherwise dropped.
final class LibXML2PushParser {
    /// The C context; valid until `deinit`.
    let context: xmlParserCtxtPtr

    /// The options every parse uses.
    static let options = Int32(
        XML_PARSE_NONET.rawValue | XML_PARSE_DTDATTR.rawValue | XML_PARSE_NOCDATA.rawValue
            | XML_PARSE_IGNORE_ENC.rawValue)

    /// Initializes libxml2 once per process and installs the entity loader that refuses every
    /// external entity.
    private static let initialized: Bool = {
        clibxml2_initialize()
        return true
    }()

    /// Creates a context whose callbacks deliver events to `collector`.
    ///
    /// - Throws: `.io` when libxml2 cannot allocate a context.
    init(collector: XMLRecordCollector, sourceName: String) throws(ImportError) {
        _ = Self.initialized
        clibxml2_silence_generic_errors()
        var handler = xmlSAXHandler()
        handler.initialized = clibxml2_sax2_magic()
        handler.startElementNs = {
            context, localname, prefix, _, namespaceCount, namespaces, attributeCount, _, attributes in
            XMLRecordCollector.with(context) {
                $0.startElement(
                    localname: localname, prefix: prefix, namespaceCount: Int(namespaceCount), namespaces: namespaces,
                    attributeCount: Int(attributeCount), attributes: attributes)
            }
        }
        handler.endElementNs = { context, _, _, _ in
            XMLRecordCollector.with(context) { $0.endElement() }
        }
        handler.characters = { context, bytes, count in
            XMLRecordCollector.with(context) { $0.characters(bytes, count: Int(count)) }
        }
        handler.ignorableWhitespace = handler.characters
        handler.getEntity = { context, name in
            XMLRecordCollector.with(context) { $0.undeclaredEntity(name) }
            return nil
        }
        handler.getParameterEntity = { _, _ in nil }
        handler.entityDecl = { context, _, _, _, _, _ in
            XMLRecordCollector.with(context) { $0.entityDeclaration() }
        }
        handler.unparsedEntityDecl = { context, _, _, _, _ in
            XMLRecordCollector.with(context) { $0.entityDeclaration() }
        }
        handler.serror = { context, error in
            guard let error else { return }
            let code = Int(error.pointee.code)
            let level = error.pointee.level
            XMLRecordCollector.with(context) { $0.parseError(code: code, level: level) }
        }
        let userData = Unmanaged.passUnretained(collector).toOpaque()
        guard let context = xmlCreatePushParserCtxt(&handler, userData, nil, 0, nil) else {
            throw ImportError(.io, "cannot create an XML parser", at: SourceLocation(source: sourceName))
        }
        self.context = context
        xmlCtxtUseOptions(context, Self.options)
    }

    deinit {
        xmlFreeParserCtxt(context)
    }

    /// Parses `count` more bytes; `terminate` marks the end of the document.
    func parse(_ bytes: UnsafePointer<UInt8>?, count: Int, terminate: Bool) {
        guard let bytes, count > 0 else {
            _ = xmlParseChunk(context, nil, 0, terminate ? 1 : 0)
            return
        }
        bytes.withMemoryRebound(to: CChar.self, capacity: count) { chars in
            _ = xmlParseChunk(context, chars, Int32(count), terminate ? 1 : 0)
        }
    }

    /// Stops the parse: no more callbacks after the current one.
    func stop() {
        xmlStopParser(context)
    }

    /// The current line (1-based).
    var line: Int { Int(clibxml2_line(context)) }
    /// The current column (1-based).
    var column: Int { Int(clibxml2_column(context)) }
    /// Whether the document was well-formed so far.
    var wellFormed: Bool { clibxml2_well_formed(context) != 0 }
    /// libxml2's last error number.
    var errorNumber: Int { Int(clibxml2_error_number(context)) }
}
