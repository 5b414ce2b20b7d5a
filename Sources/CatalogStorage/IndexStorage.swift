import CatalogModel
import Foundation

/// Sort keys and section labels for a catalog's locale, supplied by whoever writes records
/// (the ICU-backed `CatalogCollation` target); reading a catalog never needs them, because sort
/// keys and sections are stored.
public protocol CatalogCollating {
    /// The collator's version: sort keys are only comparable within one version.
    var version: String { get }
    /// Every label of the locale's index, in order (the last one is the overflow bucket "#").
    var sectionLabels: [String] { get }
    /// The collation key of a title.
    func sortKey(_ title: String) -> [UInt8]
    /// The index of the label a title is filed under.
    func section(for title: String) -> Int
}

/// Where a built catalog goes: the engine's side of an import. The builder calls these in
/// order: every item (by ascending document number, interleaved with the posting chunks of
/// each 65,536 documents); then, when the engine asks for them (``wantsOrderEntries``), every
/// record's place in index order, in each category and by id, each already in its key's order;
/// then the named blobs.
public protocol CatalogIndexSink: AnyObject {
    /// Stores one record.
    func write(item: IndexedItem) throws
    /// Stores one posting chunk of a term (chunks of one term arrive in ascending order).
    func write(postingChunk: [UInt8], term: UInt32, chunk: Int) throws
    /// Stores a named blob of the search index (the lexicon, per-document attributes).
    func write(blob: [UInt8], named name: String) throws

    /// Whether the engine keeps index order, category membership and ids in tables of its own
    /// that it wants written in key order (an ordered insert into a B-tree is an append; the
    /// same rows in document order are a million random inserts). False by default: the engine
    /// indexes the items itself.
    var wantsOrderEntries: Bool { get }
    /// Stores a record's place in index order; every record, in index order.
    func write(orderEntry: OrderEntry) throws
    /// Stores a record's place in a category; by category number, then index order.
    func write(categoryEntry: OrderEntry, category: Int) throws
    /// Stores a record's id and content hash; every record, in the byte order of the ids.
    func write(idEntry id: String, document: Int, hash: UInt64) throws
}

extension CatalogIndexSink {
    public var wantsOrderEntries: Bool { false }
    public func write(orderEntry: OrderEntry) throws {}
    public func write(categoryEntry: OrderEntry, category: Int) throws {}
    public func write(idEntry id: String, document: Int, hash: UInt64) throws {}
}

/// A record's place in index order: its key there and its document number.
public struct OrderEntry: Sendable {
    /// Its key in index order.
    public var key: BrowseKey
    /// Its number in search order.
    public var document: Int

    /// Creates an entry.
    public init(key: BrowseKey, document: Int) {
        self.key = key
        self.document = document
    }
}

/// One record as an engine stores it.
public struct IndexedItem: Sendable {
    /// Its number in search order (rank length, collation, id): posting lists refer to it.
    public var document: Int
    /// The record's id.
    public var id: String
    /// Its section's index in ``IndexedCatalog/sectionLabels``.
    public var section: Int
    /// The collation key of its title.
    public var sortKey: [UInt8]
    /// Its position in index order (section, collation key, id), from 0.
    public var position: Int
    /// The fields a result list shows: highlights are computed on them without decoding the
    /// record.
    public var title: String
    public var subtitle: String?
    public var categories: [String]
    /// The numbers of its categories, in the order of ``categories``.
    public var categoryNumbers: [Int]
    /// The featured rank, if any.
    public var featured: Int?
    /// The price as a number, as engines keep it for ranges and order (``price(_:)``); the
    /// record's JSON has it exactly.
    public var price: Double?
    /// A hash of the record's content, to see what a re-import changed.
    public var hash: UInt64
    /// The record as the API answers with it (``Record`` written with ``JSONOutput``).
    public var json: [UInt8]

    /// Creates an item.
    public init(
        document: Int, id: String, section: Int, sortKey: [UInt8], position: Int, title: String, subtitle: String?,
        categories: [String], categoryNumbers: [Int], featured: Int?, price: Double?, hash: UInt64, json: [UInt8]
    ) {
        self.categoryNumbers = categoryNumbers
        self.document = document
        self.id = id
        self.section = section
        self.sortKey = sortKey
        self.position = position
        self.title = title
        self.subtitle = subtitle
        self.categories = categories
        self.featured = featured
        self.price = price
        self.hash = hash
        self.json = json
    }
}

extension IndexedItem {
    /// A record's price as engines keep it: the nearest `Double`.
    public static func price(_ price: Decimal?) -> Double? {
        price.map { NSDecimalNumber(decimal: $0).doubleValue }
    }
}

/// What an import built, for the catalog's own row.
public struct IndexedCatalog: Sendable {
    /// The definition as stored (categories numbered).
    public var definition: CatalogDefinition
    /// How many records there are.
    public var count: Int
    /// Every label of the locale's index.
    public var sectionLabels: [String]
    /// Non-empty sections: label index and record count, in order.
    public var sections: [(position: Int, count: Int)]
    /// Categories: number, label, image, display position and record count.
    public var categories: [CategoryCount]
    /// Display position of each category, parallel to ``categories``.
    public var categoryPositions: [Int]
    /// The collator version the sort keys were made with.
    public var collationVersion: String

    /// Creates the description.
    public init(
        definition: CatalogDefinition, count: Int, sectionLabels: [String], sections: [(position: Int, count: Int)],
        categories: [CategoryCount], categoryPositions: [Int], collationVersion: String
    ) {
        self.definition = definition
        self.count = count
        self.sectionLabels = sectionLabels
        self.sections = sections
        self.categories = categories
        self.categoryPositions = categoryPositions
        self.collationVersion = collationVersion
    }
}

/// The questions a search asks an engine about one catalog: every engine answers them from
/// what `CatalogIndexBuilder` (CatalogCore) wrote, and `CatalogSearcher` does everything else, so every
/// engine (and an offline snapshot) ranks, counts and pages the same way.
///
/// Like the stores, a reader belongs to one thread at a time.
public protocol SearchIndexReading: AnyObject {
    /// One posting chunk of a term, or nil when the term has no documents in that chunk.
    func postingChunk(term: UInt32, chunk: Int) throws -> [UInt8]?
    /// Several terms' posting chunks of one chunk number (the terms without documents there are
    /// left out). A requirement, so an engine with a round trip per query answers them together;
    /// the default asks ``postingChunk(term:chunk:)`` for each.
    func postingChunks(terms: [UInt32], chunk: Int) throws -> [UInt32: [UInt8]]
    /// A named blob of the index , or nil.
    func blob(named name: String) throws -> [UInt8]?
    /// Hands a named blob to `write` in pieces, in order; false when there is none. An engine
    /// that can read a blob a piece at a time never holds all of it (a lexicon is tens of
    /// megabytes); the default reads it whole with ``blob(named:)``.
    func readBlob(named name: String, into write: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool
    /// The records with these document numbers, in the order given (missing ones left out).
    func hits(documents: [Int]) throws -> [StoredHit]
    /// The titles of these documents, in the order given.
    func titles(documents: [Int]) throws -> [String]
    /// The ids of these documents, in the order given (`""` for a missing one).
    func ids(documents: [Int]) throws -> [String]
    /// The documents deleted after change `since` (up to the reading snapshot), in any order.
    func deletedDocuments(since change: Int) throws -> [UInt32]
}

extension SearchIndexReading {
    public func readBlob(named name: String, into write: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        guard let bytes = try blob(named: name) else { return false }
        try bytes.withUnsafeBytes(write)
        return true
    }

    /// Several posting chunks of one chunk number, one term at a time.
    public func postingChunks(terms: [UInt32], chunk: Int) throws -> [UInt32: [UInt8]] {
        var result: [UInt32: [UInt8]] = [:]
        for term in terms {
            if let bytes = try postingChunk(term: term, chunk: chunk) { result[term] = bytes }
        }
        return result
    }
}

/// A record as stored: its JSON as the API serves it, and the fields a result list shows.
public struct StoredHit: Sendable, Equatable {
    /// The document number.
    public var document: Int
    /// The record's id.
    public var id: String
    /// The record's JSON (``Record`` written by ``JSONOutput``).
    public var json: [UInt8]
    /// The title, subtitle and categories, for highlights.
    public var title: String
    public var subtitle: String?
    public var categories: [String]
    /// Its place in index order, when the engine read it (browse pages do).
    public var key: BrowseKey?

    /// Creates a stored hit.
    public init(
        document: Int, id: String, json: [UInt8], title: String, subtitle: String?, categories: [String],
        key: BrowseKey? = nil
    ) {
        self.document = document
        self.id = id
        self.json = json
        self.title = title
        self.subtitle = subtitle
        self.categories = categories
        self.key = key
    }

}
