import CatalogCore
import CatalogDemo
import CatalogModel
import CatalogStorage
import Foundation
import Testing

@Suite struct ScaleProbe {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["CATALOG_CORE_PROBE"] != nil))
    func probe() throws {
        let count = Int(ProcessInfo.processInfo.environment["CATALOG_CORE_PROBE"]!) ?? 200_000
        let generator = CatalogGenerator(items: count, locale: "en", seed: 1)
        let memory = MemoryIndex()
        let builder = try CatalogIndexBuilder(definition: generator.definition, collation: LetterCollation())
        var clock = ContinuousClock.now
        try generator.forEachRecord { try builder.add($0) }
        print("add", ContinuousClock.now - clock)
        clock = ContinuousClock.now
        let built = try builder.finish(into: memory)
        print(
            "finish", ContinuousClock.now - clock, "chunks", memory.chunks.count,
            "postings bytes", memory.chunks.values.reduce(0) { $0 + $1.count },
            "lexicon", memory.blobs["lexicon"]!.count)
        clock = ContinuousClock.now
        let index = try CatalogSearchIndex(reader: memory)
        print("load", ContinuousClock.now - clock)
        let searcher = CatalogSearcher(
            index: index, reader: memory,
            catalog: SearchCatalog(definition: built.definition, categories: built.categories))
        var queries: [String] = []
        for word in generator.titleWords.prefix(150) {
            var typed = ""
            for c in word { typed.append(c); queries.append(typed) }
        }
        queries += ["blaue d", "lamp sh", "germny", "chair z", "a", "e", "xq", "kitchen lamp"]
        var times: [Duration] = []
        for query in queries {
            let start = ContinuousClock.now
            _ = try searcher.search(SearchRequest(query: query).checked())
            times.append(ContinuousClock.now - start)
        }
        times.sort()
        print(
            "queries", times.count, "p50", times[times.count / 2], "p99", times[times.count * 99 / 100], "max",
            times.last!)
        let worst = zip(queries, times).sorted { $0.1 > $1.1 }.prefix(5)
        print(worst.map { "\($0.0)=\($0.1)" })
        if let repeatQuery = ProcessInfo.processInfo.environment["CATALOG_CORE_REPEAT"] {
            let start = ContinuousClock.now
            for _ in 0..<200 { _ = try searcher.search(SearchRequest(query: repeatQuery).checked()) }
            print("repeat", repeatQuery, (ContinuousClock.now - start) / 200)
        }
    }
}
