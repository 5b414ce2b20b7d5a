import CatalogStorage

/// The union of some lexicon terms' documents, read a chunk at a time: one query word's
/// matches of one kind (its whole-word matches, its prefix matches, …).
///
/// Inline documents are sorted into chunks once; stored chunks are read from the engine the
/// first time a chunk is asked for, and every chunk's bitmap is kept for the rest of the search.
class TermSet {
    private var stored: [(term: UInt32, chunks: ClosedRange<Int>)] = []
    private var inline: [Int: [UInt16]] = [:]
    private var bitmaps: [Int: ChunkBitmap] = [:]
    /// The sum of the terms' document counts: an upper bound of the set's size.
    private(set) var estimatedCount = 0
    /// Where the index keeps this set's chunk bitmaps for later searches: a set of one term by
    /// the term, a query word's set of many terms by the word.
    private let sharedKey: SearchCaches.SetKey.Set?

    /// A word's sets of at least this many terms keep their chunk bitmaps in the index.
    static let sharedFrom = 8

    /// An empty set.
    init() {
        sharedKey = nil
    }

    /// The union of the terms at `indexes` of `lexicon`; `word`: the query word's set it is,
    /// under which the index may keep its chunk bitmaps (when there are ``sharedFrom`` terms or
    /// more; one term's are kept under the term).
    init(_ indexes: some Collection<Int>, of lexicon: Lexicon, word: SearchCaches.SetKey.Set? = nil) {
        if indexes.count == 1, let term = indexes.first {
            sharedKey = .term(term)
        } else {
            sharedKey = indexes.count >= Self.sharedFrom ? word : nil
        }
        for index in indexes { add(index, of: lexicon) }
    }

    /// Adds the term at `index`.
    private func add(_ index: Int, of lexicon: Lexicon) {
        estimatedCount += lexicon.documentCount(at: index)
        switch lexicon.postings(at: index) {
        case .inline(let documents):
            for document in documents {
                inline[Int(document) >> PostingChunk.shift, default: []]
                    .append(UInt16(truncatingIfNeeded: document))
            }
        case .stored(let term, let chunks):
            stored.append((term, chunks))
        }
        bitmaps.removeAll()
    }

    /// Whether any document of `chunk` can be in the set (false: its bitmap is empty).
    func covers(_ chunk: Int) -> Bool {
        inline[chunk] != nil || stored.contains { $0.chunks.contains(chunk) }
    }

    /// How many stored terms' posting chunks ``bitmap(_:_:_:)`` reads (from the caches or the
    /// engine) for `chunk` the first time it is asked: what that chunk costs this set. It
    /// depends on the set and what this search asked before, never on what the shared caches
    /// hold, so one request costs the same cold and warm.
    func pendingReads(_ chunk: Int) -> Int {
        guard bitmaps[chunk] == nil else { return 0 }
        var reads = 0
        for entry in stored where entry.chunks.contains(chunk) { reads += 1 }
        return reads
    }

    /// True when no term was added.
    var isEmpty: Bool { stored.isEmpty && inline.isEmpty }

    /// The documents of `chunk`.
    func bitmap(_ chunk: Int, _ index: CatalogSearchIndex, _ reader: any SearchIndexReading) throws -> ChunkBitmap {
        if let cached = bitmaps[chunk] { return cached }
        let offsets = inline[chunk]
        guard offsets != nil || stored.contains(where: { $0.chunks.contains(chunk) }) else { return .empty }
        if let sharedKey, let kept = index.setBitmap(sharedKey, chunk: chunk) {
            bitmaps[chunk] = kept
            return kept
        }
        let wanted = stored.filter { $0.chunks.contains(chunk) }.map(\.term)
        let chunks = wanted.isEmpty ? [] : try index.postingChunks(terms: wanted, chunk: chunk, reader: reader)
        // The words every part reaches, made once: a prefix's hundreds of terms would grow them
        // a few at a time, each time a new buffer.
        var needed = offsets?.max().map { Int($0) >> 6 + 1 } ?? 0
        for bytes in chunks { needed = max(needed, bytes.withUnsafeBytes(PostingChunk.wordsNeeded)) }
        var bitmap = ChunkBitmap()
        bitmap.reserveWords(needed)
        if let offsets {
            for offset in offsets { bitmap.insert(Int(offset)) }
        }
        for bytes in chunks {
            bytes.withUnsafeBytes { PostingChunk.merge($0, into: &bitmap) }
        }
        bitmaps[chunk] = bitmap
        if let sharedKey { index.remember(bitmap, for: sharedKey, chunk: chunk) }
        return bitmap
    }
}

/// Documents in every one of several sets.
final class IntersectionSet: TermSet {
    private let sets: [TermSet]

    init(_ sets: [TermSet]) {
        self.sets = sets
        super.init()
    }

    override var isEmpty: Bool { sets.contains { $0.isEmpty } }

    override func bitmap(_ chunk: Int, _ index: CatalogSearchIndex, _ reader: any SearchIndexReading) throws
        -> ChunkBitmap
    {
        guard let first = sets.first else { return .empty }
        var bitmap = try first.bitmap(chunk, index, reader)
        for set in sets.dropFirst() where !bitmap.isEmpty {
            bitmap = bitmap.intersection(try set.bitmap(chunk, index, reader))
        }
        return bitmap
    }
}
