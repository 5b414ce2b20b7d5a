import CatalogModel
import CatalogStorage
import Foundation

/// Merges a catalog's segments apart from the edits that write them, the same on every engine:
/// an edit only adds its segment and marks deletions (``CatalogEditor``); the server's
/// maintenance thread (and the command line, and the client library's offline sync after it
/// applies changes) then runs the merges ``MergePolicy`` asks for.
///
/// A merge reads the live records of the segments it replaces from a consistent snapshot and
/// builds the new segment in memory without the write lock. It then writes it in a short
/// transaction that first checks that none of those segments changed meanwhile (no deletion
/// since the snapshot; records in a segment never change otherwise): only then do their records'
/// live rows move to the new segment and the old segments go. If one changed, the merge is
/// built again from a new snapshot (and after a few tries, inside one transaction). Readers see
/// the old segments until the merge commits and the new one after; both answer every search
/// the same. A merge changes no record, so it takes no change number and logs nothing.
///
/// ```swift
/// _ = try CatalogEditor.apply(edits, to: "books", in: database, collation: collation)
/// let merges = try SegmentMerger.mergeAll(catalog: "books", in: database)
/// ```
public enum SegmentMerger {
    /// What one merge did.
    public struct Step: Sendable, Equatable {
        /// How many segments it replaced (or dropped, when they had no live record left).
        public var segments: Int
        /// How many live records it wrote anew.
        public var records: Int
        /// Seconds spent reading and building, outside the write transaction.
        public var buildSeconds: Double
        /// Seconds of the write transaction.
        public var writeSeconds: Double
    }

    /// The most merges ``mergeAll(catalog:in:temporaryDirectory:)`` runs in one call, so edits
    /// that keep coming cannot keep it going.
    static let maximumSteps = 64

    /// How often a merge is built again from a new snapshot before it runs inside one
    /// transaction instead.
    static let attempts = 3

    /// Runs the merges the policy asks for, each in its own write transaction, until none is
    /// left. A catalog removed meanwhile needs none.
    ///
    /// - Returns: the merges, in the order they ran.
    /// - Throws: ``StorageError`` from the engine; the catalog is then as the last merge left it.
    public static func mergeAll(catalog id: String, in database: any CatalogDatabase, temporaryDirectory: String? = nil)
        throws -> [Step]
    {
        var steps: [Step] = []
        while steps.count < maximumSteps,
            let step = try mergeOnce(catalog: id, in: database, temporaryDirectory: temporaryDirectory)
        {
            steps.append(step)
        }
        return steps
    }

    /// Merges every segment but the base into one (a catalog of many changes, at a quiet time).
    ///
    /// - Returns: the merge, nil when there was at most one such segment.
    @discardableResult
    public static func compact(catalog id: String, in database: any CatalogDatabase, temporaryDirectory: String? = nil)
        throws -> Step?
    {
        var last: Step?
        // Emptied segments are dropped first, then the rest merge.
        while let step = try mergeOnce(
            catalog: id, in: database, temporaryDirectory: temporaryDirectory, compact: true)
        {
            last = step
        }
        return last
    }

    /// Runs the first merge the policy asks for, nil when it asks for none.
    ///
    /// - Parameters:
    ///   - compact: merge every segment but the base into one.
    ///   - afterReading: called between a snapshot's build and its write transaction (tests
    ///     change the catalog there).
    ///   - interrupt: called inside the write transaction once the old segments' live rows are
    ///     gone and before the new segment is written (tests throw there, as a crash would stop
    ///     the merge).
    static func mergeOnce(
        catalog id: String, in database: any CatalogDatabase, temporaryDirectory: String?, compact: Bool = false,
        afterReading: () throws -> Void = {}, interrupt: () throws -> Void = {}
    ) throws -> Step? {
        for _ in 0..<attempts {
            let started = DispatchTime.now().uptimeNanoseconds
            guard
                let plan = try database.read({
                    try prepare(id, $0, temporaryDirectory: temporaryDirectory, compact: compact)
                })
            else {
                return nil
            }
            let built = DispatchTime.now().uptimeNanoseconds
            try afterReading()
            let committed = try database.write { try commit(plan, $0, interrupt: interrupt) }
            if committed {
                return step(plan, started: started, built: built)
            }
        }
        // Edits kept changing the segments: build and write in one transaction.
        let started = DispatchTime.now().uptimeNanoseconds
        return try database.write { writer -> Step? in
            guard let plan = try prepare(id, writer.reader, temporaryDirectory: temporaryDirectory, compact: compact)
            else { return nil }
            guard try commit(plan, writer, interrupt: interrupt) else {
                throw StorageError(.engine, "the segments of catalog \"\(id)\" changed inside their own transaction")
            }
            return step(plan, started: started, built: started)
        }
    }

    private static func step(_ plan: Plan, started: UInt64, built: UInt64) -> Step {
        let done = DispatchTime.now().uptimeNanoseconds
        return Step(
            segments: plan.segments.count, records: plan.hits.count, buildSeconds: Double(built - started) / 1e9,
            writeSeconds: Double(done - built) / 1e9)
    }

    /// A merge built from one snapshot.
    private struct Plan {
        var catalog: String
        /// The catalog's data version as read (an import since replaces every segment).
        var versionKey: String
        /// The segments it replaces, as read.
        var segments: [SegmentInfo]
        /// Their live records.
        var hits: [StoredHit]
        /// The new segment, nil when they have no live record.
        var built: (sink: BufferedIndexSink, catalog: IndexedCatalog)?
    }

    /// Reads what the policy would merge and builds the new segment; nil when nothing is to merge.
    private static func prepare(_ id: String, _ reader: any CatalogReader, temporaryDirectory: String?, compact: Bool)
        throws -> Plan?
    {
        guard let catalog = try reader.catalog(id) else { return nil }
        let stored = try reader.searchSegments(of: catalog)
        let segments = stored.enumerated().map { index, segment in
            SegmentInfo(
                number: segment.number, documents: segment.documents, deleted: segment.deleted, isBase: index == 0)
        }
        guard let chosen = MergePolicy.next(segments, compact: compact) else { return nil }
        var hits: [StoredHit] = []
        for segment in stored where chosen.contains(segment.number) {
            let deleted = Set(try segment.reader.deletedDocuments(since: -1).map(Int.init))
            let live = (0..<segment.documents).filter { !deleted.contains($0) }
            var start = 0
            while start < live.count {
                let end = min(live.count, start + 512)
                hits += try segment.reader.hits(documents: Array(live[start..<end]))
                start = end
            }
        }
        let plan = Plan(
            catalog: id, versionKey: catalog.versionKey, segments: segments.filter { chosen.contains($0.number) },
            hits: hits, built: nil)
        guard !hits.isEmpty else { return plan }
        var records: [Record] = []
        var keys: [String: BrowseKey] = [:]
        for hit in hits {
            guard let key = hit.key else { throw StorageError(.engine, "a stored record came without its sort key") }
            let record = try hit.record()
            keys[record.title] = key
            records.append(record)
        }
        let builder = try CatalogIndexBuilder(
            definition: catalog.definition,
            collation: StoredKeys(keys, version: catalog.collationVersion, sectionLabels: catalog.sectionLabels),
            existingCategories: Dictionary(
                catalog.categories.map { ($0.name, $0.id) }, uniquingKeysWith: { first, _ in first }),
            temporaryDirectory: temporaryDirectory)
        for record in records { try builder.add(record) }
        let sink = BufferedIndexSink()
        let built = try builder.finish(into: sink)
        var result = plan
        result.built = (sink, built)
        return result
    }

    /// Writes a merge if its segments are as it read them; false when one changed.
    private static func commit(_ plan: Plan, _ writer: any CatalogWriter, interrupt: () throws -> Void) throws -> Bool {
        let change: any CatalogChangeWriter
        do {
            change = try writer.beginChange(of: plan.catalog)
        } catch let error as StorageError where error.code == .catalogNotFound {
            return true
        }
        guard change.catalog.versionKey == plan.versionKey else { return false }
        let current = Dictionary(try change.segments().map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
        for segment in plan.segments {
            guard let now = current[segment.number], now.deleted == segment.deleted, !now.isBase || segment.isBase
            else { return false }
        }
        let numbers = Set(plan.segments.map(\.number))
        for hit in plan.hits {
            guard let removed = try change.remove(id: hit.id, change: change.catalog.change),
                numbers.contains(removed.segment), removed.document == hit.document
            else {
                throw StorageError(.engine, "record \"\(hit.id.prefix(200))\" is not where its segment says")
            }
        }
        try interrupt()
        if let (sink, built) = plan.built {
            let segment = try change.beginSegment()
            try sink.replay(into: segment)
            try segment.commit(documents: built.count)
        }
        try change.dropSegments(plan.segments.map(\.number))
        if plan.built != nil { try writer.loadWrittenIndexes(of: plan.catalog) }
        return true
    }
}

/// The collation of a merge: the records it rewrites keep the sort keys and sections they were
/// stored with. The editor only runs with the collation version the catalog was sorted with, so
/// these are the keys the collator would make again; reusing them costs a merge no collator
/// call, and lets a copy of a catalog that has no collator of its locale (an offline snapshot
/// brought up to date by the client library) merge its segments too.
struct StoredKeys: CatalogCollating {
    private let keys: [String: BrowseKey]
    let version: String
    let sectionLabels: [String]

    /// Keys by title: every record the merge writes has its stored key here.
    init(_ keys: [String: BrowseKey], version: String, sectionLabels: [String]) {
        self.keys = keys
        self.version = version
        self.sectionLabels = sectionLabels
    }

    func sortKey(_ title: String) -> [UInt8] { keys[title]?.sortKey ?? Array(title.utf8) }
    func section(for title: String) -> Int { keys[title]?.section ?? max(0, sectionLabels.count - 1) }
}
