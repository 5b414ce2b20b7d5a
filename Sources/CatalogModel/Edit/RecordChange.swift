/// One change of a catalog's records, as a batch (`POST …/items`) or `catalog put` carries it:
/// a record to store under its id (new, or replacing the record with that id), or an id to remove.
///
/// ```swift
/// let changes = try RecordChangeReader.batch(body, definition: definition)
/// for change in changes {
///     switch change {
///     case .upsert(let record): print("store", record.id)
///     case .delete(let id): print("remove", id)
///     }
/// }
/// ```
public enum RecordChange: Sendable, Equatable {
    /// Store this record: a new one, or in place of the record with the same id.
    case upsert(Record)
    /// Remove the record with this id.
    case delete(id: String)

    /// The id of the record the change is about.
    public var id: String {
        switch self {
        case .upsert(let record): record.id
        case .delete(let id): id
        }
    }
}
