import CatalogModel

/// A built-in demo catalog: its definition and its source document, imported through the normal
/// readers exactly like a user's file.
///
/// ```swift
/// let demo = DemoCatalogs.named("sequencers")!
/// // demo.format == .xml, demo.source starts with "<?xml"
/// ```
public struct DemoCatalog: Sendable {
    /// The catalog's definition: id, title, locale, mapping, category values, scopes.
    public var definition: CatalogDefinition

    /// The format of ``source``.
    public enum Format: String, Sendable {
        /// An XML document (``CatalogDefinition/recordElement`` names the record element).
        case xml
        /// A JSON document (``recordPath`` names the key that holds the records).
        case json
    }

    /// The format of ``source``.
    public var format: Format
    /// The source document, in the format above, imported through the normal readers.
    public var source: String
    /// For JSON sources: the key of the top-level object holding the record array, if any.
    public var recordPath: String?

    /// Creates a demo catalog.
    public init(definition: CatalogDefinition, format: Format, source: String, recordPath: String? = nil) {
        self.definition = definition
        self.format = format
        self.source = source
        self.recordPath = recordPath
    }
}
