/// A record as a reader found it, before mapping: named text values in document order.
///
/// Readers (XML, JSON, CSV, SQLite tables) produce these; ``RecordMapper`` turns them into
/// ``Record`` values using a catalog's ``CatalogDefinition``.
public struct SourceRecord: Sendable, Equatable {
    /// The fields in document order; a name appears several times when the source repeated it.
    public var fields: [SourceField]
    /// Where the record starts in its source (1-based), for error messages.
    public var location: SourceLocation

    /// Creates a source record.
    public init(fields: [SourceField] = [], location: SourceLocation = SourceLocation()) {
        self.fields = fields
        self.location = location
    }

    /// Every value of the field called `name`, in document order.
    public func values(of name: String) -> [String] {
        fields.compactMap { $0.name == name ? $0.value : nil }
    }

    /// The field called `name`, if present (first occurrence).
    public func field(_ name: String) -> SourceField? {
        fields.first { $0.name == name }
    }
}

/// One named value of a ``SourceRecord``.
public struct SourceField: Sendable, Equatable {
    /// The field's name in the source: an element, attribute (`element@attribute`), key or column.
    public var name: String
    /// The text value, exactly as read (entities decoded, whitespace kept).
    public var value: String
    /// Where the value starts in its source.
    public var location: SourceLocation

    /// Creates a field.
    public init(name: String, value: String, location: SourceLocation = SourceLocation()) {
        self.name = name
        self.value = value
        self.location = location
    }
}

/// A position in a source: a file (or URL), a 1-based line and column. Zero means unknown.
public struct SourceLocation: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The file path or URL; empty when reading from memory.
    public var source: String
    /// 1-based line, or 0 when unknown.
    public var line: Int
    /// 1-based column, or 0 when unknown.
    public var column: Int

    /// Creates a location.
    public init(source: String = "", line: Int = 0, column: Int = 0) {
        self.source = source
        self.line = line
        self.column = column
    }

    /// `file:line:column`, leaving out what is unknown.
    public var description: String {
        var text = source.isEmpty ? "<input>" : source
        if line > 0 {
            text += ":\(line)"
            if column > 0 { text += ":\(column)" }
        }
        return text
    }
}

/// Anything that yields source records one at a time, streaming, in document order.
///
/// Readers never hold the whole input in memory; a failure throws an ``ImportError`` that says
/// where the problem is.
public protocol RecordSource {
    /// Calls `body` with each record, in document order. Stops at the first error.
    func forEachRecord(_ body: (SourceRecord) throws -> Void) throws
}
