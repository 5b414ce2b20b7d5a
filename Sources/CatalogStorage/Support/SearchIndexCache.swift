import Synchronization

/// What one database keeps in memory of its catalogs' search indexes: a catalog's lexicon is
/// loaded once per version, not once per search, and a category's list of positions is worked
/// out once. Each database owns one and its readers hand it out (``CatalogReader/indexCache``),
/// so two databases never share entries.
///
/// Keyed by ``StoredCatalog/versionKey``, which changes with every import, so a stale entry is
/// never used; the least recently used go first. The values are CatalogCore's (a loaded index);
/// storage only keeps them.
///
/// ```swift
/// let index = try reader.indexCache.index(of: catalog) { try CatalogSearchIndex(reader: indexReader) }
/// ```
public final class SearchIndexCache: Sendable {
    private let indexes: Mutex<Shelf>
    private let lists: Mutex<Shelf>
    /// The loads under way, by key: searches that all find one index missing (the first of each
    /// worker after a start or an import) wait for the one load instead of each loading a copy
    /// of tens of megabytes at once, while a search that needs another index (another catalog's)
    /// loads it beside them or finds it cached.
    private let loads = Mutex<[String: (gate: LoadGate, users: Int)]>([:])
    /// Where the large parts of the loaded indexes are kept as mapped files; nil: on the heap.
    public let files: IndexFiles?
    /// Whether a write loads the indexes it makes (``loadForWrite(key:load:)``): a server's
    /// cache, whose next search would otherwise load them while its readers wait.
    public let loadsWrittenIndexes: Bool
    /// The keys the write under way loaded: kept when it commits, forgotten before it rolls
    /// back (``endWrite(committed:)``), since the numbers of a write that rolled back are handed
    /// out again.
    private let written = Mutex<[String]>([])

    /// Creates a cache holding up to `indexes` loaded segment indexes and deletion sets and up to
    /// `categoryLists` category lists, keeping the indexes' large parts in `files` (nil: on the
    /// heap); with `loadsWrittenIndexes`, writes load the indexes they make.
    public init(
        indexes: Int = 64, categoryLists: Int = 32, files: IndexFiles? = nil, loadsWrittenIndexes: Bool = false
    ) {
        self.indexes = Mutex(Shelf(capacity: indexes))
        self.lists = Mutex(Shelf(capacity: categoryLists))
        self.files = files
        self.loadsWrittenIndexes = loadsWrittenIndexes
    }

    /// How many loaded indexes the cache holds.
    public var indexCount: Int { indexes.withLock { $0.entries.count } }

    /// Whether a loaded index (or a deletion set) is cached under `key`, without marking it used.
    public func holds(_ key: String) -> Bool { indexes.withLock { $0.entries[key] != nil } }

    /// The loaded index of `catalog`, made by `load` when it is not cached (or was cached as
    /// another type).
    public func index<Index: Sendable>(of catalog: StoredCatalog, load: () throws -> Index) throws -> Index {
        try value(for: catalog.versionKey, load: load)
    }

    /// The value cached under `key` (a segment's loaded index, its deletions), made by `load`
    /// when it is not cached (or was cached as another type). One value is loaded at a time;
    /// a thread that finds its key missing while another loads it waits and takes that one.
    public func value<Value: Sendable>(for key: String, load: () throws -> Value) throws -> Value {
        if let cached = indexes.withLock({ $0.take(key) }) as? Value { return cached }
        let gate = loads.withLock { loads in
            let entry = loads[key] ?? (LoadGate(), 0)
            loads[key] = (entry.gate, entry.users + 1)
            return entry.gate
        }
        defer {
            loads.withLock { loads in
                guard let entry = loads[key] else { return }
                loads[key] = entry.users > 1 ? (entry.gate, entry.users - 1) : nil
            }
        }
        return try gate.lock.withLock { _ throws -> Value in
            try Self.value(for: key, on: indexes, make: load)
        }
    }

    /// The value for `key` as a write transaction made it (a new segment's loaded index), made
    /// by `load` inside the transaction: readers find it loaded from the moment the write
    /// commits. The write's engine calls ``endWrite(committed:)`` while it still holds the write
    /// lock, so a key of a write that rolled back is gone before another write can reuse it.
    public func loadForWrite<Value: Sendable>(key: String, load: () throws -> Value) throws -> Value {
        var loaded = false
        let value = try value(for: key) {
            loaded = true
            return try load()
        }
        if loaded { written.withLock { $0.append(key) } }
        return value
    }

    /// Ends a write transaction: what it loaded (``loadForWrite(key:load:)``) stays when it
    /// committed and is forgotten when it did not. Engines call it before they roll back.
    public func endWrite(committed: Bool) {
        let keys = written.withLock { keys in
            defer { keys.removeAll() }
            return keys
        }
        guard !committed, !keys.isEmpty else { return }
        // With what was worked out from them (a segment's "/deleted", "/fields").
        let forgotten = { (key: String) in keys.contains { key == $0 || key.hasPrefix($0 + "/") } }
        indexes.withLock { $0.entries = $0.entries.filter { !forgotten($0.key) } }
        lists.withLock { $0.entries = $0.entries.filter { !forgotten($0.key) } }
    }

    /// What the threads that need one key's value while it is loaded wait on.
    private final class LoadGate: Sendable {
        let lock = Mutex(())
    }

    /// The positions of category `category`'s records in `catalog`'s index order, made by
    /// `compute` when not cached.
    public func categoryPositions(
        of catalog: StoredCatalog, category: Int, compute: () throws -> [UInt32]
    ) throws -> [UInt32] {
        try Self.value(for: catalog.versionKey + "/" + String(category), on: lists, make: compute)
    }

    /// A small value worked out from a whole catalog version (what a record filter passes of it),
    /// made by `compute` when not cached; kept with the category lists. `key` starts with the
    /// version's ``StoredCatalog/versionKey``.
    public func listValue<Value: Sendable>(for key: String, compute: () throws -> Value) throws -> Value {
        try Self.value(for: key, on: lists, make: compute)
    }

    private static func value<Value: Sendable>(
        for key: String, on shelf: borrowing Mutex<Shelf>, make: () throws -> Value
    ) throws -> Value {
        if let cached = shelf.withLock({ $0.take(key) }) as? Value { return cached }
        let made = try make()
        return shelf.withLock { $0.put(made, for: key) as? Value } ?? made
    }

    /// Entries with a use counter; the one used longest ago goes first when it is full.
    private struct Shelf: Sendable {
        let capacity: Int
        var entries: [String: (value: any Sendable, used: UInt64)] = [:]
        var clock: UInt64 = 0

        init(capacity: Int) {
            self.capacity = capacity
        }

        /// The value for `key`, marked as just used.
        mutating func take(_ key: String) -> (any Sendable)? {
            clock += 1
            guard let entry = entries[key] else { return nil }
            entries[key] = (entry.value, clock)
            return entry.value
        }

        /// Keeps `value` unless another thread put one first; returns the one kept.
        mutating func put(_ value: any Sendable, for key: String) -> any Sendable {
            if let raced = entries[key] { return raced.value }
            clock += 1
            entries[key] = (value, clock)
            while entries.count > capacity, let oldest = entries.min(by: { $0.value.used < $1.value.used }) {
                entries[oldest.key] = nil
            }
            return value
        }
    }
}
