/// Chunk visits the counts of one search may still make, shared by its segments' evaluations.
final class CountBudget {
    var remaining: Int

    /// A count's chunk visit costs one more for every this many term postings it reads there
    /// (``Evaluation/count(covering:_:)``).
    static let readsPerVisit = 16

    init(_ remaining: Int) {
        self.remaining = remaining
    }
}
