/// A page of a catalog's change log, as `GET /api/v1/catalogs/{id}/changes?since=N` answers it
/// (``CatalogClient/changeLog(of:since:limit:)``).
public struct CatalogChangePage: Sendable, Hashable, Decodable {
    /// The catalog's change number now.
    public var change: Int
    /// The changes after the number asked for, oldest first.
    public var changes: [CatalogChange]
    /// The number to ask for the next page with; nil when this page reached ``change``.
    public var next: Int?
    /// True when the log cannot bring a copy up to date from the number asked for (it no longer
    /// reaches back so far, or the number is newer than the catalog: it was deleted and made
    /// again), or when the page holds a ``CatalogChange/Kind/reload``: read the catalog again.
    public var reload: Bool
    /// True when the feed leaves changes out (an API key's with a record filter: the changes of
    /// records the key does not see): a number may skip the ones before it, and ``change`` may
    /// be later than the last change.
    public var filtered: Bool

    /// Creates a page.
    public init(change: Int, changes: [CatalogChange], next: Int?, reload: Bool, filtered: Bool = false) {
        self.change = change
        self.changes = changes
        self.next = next
        self.reload = reload
        self.filtered = filtered
    }

    private enum CodingKeys: String, CodingKey {
        case change, changes, next, reload, filtered
    }

    /// Decodes a page; one from a server that does not say whether it is filtered is not.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        change = try container.decode(Int.self, forKey: .change)
        changes = try container.decode([CatalogChange].self, forKey: .changes)
        next = try container.decodeIfPresent(Int.self, forKey: .next)
        reload = try container.decode(Bool.self, forKey: .reload)
        filtered = try container.decodeIfPresent(Bool.self, forKey: .filtered) ?? false
    }
}
