import CatalogModel

/// One immutable part of a catalog's search index. An import writes a catalog as one segment;
/// every later change of records writes the changed records as a new small segment and marks
/// the documents they replace as deleted in the older ones (as Lucene and Tantivy do), so a
/// change costs what it changes. Merges replace several segments by one.
///
/// A segment's documents, posting chunks and blobs never change after it is written; only its
/// deleted documents grow, each deletion stamped with the change that made it.
public struct SearchSegment {
    /// Names the segment in this database for caches: never reused for another segment.
    public var key: String
    /// The engine's number for it (``SegmentInfo/number``).
    public var number: Int64
    /// The segment's index.
    public var reader: any SearchIndexReading
    /// How many documents it holds, deleted ones included.
    public var documents: Int
    /// How many of them are deleted as of the reading snapshot.
    public var deleted: Int

    /// Creates a description.
    public init(key: String, number: Int64, reader: any SearchIndexReading, documents: Int, deleted: Int) {
        self.key = key
        self.number = number
        self.reader = reader
        self.documents = documents
        self.deleted = deleted
    }
}

/// What a change did to one record, as the change log keeps it.
public enum StoredChangeKind: String, Sendable, Codable {
    /// A record was created or replaced (``StoredChange/record`` holds it).
    case upsert
    /// A record was removed.
    case delete
    /// The catalog's definition changed (title, labels, scopes, list options).
    case definition
    /// The catalog changed as a whole (an import, a new locale): a client reloads it.
    case reload
}

/// One entry of a catalog's change log: the change number, what it did, to which record, and
/// who made it when. Numbers grow by one with every change of the catalog, without gaps, in the
/// order changes were committed.
public struct StoredChange: Sendable, Equatable {
    /// The change number.
    public var number: Int
    /// What changed.
    public var kind: StoredChangeKind
    /// The record's id (nil for catalog-level changes).
    public var item: String?
    /// The record after the change as the API serves it (upserts), nil otherwise.
    public var record: [UInt8]?
    /// The record before the change (nil when it did not exist, or for catalog-level changes).
    public var previous: [UInt8]?
    /// Who made the change: a user's name, `key:NAME` for an API key, or nil for the command line.
    public var actor: String?
    /// When, ISO 8601 in UTC.
    public var time: String

    /// Creates an entry.
    public init(
        number: Int, kind: StoredChangeKind, item: String?, record: [UInt8]?, previous: [UInt8]?, actor: String?,
        time: String
    ) {
        self.number = number
        self.kind = kind
        self.item = item
        self.record = record
        self.previous = previous
        self.actor = actor
        self.time = time
    }
}

/// A record as it was removed from the catalog's live records by ``CatalogChangeWriter/remove(id:)``.
public struct RemovedRecord: Sendable {
    /// The record as stored (its JSON, browse key, categories).
    public var hit: StoredHit
    /// Its content hash.
    public var hash: UInt64
    /// The numbers of its categories.
    public var categoryNumbers: [Int]
    /// The segment and document it had, now marked deleted.
    public var segment: Int64
    public var document: Int

    /// Creates a description.
    public init(hit: StoredHit, hash: UInt64, categoryNumbers: [Int], segment: Int64, document: Int) {
        self.hit = hit
        self.hash = hash
        self.categoryNumbers = categoryNumbers
        self.segment = segment
        self.document = document
    }
}

/// A segment of a catalog as the write side sees it: its engine number and sizes.
public struct SegmentInfo: Sendable, Equatable {
    /// The engine's number for it.
    public var number: Int64
    /// Documents written in it.
    public var documents: Int
    /// Documents deleted since.
    public var deleted: Int
    /// Whether it is the catalog's base (what the last import or full merge wrote).
    public var isBase: Bool

    /// Live documents.
    public var live: Int { documents - deleted }

    /// Creates a description.
    public init(number: Int64, documents: Int, deleted: Int, isBase: Bool) {
        self.number = number
        self.documents = documents
        self.deleted = deleted
        self.isBase = isBase
    }
}

/// The engine's side of changing a catalog's records in place, inside one write transaction
/// (``CatalogWriter/beginChange(of:)``). CatalogCore's `CatalogEditor` decides what to do; the
/// engine answers narrow requests. Nothing is visible to readers until the transaction commits.
public protocol CatalogChangeWriter: AnyObject {
    /// The catalog as the transaction found it (locked against other writers of it).
    var catalog: StoredCatalog { get }
    /// The catalog's segments, the base first, then by age.
    func segments() throws -> [SegmentInfo]
    /// The live record with this id, with its hash and place, without removing it.
    func live(id: String) throws -> RemovedRecord?
    /// Removes the live record with this id from browse order, its categories and the ids, and
    /// marks its document deleted at change `change`. Returns what it was, nil when there was none.
    func remove(id: String, change: Int) throws -> RemovedRecord?
    /// Starts a new segment: the records of a builder go to it (items, posting chunks, blobs),
    /// and their places in index order, categories and ids go to the catalog's live tables.
    /// Call ``CatalogSegmentWriter/commit(documents:)`` when the builder is done.
    func beginSegment() throws -> any CatalogSegmentWriter
    /// Every live record of these segments (for a merge), in no particular order.
    func forEachLive(inSegments segments: [Int64], _ body: (StoredHit, UInt64) throws -> Void) throws
    /// Removes segments that a merge replaced: their items, postings, blobs and deletions (their
    /// records' live rows must have been removed with ``remove(id:change:)`` or moved by the merge).
    func dropSegments(_ segments: [Int64]) throws
    /// Stores the catalog's new description (counts, sections, categories, definition) and its
    /// change number; appends `log` to the change log.
    func finish(
        definition: CatalogDefinition, count: Int, sectionCounts: [Int: Int], categories: [CategoryCount],
        change: Int, log: [StoredChange]) throws
}

/// A segment being written: a sink for ``CatalogIndexSink`` writes.
public protocol CatalogSegmentWriter: CatalogIndexSink {
    /// The engine number of the segment.
    var number: Int64 { get }
    /// Adds the segment to the catalog.
    func commit(documents: Int) throws
}
