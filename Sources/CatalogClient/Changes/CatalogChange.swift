import Foundation

/// One entry of a catalog's change feed (``CatalogClient/changes(of:since:options:)``): the change
/// number and what changed.
///
/// ```swift
/// for try await change in client.changes(of: "cookbook", since: stored.change) {
///     switch change.kind {
///     case .upsert: print("new or changed:", change.record?.title ?? "")
///     case .delete: print("removed:", change.id ?? "")
///     case .definition, .reload: print("read the catalog again")
///     }
/// }
/// ```
public struct CatalogChange: Sendable, Hashable {
    /// What a change did.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// A record was created or replaced: ``CatalogChange/record`` holds it as the API serves it.
        case upsert
        /// The record ``CatalogChange/id`` was removed.
        case delete
        /// The catalog's definition changed (title, labels, scopes, list options): read
        /// ``CatalogClient/catalog(_:)`` again.
        case definition
        /// The catalog changed as a whole (an import, a new locale), or the feed cannot say what
        /// changed since the number asked for: read the catalog again from the start. A kind this
        /// library does not know arrives as a reload too.
        case reload
    }

    /// The change number: it grows by one with every change of the catalog.
    ///
    /// After a ``Kind/reload`` the numbers go on from the reload's own, which is lower than the
    /// numbers before it when the catalog was deleted and made again.
    public var number: Int
    /// What changed.
    public var kind: Kind
    /// The record's id (upserts and deletes).
    public var id: String?
    /// The record after the change (upserts).
    public var record: Record?
    /// An upsert's record's place in the catalog's index order, as a browse cursor: a page
    /// asked for `after` it starts right after the record. Nil when the server's collator is not
    /// the one the catalog was sorted with.
    public var cursor: String?
    /// When the change was made; nil for a reload the feed reports without a log entry (the log
    /// does not reach back to the number asked for).
    public var time: Date?

    /// Creates a change.
    public init(
        number: Int, kind: Kind, id: String? = nil, record: Record? = nil, cursor: String? = nil, time: Date? = nil
    ) {
        self.number = number
        self.kind = kind
        self.id = id
        self.record = record
        self.cursor = cursor
        self.time = time
    }
}

extension CatalogChange: Decodable {
    enum CodingKeys: String, CodingKey {
        case number, kind, id, record, cursor, time
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        number = try c.decode(Int.self, forKey: .number)
        kind = Kind(rawValue: try c.decode(String.self, forKey: .kind)) ?? .reload
        id = try c.decodeIfPresent(String.self, forKey: .id)
        record = try c.decodeIfPresent(Record.self, forKey: .record)
        cursor = try c.decodeIfPresent(String.self, forKey: .cursor)
        time = try c.decodeIfPresent(String.self, forKey: .time).flatMap(Self.date)
        if kind == .upsert, record == nil {
            throw DecodingError.valueNotFound(
                Record.self,
                DecodingError.Context(
                    codingPath: c.codingPath + [CodingKeys.record], debugDescription: "an upsert needs its record"))
        }
    }

    /// A change log time stamp: ISO 8601 in UTC, with or without milliseconds.
    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
