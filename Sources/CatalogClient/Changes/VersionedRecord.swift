/// A record as the server stores it, with its ETag and the catalog's change number: what
/// ``CatalogClient/record(_:in:)`` reads and every change of one record answers.
///
/// Give ``etag`` back as `ifMatch` to change the record only if nobody changed it meanwhile:
///
/// ```swift
/// var stored = try await client.record("gulyas", in: "cookbook")
/// stored.record.subtitle = "Mari néni receptje"
/// stored = try await client.put(stored.record, in: "cookbook", ifMatch: stored.etag)
/// ```
public struct VersionedRecord: Sendable, Hashable, Identifiable {
    /// The record's id.
    public var id: String { record.id }
    /// The record, as the server stores it (its section filled in).
    public var record: Record
    /// The record's strong ETag (`"…"`, quotes included): it changes exactly when the record does.
    public var etag: String
    /// The catalog's change number when the record was read or written (``CatalogChange/number``
    /// of this change, for a write): follow ``CatalogClient/changes(of:since:options:)`` from it.
    public var change: Int

    /// Creates a value.
    public init(record: Record, etag: String, change: Int) {
        self.record = record
        self.etag = etag
        self.change = change
    }
}
