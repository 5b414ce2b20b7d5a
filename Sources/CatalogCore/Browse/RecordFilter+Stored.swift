import CatalogModel
import CatalogStorage

/// A ``RecordFilter`` (an API key's) applied to what engines store: records as their JSON, and
/// the change log. The one rule every answer to a filtered key follows (``FilteredCatalogReader``).
extension RecordFilter {
    /// Whether a stored record (its JSON) passes the filter; a record that does not read back
    /// passes nothing.
    public func passes(json: [UInt8]) -> Bool {
        guard let record = try? Record(json: json) else { return false }
        return matches(record)
    }

    /// Whether a stored hit passes the filter: its categories are checked first, without decoding
    /// the record.
    public func passes(_ hit: StoredHit) -> Bool {
        guard categories.allSatisfy(hit.categories.contains) else { return false }
        return passes(json: hit.json)
    }

    /// A change of the log as someone who sees only the records the filter passes sees it, or
    /// nil when it is none of theirs:
    ///
    /// - an upsert whose record passes stays an upsert;
    /// - an upsert whose record no longer passes, but did before it, is a deletion (the record
    ///   left what they see), without the record;
    /// - a deletion of a record that passed stays a deletion;
    /// - any other change of a record is left out; changes of the catalog itself (`definition`,
    ///   `reload`) stay.
    public func seen(_ change: StoredChange) -> StoredChange? {
        guard change.item != nil else { return change }
        let before = change.previous.map(passes(json:)) ?? false
        switch change.kind {
        case .upsert:
            if let record = change.record, passes(json: record) { return change }
            guard before else { return nil }
            var deletion = change
            deletion.kind = .delete
            deletion.record = nil
            return deletion
        case .delete:
            return before ? change : nil
        default:
            return change
        }
    }
}
