import Synchronization

/// Posting chunks already read, shared by every reader of one database in this process.
///
/// A chunk is keyed by its segment (``CatalogStorage/SearchSegment``), whose number is never
/// reused and whose chunks never change (a change of records writes a new segment), so a cached
/// chunk is never stale; a search of a catalog that was just searched reads no postings at
/// all. Chunks known to be absent are kept too. Eviction is by generations, a cheap
/// approximation of least-recently-used: when the current generation holds half the budget it
/// becomes the old one and the previous old one is dropped; a hit in the old generation moves
/// back to the current one.
final class PostingCache: Sendable {
    struct Key: Hashable, Sendable {
        var segment: Int64
        var term: UInt32
        var chunk: Int32
    }

    private struct State {
        var current: [Key: [UInt8]?] = [:]
        var previous: [Key: [UInt8]?] = [:]
        var bytes = 0
    }

    /// Bytes of chunks kept (both generations together).
    let budget: Int
    private let state = Mutex(State())

    init(budget: Int) {
        self.budget = budget
    }

    /// The chunk if it was read before: `.some(nil)` when it is known not to exist.
    func chunk(_ key: Key) -> [UInt8]?? {
        state.withLock { state in
            if let found = state.current[key] { return found }
            guard let found = state.previous.removeValue(forKey: key) else { return nil }
            Self.insert(found, for: key, into: &state, budget: budget)
            return found
        }
    }

    /// Keeps chunks that were read (nil: known not to exist).
    func store(_ chunks: [(Key, [UInt8]?)]) {
        guard budget > 0 else { return }
        state.withLock { state in
            for (key, bytes) in chunks { Self.insert(bytes, for: key, into: &state, budget: budget) }
        }
    }

    private static func insert(_ bytes: [UInt8]?, for key: Key, into state: inout State, budget: Int) {
        let cost = (bytes?.count ?? 0) + 48
        if state.bytes + cost > budget / 2 {
            state.previous = state.current
            state.current = [:]
            state.bytes = 0
        }
        state.current[key] = bytes
        state.bytes += cost
    }
}
