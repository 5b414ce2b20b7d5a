import CatalogModel

/// Writes records as a JSON array of objects, one record per line, that ``JSONRecordReader``
/// reads back to the same records.
///
/// ```swift
/// var writer = JSONRecordWriter()
/// let json = try writer.data(for: records)
/// // [
/// // {"id":"7","title":"Gulyásleves","categories":["Levesek","Magyar"]},
/// // …
/// // ]
/// ```
///
/// - Keys keep the order of each name's first appearance; a repeated name becomes an array of its
///   values (so interleaved repeats, `a b a`, come back grouped, `a a b`).
/// - Every value is a JSON string: the reader's numbers and booleans were already text, so
///   `12.50` comes back as `"12.50"`; the type is not kept.
/// - Names are written as they are: a flattened `dimensions.width` stays one key.
/// - Strings escape `"`, `\` and control characters; `/` and non-ASCII text are written as is.
public struct JSONRecordWriter: RecordWriter {
    private var wroteRecord = false

    /// Creates a writer.
    public init() {}

    /// Writes the opening bracket.
    public mutating func writeStart(to sink: inout some ByteSink) throws(ImportError) {
        wroteRecord = false
        try sink.write(Array("[".utf8))
    }

    /// Writes one record as an object on its own line.
    public mutating func write(_ record: SourceRecord, to sink: inout some ByteSink) throws(ImportError) {
        var order: [String] = []
        var values: [String: [String]] = [:]
        for field in record.fields {
            if values[field.name, default: []].isEmpty { order.append(field.name) }
            values[field.name, default: []].append(field.value)
        }
        var out: [UInt8] = []
        out.reserveCapacity(256)
        out.append(contentsOf: (wroteRecord ? ",\n{" : "\n{").utf8)
        for (index, name) in order.enumerated() {
            if index > 0 { out.append(Byte.comma) }
            Self.appendString(name, to: &out)
            out.append(Byte.colon)
            let list = values[name] ?? []
            if list.count == 1 {
                Self.appendString(list[0], to: &out)
            } else {
                out.append(Byte.openBracket)
                for (k, value) in list.enumerated() {
                    if k > 0 { out.append(Byte.comma) }
                    Self.appendString(value, to: &out)
                }
                out.append(Byte.closeBracket)
            }
        }
        out.append(Byte.closeBrace)
        wroteRecord = true
        try sink.write(out)
    }

    /// Writes the closing bracket and flushes the sink.
    public mutating func writeEnd(to sink: inout some ByteSink) throws(ImportError) {
        try sink.write(Array("\n]\n".utf8))
        try sink.flush()
    }

    /// Appends `text` as a JSON string literal.
    static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(Byte.quote)
        for b in text.utf8 {
            switch b {
            case Byte.quote: out.append(contentsOf: "\\\"".utf8)
            case Byte.backslash: out.append(contentsOf: "\\\\".utf8)
            case Byte.lineFeed: out.append(contentsOf: "\\n".utf8)
            case Byte.carriageReturn: out.append(contentsOf: "\\r".utf8)
            case Byte.tab: out.append(contentsOf: "\\t".utf8)
            case 0x08: out.append(contentsOf: "\\b".utf8)
            case 0x0C: out.append(contentsOf: "\\f".utf8)
            case 0x00..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(contentsOf: UTF8Validation.hex(b).dropFirst(2).utf8)
            default: out.append(b)
            }
        }
        out.append(Byte.quote)
    }
}
