import CatalogCore
import CatalogModel
import CatalogStorage

/// An engine that keeps a built catalog in memory: what the core's tests search.
final class MemoryIndex: CatalogIndexSink, SearchIndexReading {
    var items: [IndexedItem] = []
    var chunks: [UInt64: [UInt8]] = [:]
    var blobs: [String: [UInt8]] = [:]
    var chunkReads = 0

    func write(item: IndexedItem) throws {
        precondition(item.document == items.count, "items arrive in document order")
        items.append(item)
    }

    func write(postingChunk: [UInt8], term: UInt32, chunk: Int) throws {
        chunks[UInt64(term) << 16 | UInt64(chunk)] = postingChunk
    }

    func write(blob: [UInt8], named name: String) throws {
        blobs[name] = blob
    }

    func postingChunk(term: UInt32, chunk: Int) throws -> [UInt8]? {
        chunkReads += 1
        return chunks[UInt64(term) << 16 | UInt64(chunk)]
    }

    func blob(named name: String) throws -> [UInt8]? { blobs[name] }

    func hits(documents: [Int]) throws -> [StoredHit] {
        documents.map { document in
            let item = items[document]
            return StoredHit(
                document: document, id: item.id, json: item.json, title: item.title, subtitle: item.subtitle,
                categories: item.categories, key: BrowseKey(section: item.section, sortKey: item.sortKey, id: item.id))
        }
    }

    func titles(documents: [Int]) throws -> [String] { documents.map { items[$0].title } }

    func ids(documents: [Int]) throws -> [String] { documents.map { items[$0].id } }

    /// Nothing is deleted in a built catalog.
    func deletedDocuments(since change: Int) throws -> [UInt32] { [] }
}

/// Sections by first letter (A–Z, else "#") and sort keys from folded titles: enough collation
/// for tests that do not need ICU.
struct LetterCollation: CatalogCollating {
    var version: String { "letters-1" }
    var sectionLabels: [String] { (65...90).map { String(UnicodeScalar(UInt8($0))) } + ["#"] }

    func sortKey(_ title: String) -> [UInt8] { Array(TextFolding.fold(title).utf8) }

    func section(for title: String) -> Int {
        guard let first = TextFolding.fold(title).unicodeScalars.first, ("a"..."z").contains(first) else { return 26 }
        return Int(first.value) - 97
    }
}

/// A catalog built in memory, ready to search.
struct TestCatalog {
    let memory = MemoryIndex()
    let built: IndexedCatalog
    let index: CatalogSearchIndex
    let searcher: CatalogSearcher

    init(_ records: [Record], definition: CatalogDefinition = CatalogDefinition(id: "t", title: "T", locale: "en"))
        throws
    {
        let builder = try CatalogIndexBuilder(definition: definition, collation: LetterCollation())
        for record in records { try builder.add(record) }
        built = try builder.finish(into: memory)
        index = try CatalogSearchIndex(reader: memory)
        searcher = CatalogSearcher(
            index: index, reader: memory,
            catalog: SearchCatalog(definition: built.definition, categories: built.categories))
    }

    init(titles: [String], locale: String = "en") throws {
        try self.init(
            titles.enumerated().map { Record(id: "r\($0.offset)", title: $0.element) },
            definition: CatalogDefinition(id: "t", title: "T", locale: locale))
    }

    func search(_ text: String, scope: String? = nil, limit: Int = 50) throws -> SearchResult {
        try searcher.search(SearchRequest(query: text, scope: scope, limit: limit).checked())
    }

    func titles(_ text: String, limit: Int = 50) throws -> [String] {
        try search(text, limit: limit).hits.map(\.stored.title)
    }
}
