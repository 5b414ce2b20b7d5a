import CatalogModel
import CatalogStorage

/// What a record's change log says about it.
public enum RecordHistory {
    /// What a record was right after a change.
    public enum State: Sendable, Equatable {
        /// The log does not reach back that far (or never knew the record).
        case unknown
        /// It did not exist.
        case absent
        /// It was this.
        case present(Record)
    }

    /// What record `item` was right after change `number`: the newest change of it at or before
    /// `number` says; without one, the oldest change after it says what it was before.
    public static func state(of item: String, at number: Int, in catalog: StoredCatalog, reader: any CatalogReader)
        throws -> State
    {
        let history = try reader.history(of: catalog, item: item, limit: CatalogLimits.maxPageSize)
        if let entry = history.first(where: { $0.number <= number }) {
            guard let json = entry.record else { return .absent }
            return .present(try StoredRecord.decode(json))
        }
        if let later = history.last, later.number > number {
            guard let json = later.previous else { return .absent }
            return .present(try StoredRecord.decode(json))
        }
        return .unknown
    }
}
