/// A cache bounded by a budget of bytes, in two generations: new entries go into the current
/// one; when it holds half the budget it becomes the previous one and the older entries go. An
/// entry found in the previous generation moves back into the current one, so what is used
/// stays and what is not is dropped within two turns, with no per-entry bookkeeping.
///
/// Not synchronised: its owner keeps it in a `Mutex`.
struct GenerationCache<Key: Hashable, Value> {
    private var current: [Key: Value] = [:]
    private var previous: [Key: Value] = [:]
    private var bytes = 0
    /// The most bytes both generations hold together.
    let budget: Int

    init(budget: Int) {
        self.budget = budget
    }

    /// The value for `key`, if cached; `cost` gives a found value's size when it moves back.
    mutating func value(for key: Key, cost: (Value) -> Int) -> Value? {
        if let hit = current[key] { return hit }
        guard let hit = previous.removeValue(forKey: key) else { return nil }
        insert(hit, for: key, cost: cost(hit))
        return hit
    }

    /// Keeps `value` for `key`, counting `cost` bytes (plus the entry's own).
    mutating func insert(_ value: Value, for key: Key, cost: Int) {
        let size = cost + 32
        if bytes + size > budget / 2 {
            previous = current
            current = [:]
            bytes = 0
        }
        if current.updateValue(value, forKey: key) == nil { bytes += size }
    }
}
