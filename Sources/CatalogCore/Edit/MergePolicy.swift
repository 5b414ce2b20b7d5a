import CatalogModel
import CatalogStorage

/// When the small segments that changes write are merged: segments fall into size classes by
/// powers of ``factor`` of their live records, and as soon as one class holds ``factor``
/// segments they become one segment of the next class (Lucene's log merge policy). So a
/// catalog has at most `factor - 1` segments per class besides its base, a search visits a
/// few segments, and each record is rewritten about once per class it climbs, so merging
/// costs a small constant per changed record.
///
/// The base segment (what the last import wrote) is not merged here: its deletions stay
/// marked until the next import writes the catalog anew.
enum MergePolicy {
    /// Segments per size class before they merge.
    static let factor = 4

    /// The size class of a segment with `live` records.
    static func level(_ live: Int) -> Int {
        var level = 0
        var size = max(1, live)
        while size >= factor {
            size /= factor
            level += 1
        }
        return level
    }

    /// Drops emptied segments and merges full size classes, smallest first.
    static func merge(
        _ change: any CatalogChangeWriter, state: inout EditState, collation: any CatalogCollating, number: Int,
        temporaryDirectory: String?
    ) throws {
        let empty = try change.segments().filter { !$0.isBase && $0.live == 0 }.map(\.number)
        if !empty.isEmpty { try change.dropSegments(empty) }
        while true {
            let others = try change.segments().filter { !$0.isBase }
            let byLevel = Dictionary(grouping: others, by: { level($0.live) })
            guard let (_, full) = byLevel.filter({ $0.value.count >= factor }).min(by: { $0.key < $1.key }) else {
                return
            }
            try merge(
                full.map(\.number), change, state: &state, collation: collation, number: number,
                temporaryDirectory: temporaryDirectory)
        }
    }

    /// Writes the live records of `segments` as one new segment and drops them.
    static func merge(
        _ segments: [Int64], _ change: any CatalogChangeWriter, state: inout EditState,
        collation: any CatalogCollating, number: Int, temporaryDirectory: String?
    ) throws {
        var records: [(hit: StoredHit, record: Record)] = []
        try change.forEachLive(inSegments: segments) { hit, _ in records.append((hit, try hit.record())) }
        let builder = try CatalogIndexBuilder(
            definition: state.definition, collation: StoredKeys(records, collation: collation),
            existingCategories: state.categoryNumbers, temporaryDirectory: temporaryDirectory)
        for (hit, record) in records {
            if let removed = try change.remove(id: hit.id, change: number) { state.remove(removed) }
            try builder.add(record)
        }
        if builder.count > 0 {
            let segment = try change.beginSegment()
            let built = try builder.finish(into: segment)
            try segment.commit(documents: built.count)
            state.add(built)
        }
        try change.dropSegments(segments)
    }
}

/// The collation of a merge: the records it rewrites keep the sort keys and sections they were
/// stored with. The editor only runs with the collation version the catalog was sorted with, so
/// these are the keys the collator would make again; reusing them costs a merge no collator call,
/// and lets a copy of a catalog that has no collator of the locale (an offline snapshot brought up
/// to date by the client library) merge its segments too.
struct StoredKeys: CatalogCollating {
    private let collation: any CatalogCollating
    private let keys: [String: (sortKey: [UInt8], section: Int)]

    init(_ records: [(hit: StoredHit, record: Record)], collation: any CatalogCollating) {
        self.collation = collation
        var keys: [String: (sortKey: [UInt8], section: Int)] = [:]
        for (hit, record) in records {
            if let key = hit.key { keys[record.title] = (key.sortKey, key.section) }
        }
        self.keys = keys
    }

    var version: String { collation.version }
    var sectionLabels: [String] { collation.sectionLabels }
    func sortKey(_ title: String) -> [UInt8] { keys[title]?.sortKey ?? collation.sortKey(title) }
    func section(for title: String) -> Int { keys[title]?.section ?? collation.section(for: title) }
}
