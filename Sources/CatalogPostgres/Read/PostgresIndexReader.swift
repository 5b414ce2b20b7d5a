import CatalogStorage

/// The search index questions, answered from one segment's rows (``SearchSegment``: the base an
/// import wrote, or the records of a change).
///
/// A round trip costs more than reading a chunk, so posting chunks are read ahead: a miss at
/// chunk `c` reads every chunk from `c` on of the terms asked for, in one query (a search walks
/// the chunks in order, and its counts usually walk them all), and every chunk read, or known to
/// be absent, goes to the database's ``PostingCache``, where the next searches find it.
final class PostgresIndexReader: SearchIndexReading {
    private let connection: PostgresConnection
    /// The segment's number (`version` of its rows).
    private let segment: Int64
    /// How many chunks the segment's documents fill.
    private let chunkCount: Int
    private let postings: PostingCache

    init(connection: PostgresConnection, segment: Int64, documents: Int, postings: PostingCache) {
        self.connection = connection
        self.segment = segment
        chunkCount = max(1, (documents + (1 << 16) - 1) >> 16)
        self.postings = postings
    }

    func postingChunk(term: UInt32, chunk: Int) throws -> [UInt8]? {
        try postingChunks(terms: [term], chunk: chunk)[term]
    }

    func postingChunks(terms: [UInt32], chunk: Int) throws -> [UInt32: [UInt8]] {
        var result: [UInt32: [UInt8]] = [:]
        var missing: [UInt32] = []
        for term in terms {
            switch postings.chunk(key(term, chunk)) {
            case .some(.some(let bytes)): result[term] = bytes
            case .some(.none): break
            case .none: missing.append(term)
            }
        }
        guard !missing.isEmpty else { return result }
        let last = max(chunk, chunkCount - 1)
        let rows = try connection.query(
            "SELECT term, chunk, data FROM search_postings WHERE version = $1 AND term = ANY ($2) AND chunk >= $3",
            [.int8(segment), .int4Array(missing.map { Int32(bitPattern: $0) }), .int(chunk)])
        var found: [PostingCache.Key: [UInt8]] = [:]
        for row in 0..<rows.count {
            let term = UInt32(bitPattern: Int32(truncatingIfNeeded: rows.int64(row, 0)))
            found[PostingCache.Key(segment: segment, term: term, chunk: Int32(rows.int(row, 1)))] = rows.bytes(row, 2)
        }
        var read: [(PostingCache.Key, [UInt8]?)] = []
        read.reserveCapacity(missing.count * (last - chunk + 1))
        for term in missing {
            for index in chunk...last {
                let key = key(term, index)
                read.append((key, found[key]))
            }
            if let bytes = found[key(term, chunk)] { result[term] = bytes }
        }
        postings.store(read)
        return result
    }

    private func key(_ term: UInt32, _ chunk: Int) -> PostingCache.Key {
        PostingCache.Key(segment: segment, term: term, chunk: Int32(chunk))
    }

    func blob(named name: String) throws -> [UInt8]? {
        let rows = try connection.query(
            "SELECT data FROM search_blobs WHERE version = $1 AND name = $2", [.int8(segment), .text(name)])
        return rows.count == 1 ? rows.bytes(0, 0) : nil
    }

    /// The records of these documents with their browse keys (a segmented search orders by
    /// them), deleted documents included: a segment's items stay until it is dropped.
    func hits(documents: [Int]) throws -> [StoredHit] {
        guard !documents.isEmpty else { return [] }
        let rows = try connection.query(
            "SELECT \(PostgresCatalogReader.hitColumns.joined(separator: ", ")) FROM items "
                + "WHERE version = $1 AND document = ANY ($2)",
            [.int8(segment), .int4Array(documents.map { Int32(clamping: $0) })])
        var byDocument: [Int: StoredHit] = [:]
        for row in 0..<rows.count {
            let hit = PostgresCatalogReader.hit(rows, row)
            byDocument[hit.document] = hit
        }
        return documents.compactMap { byDocument[$0] }
    }

    func titles(documents: [Int]) throws -> [String] {
        try texts("title", documents: documents)
    }

    func ids(documents: [Int]) throws -> [String] {
        try texts("id", documents: documents)
    }

    /// One text column of these documents' rows, in the order given (`""` for a missing one).
    private func texts(_ column: StaticString, documents: [Int]) throws -> [String] {
        guard !documents.isEmpty else { return [] }
        let rows = try connection.query(
            "SELECT document, \(column) FROM items WHERE version = $1 AND document = ANY ($2)",
            [.int8(segment), .int4Array(documents.map { Int32(clamping: $0) })])
        var byDocument: [Int: String] = [:]
        for row in 0..<rows.count { byDocument[rows.int(row, 0)] = rows.text(row, 1) }
        return documents.map { byDocument[$0] ?? "" }
    }

    func deletedDocuments(since change: Int) throws -> [UInt32] {
        let rows = try connection.query(
            "SELECT document FROM deleted_documents WHERE segment = $1 AND change > $2", [.int8(segment), .int(change)])
        return (0..<rows.count).map { UInt32(truncatingIfNeeded: rows.int64($0, 0)) }
    }
}
