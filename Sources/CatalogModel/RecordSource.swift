/// Anything that yields source records one at a time, streaming, in document order.
///
/// Readers never hold the whole input in memory; a failure throws an ``ImportError`` that says
/// where the problem is. Cancellation is part of every read (``ReadCancellation``), and what a
/// read learns about the source comes back as its result (``ReadSummary``).
///
/// ```swift
/// let summary = try reader.read(cancellation: .never, fieldNames: { _ in }) { record in … }
/// print(summary.records)
/// ```
public protocol RecordSource {
    /// Reads the source once: calls `fieldNames` with the names it declares before its records,
    /// if it declares any (a CSV header, a table's columns), then `body` with each record in
    /// document order. Stops at the first error.
    ///
    /// - Returns: what reading learned (how many records, the declared names, the document's
    ///   shape).
    /// - Throws: an ``ImportError`` where the source is wrong, ``ReadCancellation/Cancelled``
    ///   once `cancellation` says so, or what `body` throws.
    func read(
        cancellation: ReadCancellation, fieldNames: ([String]) -> Void, _ body: (SourceRecord) throws -> Void
    ) throws -> ReadSummary
}

extension RecordSource {
    /// Calls `body` with each record, in document order, never cancelled. Stops at the first
    /// error.
    public func forEachRecord(_ body: (SourceRecord) throws -> Void) throws {
        _ = try read(cancellation: .never, fieldNames: { _ in }, body)
    }

    /// Calls `fieldNames` with the names the source declares before its records, if any, then
    /// `body` with each record.
    public func forEachRecord(fieldNames: ([String]) -> Void, _ body: (SourceRecord) throws -> Void) throws {
        _ = try read(cancellation: .never, fieldNames: fieldNames, body)
    }
}

/// Asked by a reader between records (and by SQLite while it steps): true stops the read with
/// ``Cancelled``.
public struct ReadCancellation: Sendable {
    /// Whether the read should stop.
    public let isCancelled: @Sendable () -> Bool

    /// What a cancelled read throws.
    public struct Cancelled: Error, Sendable, Equatable, CustomStringConvertible {
        /// Creates the error.
        public init() {}
        /// `the import was cancelled`
        public var description: String { "the import was cancelled" }
    }

    /// A read that is never cancelled.
    public static let never = ReadCancellation { false }

    /// Creates a cancellation that asks `isCancelled`.
    public init(_ isCancelled: @escaping @Sendable () -> Bool) {
        self.isCancelled = isCancelled
    }

    /// Throws ``Cancelled`` when the read should stop.
    @inline(__always)
    public func check() throws(Cancelled) {
        if isCancelled() { throw Cancelled() }
    }
}

/// What one read of a source learned, returned when the source is exhausted.
public struct ReadSummary: Sendable, Equatable {
    /// How many records were delivered.
    public var records: Int
    /// How many bytes of input were read (0 when the reader does not count them).
    public var bytes: Int64
    /// The names the source declared before its records (a CSV header, a table's columns).
    public var fieldNames: [String]
    /// XML: the document's shape around its records, kept for exports.
    public var shape: XMLDocumentShape?
    /// What the reader tells the user about what it passed over (`feed.xml:3:18: …`), for the
    /// import's notes.
    public var notes: [String]

    /// Creates a summary.
    public init(
        records: Int = 0, bytes: Int64 = 0, fieldNames: [String] = [], shape: XMLDocumentShape? = nil,
        notes: [String] = []
    ) {
        self.records = records
        self.bytes = bytes
        self.fieldNames = fieldNames
        self.shape = shape
        self.notes = notes
    }
}

/// What an XML document looked like around its records, for writing the same shape again.
public struct XMLDocumentShape: Sendable, Equatable {
    /// The root element's name.
    public var rootElement: String
    /// The root element's namespace declarations (`xmlns:dc`) and attributes, in document order.
    public var rootAttributes: [XMLAttribute]
    /// The record element's name.
    public var recordElement: String
    /// The names of the record element's attributes, in order of first appearance.
    public var recordAttributes: [String]

    /// Creates a shape.
    public init(
        rootElement: String, rootAttributes: [(name: String, value: String)] = [], recordElement: String,
        recordAttributes: [String] = []
    ) {
        self.rootElement = rootElement
        self.rootAttributes = rootAttributes.map { XMLAttribute(name: $0.name, value: $0.value) }
        self.recordElement = recordElement
        self.recordAttributes = recordAttributes
    }

    /// `definition` with this shape: a root or record element not set yet is taken, and the
    /// attributes of the elements that match.
    public func applied(to definition: CatalogDefinition) -> CatalogDefinition {
        var result = definition
        if result.rootElement == nil { result.rootElement = rootElement }
        if result.recordElement == nil { result.recordElement = recordElement }
        if result.rootElement == rootElement { result.rootAttributes = rootAttributes }
        if result.recordElement == recordElement { result.recordAttributes = recordAttributes }
        return result
    }
}
