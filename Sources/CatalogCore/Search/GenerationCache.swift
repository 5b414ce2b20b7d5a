/// A cache bounded by a budget of bytes, in two generations: new entries go into the current
/// one; when it holds half the budget it becomes the previous one and the older entries go. An
/// entry found in the previous generation moves back into the current one, so what is used
/// stays and what is not is dropped within two turns, with no per-entry bookkeeping.
///
/// Not synchronised: its owner keeps it in a `Mutex`.
struct GenerationCache<Key: Hashable, Value> {
    private var current: [Key: Value] = [:]
    private var previous: [Key: Value] = [:]
    private var currentBytes = 0
    private var previousBytes = 0
    /// The most bytes both generations hold together.
    let budget: Int
    /// Lookups that found their value, and those that did not.
    private(set) var hits = 0
    private(set) var misses = 0

    init(budget: Int) {
        self.budget = budget
    }

    /// The entries kept.
    var count: Int { current.count + previous.count }

    /// The bytes counted for the entries kept (an upper bound: an entry that moved back from the
    /// previous generation is counted in both until that one goes).
    var bytes: Int { currentBytes + previousBytes }

    /// The value for `key`, if cached; `cost` gives a found value's size when it moves back.
    mutating func value(for key: Key, cost: (Value) -> Int) -> Value? {
        if let hit = current[key] {
            hits += 1
            return hit
        }
        guard let hit = previous.removeValue(forKey: key) else {
            misses += 1
            return nil
        }
        hits += 1
        insert(hit, for: key, cost: cost(hit))
        return hit
    }

    /// Keeps `value` for `key`, counting `cost` bytes (plus the entry's own).
    mutating func insert(_ value: Value, for key: Key, cost: Int) {
        let size = cost + 32
        if currentBytes + size > budget / 2 {
            previous = current
            previousBytes = currentBytes
            current = [:]
            currentBytes = 0
        }
        if current.updateValue(value, forKey: key) == nil { currentBytes += size }
    }
}
