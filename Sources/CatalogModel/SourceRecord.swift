import CatalogSupport

/// A record as a reader found it, before mapping: named values in document order.
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
///
/// A value is text unless the source says otherwise: JSON numbers, booleans and `null` keep
/// their type (``kind``), an SQLite integer is a number. A JSON array gives one field per element,
/// each marked ``isListElement`` (so a one-element list stays a list), and an empty array one
/// field of kind ``Kind/emptyList``.
public struct SourceField: Sendable, Equatable {
    /// What kind of value a field holds.
    public enum Kind: UInt8, Sendable, Equatable {
        /// Text (``SourceField/value`` is the text).
        case text
        /// A number; ``SourceField/value`` is its exact literal (`130`, `1.50`, `-2e3`).
        case number
        /// A boolean; ``SourceField/value`` is `true` or `false`.
        case bool
        /// JSON `null`; ``SourceField/value`` is empty.
        case null
        /// An empty list (`[]`); ``SourceField/value`` is empty.
        case emptyList
    }

    /// The field's name in the source: an element, attribute (`element@attribute`), key or column.
    public var name: String
    /// The value as text, exactly as read (entities decoded, whitespace kept); a number's literal.
    public var value: String
    /// The type of the value.
    public var kind: Kind
    /// The language of a text (XML's `xml:lang`), nil when the source gives none.
    public var language: String?
    /// Whether the value is an element of a list (a JSON array), so one element stays a list.
    public var isListElement: Bool
    /// Where the value starts in its source.
    public var location: SourceLocation

    /// Creates a field.
    public init(
        name: String, value: String, kind: Kind = .text, language: String? = nil, isListElement: Bool = false,
        location: SourceLocation = SourceLocation()
    ) {
        self.name = name
        self.value = value
        self.kind = kind
        self.language = language
        self.isListElement = isListElement
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

    /// `file:line:column`, leaving out what is unknown; a URL's password is hidden
    /// (``Credentials``).
    public var description: String {
        var text = source.isEmpty ? "<input>" : Credentials.redacted(url: source)
        if line > 0 {
            text += ":\(line)"
            if column > 0 { text += ":\(column)" }
        }
        return text
    }
}
