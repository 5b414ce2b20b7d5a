import CatalogCore
import CatalogStorage

/// The sort keys and sections of the records a sync files, as the server made them: each
/// upsert of the change feed carries its record's place in index order (a browse cursor holds
/// the section and the collation key), so the local copy files the record exactly where the
/// server did. The client library has no collator of the catalog's locale (no ICU: it is not in
/// Apple's SDKs, and the client's dependencies leave it out) and needs none.
///
/// Records that a merge of the copy's segments files again keep the keys they were stored with
/// (``CatalogEditor`` does that itself), so only the records of the changes applied are asked for.
struct FeedCollation: CatalogCollating, Sendable {
    /// The version of the collator that sorted the catalog (its keys are the server's).
    let version: String
    let sectionLabels: [String]
    private var keys: [String: (sortKey: [UInt8], section: Int)] = [:]

    /// A collation for a copy of a catalog sorted with `version` into `sectionLabels`.
    init(version: String, sectionLabels: [String]) {
        self.version = version
        self.sectionLabels = sectionLabels
    }

    /// Learns the key of an upsert's record from its cursor; false when it has none (the
    /// server's collator is not the catalog's), or one that does not name this record.
    mutating func learn(_ record: Record, cursor: String?) -> Bool {
        guard let cursor, let key = try? BrowseCursor.decode(cursor), key.id == record.id,
            sectionLabels.indices.contains(key.section)
        else { return false }
        if let known = keys[record.title], known.sortKey != key.sortKey || known.section != key.section {
            // One title, two places: the keys do not come from one collator.
            return false
        }
        keys[record.title] = (key.sortKey, key.section)
        return true
    }

    func sortKey(_ title: String) -> [UInt8] { keys[title]?.sortKey ?? [] }
    func section(for title: String) -> Int { keys[title]?.section ?? Swift.max(0, sectionLabels.count - 1) }
}
