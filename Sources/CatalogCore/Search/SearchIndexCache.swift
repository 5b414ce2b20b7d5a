import CatalogStorage
import Synchronization

/// Loaded search indexes, shared by every reader in the process: a catalog's lexicon is read
/// once per version, not once per search. Keyed by ``StoredCatalog/versionKey``, which changes
/// with every import, so a stale index is never used; the least recently used go first.
public final class SearchIndexCache: Sendable {
    /// The process's cache.
    public static let shared = SearchIndexCache(capacity: 8)

    private struct Entry {
        var index: CatalogSearchIndex
        var used: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var clock: UInt64 = 0
    }

    private let capacity: Int
    private let state = Mutex(State())

    /// Creates a cache holding up to `capacity` catalogs.
    public init(capacity: Int) {
        self.capacity = capacity
    }

    /// The index of `catalog`, loaded through `reader` when not cached.
    public func index(of catalog: StoredCatalog, reader: any SearchIndexReading) throws -> CatalogSearchIndex {
        let key = catalog.versionKey
        let cached: CatalogSearchIndex? = state.withLock { state in
            state.clock += 1
            guard var entry = state.entries[key] else { return nil }
            entry.used = state.clock
            state.entries[key] = entry
            return entry.index
        }
        if let cached { return cached }
        let loaded = try CatalogSearchIndex(reader: reader)
        return state.withLock { state in
            if let raced = state.entries[key] { return raced.index }
            state.clock += 1
            state.entries[key] = Entry(index: loaded, used: state.clock)
            while state.entries.count > capacity, let oldest = state.entries.min(by: { $0.value.used < $1.value.used })
            {
                state.entries[oldest.key] = nil
            }
            return loaded
        }
    }
}
