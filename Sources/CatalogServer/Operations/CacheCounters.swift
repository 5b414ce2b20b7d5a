import Synchronization

/// Hits and misses of one cache, for the metrics: atomics the cache moves and the registry reads.
final class CacheCounters: Sendable {
    let hits = Atomic<Int>(0)
    let misses = Atomic<Int>(0)

    func hit() { hits.add(1, ordering: .relaxed) }
    func miss() { misses.add(1, ordering: .relaxed) }
}
