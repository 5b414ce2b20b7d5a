import CatalogStorage
import Synchronization

/// One segment of a catalog's search index as a search uses it: its loaded index, the engine's
/// answers for it, and the documents deleted in it as of the reading snapshot.
struct LoadedSegment {
    /// The segment's loaded index (shared by every search of the segment).
    let index: CatalogSearchIndex
    /// The engine's answers for the segment.
    let reader: any SearchIndexReading
    /// Deleted documents by chunk; chunks without deletions are absent.
    let deleted: DeletedDocuments
    /// The segment's cache key.
    let key: String

    /// Live documents.
    var liveCount: Int { index.count - deleted.count }
}

/// The deleted documents of a segment, one bitmap per chunk that has any.
final class DeletedDocuments: Sendable {
    /// Bitmaps by chunk number.
    let chunks: [Int: ChunkBitmap]
    /// How many documents are deleted.
    let count: Int

    static let none = DeletedDocuments(chunks: [:])

    init(chunks: [Int: ChunkBitmap]) {
        self.chunks = chunks
        count = chunks.values.reduce(0) { $0 + $1.count }
    }

    /// These deletions and `documents`.
    func adding(_ documents: [UInt32]) -> DeletedDocuments {
        guard !documents.isEmpty else { return self }
        var chunks = self.chunks
        for document in documents {
            chunks[Int(document) >> PostingChunk.shift, default: ChunkBitmap()]
                .insert(Int(document) & (PostingChunk.size - 1))
        }
        return DeletedDocuments(chunks: chunks)
    }

    /// Whether a document is deleted.
    func contains(_ document: Int) -> Bool {
        chunks[document >> PostingChunk.shift]?.contains(document & (PostingChunk.size - 1)) ?? false
    }
}

/// What a process remembers of a segment's deletions: the set as of a change number, brought up
/// to date by asking only for the deletions after it (deletions of a segment only grow).
final class DeletionTracker: Sendable {
    private let state = Mutex<(change: Int, deleted: DeletedDocuments)?>(nil)

    /// The deletions as of change `change` (the reading snapshot's), read through `since`.
    func deleted(at change: Int, since: (Int) throws -> [UInt32]) throws -> DeletedDocuments {
        let known = state.withLock { $0 }
        if let known, known.change == change { return known.deleted }
        if let known, known.change < change {
            let updated = known.deleted.adding(try since(known.change))
            state.withLock { current in
                if (current?.change ?? -1) < change { current = (change, updated) }
            }
            return updated
        }
        // Nothing known, or a snapshot older than what is known: read them all.
        let all = DeletedDocuments.none.adding(try since(-1))
        if known == nil { state.withLock { current in if current == nil { current = (change, all) } } }
        return all
    }
}

extension CatalogReader {
    /// The catalog's segments as a search uses them, loaded indexes and deletion sets taken from
    /// the database's cache (``CatalogReader/indexCache``).
    func loadedSegments(of catalog: StoredCatalog) throws -> [LoadedSegment] {
        try searchSegments(of: catalog).map { segment in
            let index = try indexCache.value(for: segment.key) { try CatalogSearchIndex(segment, indexCache) }
            var deleted = DeletedDocuments.none
            if segment.deleted > 0 {
                let tracker = try indexCache.value(for: segment.key + "/deleted") { DeletionTracker() }
                deleted = try tracker.deleted(at: catalog.change) { try segment.reader.deletedDocuments(since: $0) }
            }
            return LoadedSegment(index: index, reader: segment.reader, deleted: deleted, key: segment.key)
        }
    }
}

extension CatalogWriter {
    /// Loads the search indexes of catalog `id`'s segments as this transaction wrote them, when
    /// the database's cache keeps what writes make (a server's,
    /// ``SearchIndexCache/loadsWrittenIndexes``): the first search after the commit finds the new
    /// segments loaded, instead of loading them while every reader of the catalog waits (35 ms
    /// for a 1,000,000-record import's index on a quiet machine, three times that beside the
    /// import's checkpoint). Segments already loaded cost a lookup; the engine forgets what this
    /// loads if the transaction rolls back.
    func loadWrittenIndexes(of id: String) throws {
        guard reader.indexCache.loadsWrittenIndexes, let catalog = try reader.catalog(id) else { return }
        let cache = reader.indexCache
        for segment in try reader.searchSegments(of: catalog) {
            _ = try cache.loadForWrite(key: segment.key) { try CatalogSearchIndex(segment, cache) }
        }
    }
}

extension CatalogSearchIndex {
    /// Loads a segment's index, its large parts where `cache` keeps them (``SearchIndexCache/files``).
    convenience init(_ segment: SearchSegment, _ cache: SearchIndexCache) throws {
        try self.init(reader: segment.reader, files: cache.files)
    }
}
