import CatalogCore
import CatalogDemo
import CatalogModel
import CatalogStorage
import Foundation
import Testing

/// The index builder's two ways of collecting terms give the same index.
@Suite struct IndexBuilderTests {
    /// Records of every shape the collector reads: generated ones (categories, countries,
    /// prices, several languages) and some with extra fields of every type.
    static func records() -> [Record] {
        var records: [Record] = []
        CatalogGenerator(items: 3_000, locale: "de", seed: 7).forEachRecord { records.append($0) }
        records.append(
            Record(
                id: "x1", title: "Ötzi Drums – 5 €", subtitle: "Klangwerk", description: "北京 독일 Straße",
                categories: ["Audio", "Neu"],
                fields: [
                    "weight": .number("1.50"), "tags": .texts(["rot", "grün"]), "title@fr": .text("Tambours"),
                    "ok": .bool(true), "none": .null,
                ]))
        records.append(Record(id: "x2", title: "", description: "only a description"))
        return records
    }

    /// Every term of a built index with its document count, readable.
    static func terms(_ memory: MemoryIndex) throws -> Set<String> {
        let lexicon = try Lexicon(serialized: memory.blobs[SearchBlobs.lexicon] ?? [])
        return Set(
            (0..<lexicon.count).map {
                String(decoding: lexicon.term(at: $0), as: UTF8.self) + " \(lexicon.documentCount(at: $0))"
            })
    }

    /// Terms collected as records arrive, or later from the temporary file (what a re-import
    /// does): the same items, posting chunks and blobs, byte for byte.
    @Test func collectingTermsLaterBuildsTheSameIndex() throws {
        let definition = CatalogDefinition(id: "t", title: "T", locale: "de")
        func build(later: Bool) throws -> MemoryIndex {
            let builder = try CatalogIndexBuilder(definition: definition, collation: LetterCollation())
            builder.collectsTermsLater = later
            for record in Self.records() { try builder.add(record) }
            let memory = MemoryIndex()
            _ = try builder.finish(into: memory)
            return memory
        }
        let eager = try build(later: false)
        let later = try build(later: true)
        let eagerTerms = try Self.terms(eager)
        let laterTerms = try Self.terms(later)
        #expect(eagerTerms.count == laterTerms.count)
        #expect(Array(eagerTerms.subtracting(laterTerms).prefix(10)) == [])
        #expect(Array(laterTerms.subtracting(eagerTerms).prefix(10)) == [])
        for name in eager.blobs.keys.sorted() {
            #expect(eager.blobs[name] == later.blobs[name], "blob \(name)")
        }
        #expect(eager.chunks.count == later.chunks.count)
        #expect(eager.chunks == later.chunks, "posting chunks")
        #expect(eager.items.map(\.json) == later.items.map(\.json))
        #expect(eager.items.map(\.document) == later.items.map(\.document))
        #expect(eager.items.count == Self.records().count)
    }
}
