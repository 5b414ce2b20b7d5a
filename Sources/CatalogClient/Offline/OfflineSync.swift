/// What ``OfflineCatalog/sync(with:)`` did.
public enum OfflineSync: Sendable, Hashable {
    /// The file already had every change: nothing was asked beyond one page of the change log.
    case current(change: Int)
    /// `count` changes of the feed were applied to the file, which is now at change `change`.
    case applied(count: Int, change: Int)
    /// The snapshot was downloaded again, now at change `change`: the catalog changed as a
    /// whole (an import, a new definition), the log no longer reached back to the file's change,
    /// more had changed than the catalog has records, or the changes could not be filed without
    /// the server's sort keys.
    case downloaded(change: Int)

    /// The catalog's change number the file is at.
    public var change: Int {
        switch self {
        case .current(let change), .applied(_, let change), .downloaded(let change): change
        }
    }
}
