/// One change of a catalog's records.
public enum RecordChange: Sendable, Equatable {
    case upsert(Record)
    case delete(id: String)
}
