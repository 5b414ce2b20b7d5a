/// What ``CatalogClient/batch(_:in:)`` did: the catalog's change number after it and what
/// happened to each record, in the order the changes were given.
///
/// ```swift
/// let outcome = try await client.batch([.upsert(soup), .delete(id: "r07")], in: "cookbook")
/// for entry in outcome.results { print(entry.id, entry.result) }
/// ```
public struct BatchOutcome: Sendable, Hashable {
    /// What happened to one record.
    public enum RecordResult: String, Sendable, Equatable, CaseIterable, Decodable {
        /// It did not exist; now it does.
        case created
        /// It existed with other content.
        case replaced
        /// It was removed.
        case deleted
        /// It existed with this very content: nothing changed, no change number was used.
        case unchanged
    }

    /// One record's result.
    public struct Entry: Sendable, Hashable, Decodable {
        /// The record's id.
        public var id: String
        /// What happened to it.
        public var result: RecordResult
        /// Its ETag after the batch, nil when it was deleted.
        public var etag: String?

        /// Creates an entry.
        public init(id: String, result: RecordResult, etag: String?) {
            self.id = id
            self.result = result
            self.etag = etag
        }
    }

    /// The catalog's change number after the batch (the one before it when nothing changed).
    public var change: Int
    /// Each change's result, in the order given.
    public var results: [Entry]

    /// Creates an outcome.
    public init(change: Int, results: [Entry]) {
        self.change = change
        self.results = results
    }
}

extension BatchOutcome: Decodable {}
