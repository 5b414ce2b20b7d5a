import CatalogModel

/// Writes records as a JSON array of objects, one record per line, that ``JSONRecordReader``
/// reads back to the same records.
///
/// ```swift
/// var writer = JSONRecordWriter()
/// let json = try writer.data(for: records)
/// // [
/// // {"id":"7","title":"Gulyásleves","categories":["Levesek","Magyar"],"weight":1.50,"vegan":null},
/// // …
/// // ]
/// ```
///
/// - Keys keep the order of each name's first appearance; a repeated name, or a field marked
///   ``SourceField/isListElement``, becomes an array of its values (so interleaved repeats,
///   `a b a`, come back grouped, `a a b`), and an ``SourceField/Kind/emptyList`` field `[]`.
/// - Values keep their type (``SourceField/kind``): strings, number literals exactly as read
///   (`12.50` stays `12.50`), `true`/`false`, `null`.
/// - A field with a ``SourceField/language`` is written under `name@language` (`title@de`), which
///   the mapper reads back as that translation.
/// - Names are written as they are: a flattened `dimensions.width` stays one key.
/// - Strings are escaped by ``JSONOutput`` (quotes, backslashes, control characters, and `<`, `>`,
///   `&` as `\u003c` …); `/` and other non-ASCII text are written as they are.
/// - With a ``definition`` the document is `{"catalog-definition":{…},"records":[…]}`, so
///   importing it into a new catalog needs no mapping.
public struct JSONRecordWriter: RecordWriter {
    /// A definition to embed, or nil for a plain array.
    public var definition: CatalogDefinition?
    private var wroteRecord = false

    /// Creates a writer.
    public init(definition: CatalogDefinition? = nil) {
        self.definition = definition
    }

    /// Writes the opening bracket (after the embedded definition, if any).
    public mutating func writeStart(to sink: inout some ByteSink) throws(ImportError) {
        wroteRecord = false
        if let definition {
            let start = "{\"\(EmbeddedDefinition.marker)\":" + EmbeddedDefinition.json(definition) + ",\n\"records\":["
            try sink.write(Array(start.utf8))
        } else {
            try sink.write(Array("[".utf8))
        }
    }

    /// Writes one record as an object on its own line.
    public mutating func write(_ record: SourceRecord, to sink: inout some ByteSink) throws(ImportError) {
        var order: [String] = []
        var values: [String: [SourceField]] = [:]
        for field in record.fields {
            let key = field.language.map { field.name + "@" + $0 } ?? field.name
            if values[key] == nil {
                order.append(key)
                values[key] = [field]
            } else {
                values[key]!.append(field)
            }
        }
        var out = JSONOutput(capacity: 256)
        out.raw(wroteRecord ? ",\n" : "\n")
        out.object { object in
            for key in order { object.member(named: key) { $0.value(of: values[key]!) } }
        }
        wroteRecord = true
        try sink.write(out.bytes)
    }

    /// Writes the closing bracket and flushes the sink.
    public mutating func writeEnd(to sink: inout some ByteSink) throws(ImportError) {
        try sink.write(Array((definition == nil ? "\n]\n" : "\n]}\n").utf8))
        try sink.flush()
    }

}
