/// One bad value of a record change: where it is in the request body and what is wrong with it.
///
/// ```swift
/// RecordProblem(pointer: "/3/upsert/price", message: "price must be a number ≥ 0")
/// ```
public struct RecordProblem: Sendable, Hashable, CustomStringConvertible {
    /// An RFC 6901 JSON pointer into the request body: `/3/upsert/price` in a batch, `/price` in
    /// one record, `/fields/weight` for an extra field, `""` for the whole body.
    public var pointer: String
    /// What is wrong, in a few words that name the field and what is wanted (`currency "EURO" is
    /// not an ISO 4217 code`).
    public var message: String

    /// Creates a problem.
    public init(pointer: String, message: String) {
        self.pointer = pointer
        self.message = message
    }

    /// `/price: price must be a number ≥ 0`; the message alone for the whole body.
    public var description: String {
        pointer.isEmpty ? message : "\(pointer): \(message)"
    }
}
