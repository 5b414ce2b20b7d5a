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

    /// Creates a page.
    public init(change: Int, changes: [CatalogChange], next: Int?, reload: Bool) {
        self.change = change
        self.changes = changes
        self.next = next
        self.reload = reload
    }
}
