// catalog-bench: the figures `make bench` prints, each beside a peer measured in the same run.
//
//   catalog-bench [--items N] [--dir DIR] [--queries N] [--catalog-binary PATH] [--peer-seconds S]
//                 [--postgres URL]
//
// 1. As-you-type search on a generated catalog: p50/p99 in process, beside plain FTS5
//    `ORDER BY rank LIMIT 50` on the same file.
// 2. XML import of the same catalog (records/s, peak RSS), beside `xmllint --stream` and
//    FoundationXML's raw parse; the XML reader alone (libxml2 SAX2, records/s and MB/s) beside them.
//    Then (ImportFigures.swift) re-imports beside xmllint, JSON and CSV import, a JSON object keyed
//    by id beside the same records as an array (KeyedJSONFigures.swift), the CATALOG_PROFILE
//    breakdown; and search beside Tantivy too.
// 3. Section computation for every record (ICU sort keys and sections), beside Foundation's
//    localized compare on a sample.
// 4. With --postgres (a server's URL): the same import and searches on PostgreSQL, beside the
//    SQLite figures of this run and beside naive PostgreSQL full text, and whether both engines
//    answer every query the same (PostgresBench.swift).
// 5. Filtered, faceted and sorted searches beside FTS5 with WHERE and Tantivy with a range query
//    (FilteredSearchFigures.swift).
import CatalogCollation
import CatalogDemo
import CatalogImport
import CatalogModel
import CatalogCore
import CatalogEngines
import CatalogStorage
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

if CommandLine.arguments.count >= 3 && CommandLine.arguments[1] == "xml-parse" {
    RawXMLParse.run(path: CommandLine.arguments[2], recordElement: CommandLine.arguments[3])
    exit(0)
}

if CommandLine.arguments.count >= 4 && CommandLine.arguments[1] == "xml-read" {
    // catalog-bench xml-read FILE ELEMENT: the XML reader alone, every record built and dropped.
    var count = 0
    var fields = 0
    try XMLRecordReader(
        fileURL: URL(fileURLWithPath: CommandLine.arguments[2]), recordElement: CommandLine.arguments[3]
    )
    .forEachRecord { record in
        count += 1
        fields &+= record.fields.count
    }
    print(count, fields)
    exit(0)
}

if CommandLine.arguments.count >= 3 && CommandLine.arguments[1] == "read" {
    // catalog-bench read FILE: the XML reader alone, then with mapping, for profiling.
    let url = URL(fileURLWithPath: CommandLine.arguments[2])
    var started = Date()
    var count = 0
    try XMLRecordReader(fileURL: url, recordElement: "record").forEachRecord { _ in count += 1 }
    print(String(format: "read %d records in %.2f s", count, Date().timeIntervalSince(started)))
    started = Date()
    var mapper = RecordMapper(definition: CatalogDefinition(id: "x", title: "x", locale: "en"))
    try XMLRecordReader(fileURL: url, recordElement: "record").forEachRecord { _ = try mapper.record(from: $0) }
    print(String(format: "read and mapped in %.2f s", Date().timeIntervalSince(started)))
    exit(0)
}

if CommandLine.arguments.count >= 3 && CommandLine.arguments[1] == "slowest" {
    // catalog-bench slowest DB [ITEMS]: the slowest of the benchmark's queries, to look into.
    let items = CommandLine.arguments.count > 3 ? Int(CommandLine.arguments[3]) ?? 1_000_000 : 1_000_000
    let generator = CatalogGenerator(items: items, locale: "en", seed: 1)
    let queries = QuerySet.asYouType(
        words: generator.titleWords, scopes: generator.definition.categories.map(\.name), count: 1_000)
    let store = try BenchStore(path: CommandLine.arguments[2])
    var timed: [(BenchQuery, Double, Int)] = []
    for _ in 0..<2 {
        timed = []
        for query in queries {
            let started = DispatchTime.now().uptimeNanoseconds
            let response = try store.search(query)
            timed.append((query, Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6, response.total))
        }
    }
    for (query, ms, total) in timed.sorted(by: { $0.1 > $1.1 }).prefix(25) {
        print(String(format: "%8.2f ms  total %5d  scope %@  %@", ms, total, query.scope ?? "-", query.text))
    }
    exit(0)
}

if CommandLine.arguments.count >= 4 && CommandLine.arguments[1] == "cold" {
    // catalog-bench cold DB QUERY…: each query once on a loaded index (new words: cold caches),
    // for profiling the first keystroke of a word.
    let store = try BenchStore(path: CommandLine.arguments[2])
    _ = try store.search(BenchQuery(text: "a", scope: nil))
    for text in CommandLine.arguments.dropFirst(3) {
        let started = DispatchTime.now().uptimeNanoseconds
        let total = try store.search(BenchQuery(text: text, scope: nil)).total
        let ms = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        print(String(format: "%8.2f ms  total %5d  %@", ms, total, text))
    }
    exit(0)
}

if CommandLine.arguments.count >= 3 && CommandLine.arguments[1] == "filtered" {
    // catalog-bench filtered DB [ITEMS] [RECORDS_JSON]: the filtered, faceted and sorted search
    // figures alone, beside FTS5 (the file needs the peer_fts table a full run builds) and, given
    // the catalog's JSON export, Tantivy.
    let arguments = CommandLine.arguments
    let items = arguments.count > 3 ? Int(arguments[3]) ?? 1_000_000 : 1_000_000
    let generator = CatalogGenerator(items: items, locale: "en", seed: 1)
    let queries = QuerySet.asYouType(
        words: generator.titleWords, scopes: generator.definition.categories.map(\.name), count: 1_000)
    let warm = QuerySet.asYouType(words: generator.titleWords.reversed(), scopes: [], count: 200)
    let directory = (arguments[2] as NSString).deletingLastPathComponent
    let tantivy =
        arguments.count > 4
        ? try TantivyPeer.measure(directory: directory, records: arguments[4], warm: warm, timed: queries) : nil
    tantivy?.lines.forEach { print($0) }
    try FilteredSearchFigures.run(
        databasePath: arguments[2], queries: queries, warm: warm, tantivy: tantivy, peerSeconds: 20)
    exit(0)
}

if CommandLine.arguments.count >= 3 && CommandLine.arguments[1] == "worst" {
    // catalog-bench worst DB [ITEMS]: the hunt for the most expensive single search.
    let items = CommandLine.arguments.count > 3 ? Int(CommandLine.arguments[3]) ?? 1_000_000 : 1_000_000
    let store = try BenchStore(path: CommandLine.arguments[2])
    try WorstQueries.run(store: store, generator: CatalogGenerator(items: items, locale: "en", seed: 1))
    exit(0)
}

if CommandLine.arguments.count >= 3 && CommandLine.arguments[1] == "latency" {
    // catalog-bench latency DB: the benchmark's 1,000 as-you-type queries once, after a warm-up
    // with other words: p50, p99, max.
    let generator = CatalogGenerator(items: 1_000_000, locale: "en", seed: 1)
    let queries = QuerySet.benchmark(of: generator)
    let store = try BenchStore(path: CommandLine.arguments[2])
    for query in QuerySet.asYouType(words: generator.titleWords.reversed(), scopes: [], count: 200) {
        _ = try store.search(query)
    }
    var times: [Double] = []
    for query in queries {
        let started = DispatchTime.now().uptimeNanoseconds
        _ = try store.search(query)
        times.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
    }
    times.sort()
    print(
        String(
            format: "p50 %.2f ms  p99 %.2f ms  max %.2f ms", Report.percentile(times, 50), Report.percentile(times, 99),
            times.last ?? 0))
    exit(0)
}

if CommandLine.arguments.count >= 3 && CommandLine.arguments[1] == "caps" {
    // catalog-bench caps DB: of the benchmark's 1,000 as-you-type queries, how many counts stopped
    // at the search's budget (capped below SearchResponse.countCap): the price of bounded work.
    let generator = CatalogGenerator(items: 1_000_000, locale: "en", seed: 1)
    let queries = QuerySet.benchmark(of: generator)
    let store = try BenchStore(path: CommandLine.arguments[2])
    var counts = 0
    var stopped = 0
    var searches = 0
    for query in queries {
        let result = try store.search(query)
        let budgeted = ([(result.total, result.totalCapped)] + result.scopes.map { ($0.count, $0.capped) })
            .filter { count, capped in capped && count < SearchResponse.countCap }
        counts += 1 + result.scopes.count
        stopped += budgeted.count
        searches += budgeted.isEmpty ? 0 : 1
    }
    print("\(stopped) of \(counts) counts stopped at the budget, in \(searches) of \(queries.count) searches")
    exit(0)
}

if CommandLine.arguments.count >= 5 && CommandLine.arguments[1] == "replay" {
    // catalog-bench replay DB CATALOG FILE [N]: the searches of a server-bench workload list (one
    // request path a line; its q, scope and limit) in process, with their JSON, each once: the
    // server's search work without HTTP, for profiling. Prints p50, p99, the mean and the slowest.
    let store = try BenchStore(path: CommandLine.arguments[2], catalog: CommandLine.arguments[3])
    let lines = try String(contentsOfFile: CommandLine.arguments[4], encoding: .utf8).split(separator: "\n")
    let wanted = CommandLine.arguments.count > 5 ? Int(CommandLine.arguments[5]) ?? lines.count : lines.count
    var timed: [(String, Double)] = []
    for line in lines.prefix(wanted) {
        guard let items = URLComponents(string: String(line))?.queryItems else { continue }
        let value = { (name: String) in items.first { $0.name == name }?.value }
        let request = SearchRequest(
            query: value("q") ?? "", scope: value("scope"), limit: value("limit").flatMap { Int($0) } ?? 50)
        let started = DispatchTime.now().uptimeNanoseconds
        _ = try store.search(request.checked()).jsonBytes
        timed.append((request.query, Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6))
    }
    let times = timed.map(\.1).sorted()
    print(
        String(
            format: "%d searches: p50 %.2f ms  p99 %.2f ms  mean %.3f ms", times.count, Report.percentile(times, 50),
            Report.percentile(times, 99), times.reduce(0, +) / Double(max(1, times.count))))
    for (query, ms) in timed.sorted(by: { $0.1 > $1.1 }).prefix(10) { print(String(format: "%8.2f ms  %@", ms, query)) }
    exit(0)
}

if CommandLine.arguments.count >= 4 && CommandLine.arguments[1] == "repeat" {
    // catalog-bench repeat DB QUERY [N] [SCOPE]: one query N times, for profiling.
    let store = try BenchStore(path: CommandLine.arguments[2])
    let rounds = CommandLine.arguments.count > 4 ? Int(CommandLine.arguments[4]) ?? 200 : 200
    let scope = CommandLine.arguments.count > 5 ? CommandLine.arguments[5] : nil
    let query = BenchQuery(text: CommandLine.arguments[3], scope: scope)
    let started = DispatchTime.now().uptimeNanoseconds
    var total = 0
    for _ in 0..<rounds { total &+= try store.search(query).total }
    let ms = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6 / Double(rounds)
    print(String(format: "%.3f ms per search (total %d)", ms, total / rounds))
    exit(0)
}

if CommandLine.arguments.count >= 3 && CommandLine.arguments[1] == "search-cost" {
    // catalog-bench search-cost DB [compact]: the CPU of one as-you-type search with its JSON,
    // averaged over the benchmark's 1,000 queries (what the server spends per search request).
    let generator = CatalogGenerator(items: 1_000_000, locale: "en", seed: 1)
    let queries = QuerySet.benchmark(of: generator)
    let store = try BenchStore(path: CommandLine.arguments[2])
    var bytes = 0
    var times: [Double] = []
    for round in 0..<3 {
        let started = DispatchTime.now().uptimeNanoseconds
        for query in queries {
            bytes &+= try store.search(query).jsonBytes.count
        }
        if round > 0 { times.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6 / 1000) }
    }
    print(String(format: "search + JSON: %.3f ms per query", times.min()!))
    exit(0)
}

if CommandLine.arguments.count >= 5 && CommandLine.arguments[1] == "compare" {
    // catalog-bench compare ITEMS LOCATION LOCATION: the benchmark's queries on two databases
    // of the same catalog (SQLite and PostgreSQL, say), query by query, with server settings.
    let generator = CatalogGenerator(items: Int(CommandLine.arguments[2]) ?? 1_000_000, locale: "en", seed: 1)
    let queries = QuerySet.asYouType(
        words: generator.titleWords, scopes: generator.definition.categories.map(\.name), count: 1_000)
    var server = CatalogEngines.Options()
    server.server = true
    let stores = try CommandLine.arguments[3...4].map { try BenchStore(path: $0, options: server) }
    let timed = try PostgresBench.compare(
        stores[0], stores[1], queries: queries,
        warmUp: QuerySet.asYouType(words: generator.titleWords.reversed(), scopes: [], count: 200))
    for (index, times) in [timed.first, timed.second].enumerated() {
        print("  \(index + 1). \(PeerConnection.redacted(CommandLine.arguments[3 + index]))")
        print(Report.line("", PostgresBench.figures(times.sorted())))
    }
    print(Report.line("same answers", "\(timed.same) of \(queries.count)"))
    exit(0)
}

if CommandLine.arguments.count >= 4 && CommandLine.arguments[1] == "search-paths" {
    // catalog-bench search-paths ITEMS COUNT [CATALOG]: the benchmark's as-you-type queries as
    // request paths for wrk (rotate.lua), one a line, then on standard error how many differ.
    let generator = CatalogGenerator(items: Int(CommandLine.arguments[2]) ?? 1_000_000, locale: "en", seed: 1)
    let count = Int(CommandLine.arguments[3]) ?? 20_000
    let catalog = CommandLine.arguments.count > 4 ? CommandLine.arguments[4] : "bench"
    let queries = QuerySet.asYouType(
        words: generator.titleWords, scopes: generator.definition.categories.map(\.name), count: count)
    var output = ""
    for query in queries {
        var path = "/api/v1/catalogs/\(catalog)/search?limit=50&q="
        path += query.text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        if let scope = query.scope {
            path += "&scope=" + (scope.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        }
        output += path + "\n"
    }
    print(output, terminator: "")
    let distinct = Set(queries.map { "\($0.text)|\($0.scope ?? "")" }).count
    FileHandle.standardError.write(Data("\(queries.count) paths, \(distinct) distinct\n".utf8))
    exit(0)
}

if CommandLine.arguments.count >= 5 && CommandLine.arguments[1] == "item" {
    // catalog-bench item DB CATALOG ITEM: the cost of one record lookup and its JSON, per call.
    let database = try CatalogEngines.open(CommandLine.arguments[2])
    let catalog = try database.read { try $0.requireCatalog(CommandLine.arguments[3]) }
    let item = CommandLine.arguments[4]
    let rounds = 100_000
    var started = DispatchTime.now().uptimeNanoseconds
    var bytes = 0
    // One scoped read per lookup, as a request makes it.
    for _ in 0..<rounds { bytes &+= try database.read { try $0.item(of: catalog, id: item)?.id.utf8.count ?? 0 } }
    let lookup = Double(DispatchTime.now().uptimeNanoseconds - started) / Double(rounds) / 1000
    let record = try database.read { try $0.item(of: catalog, id: item)! }
    started = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<rounds { bytes &+= record.jsonBytes.count }
    let json = Double(DispatchTime.now().uptimeNanoseconds - started) / Double(rounds) / 1000
    print(String(format: "item lookup %.2f µs, JSON %.2f µs (%d)", lookup, json, bytes))
    exit(0)
}

if CommandLine.arguments.count >= 4 && CommandLine.arguments[1] == "keyed-json" {
    // catalog-bench keyed-json CATALOG-BINARY DIR [RECORDS]: the keyed JSON figures alone.
    let records = CommandLine.arguments.count > 4 ? Int(CommandLine.arguments[4]) ?? 235_000 : 235_000
    try FileManager.default.createDirectory(atPath: CommandLine.arguments[3], withIntermediateDirectories: true)
    try KeyedJSONFigures.run(binary: CommandLine.arguments[2], directory: CommandLine.arguments[3], records: records)
    exit(0)
}

if CommandLine.arguments.count >= 3 && CommandLine.arguments[1] == "edits" {
    // catalog-bench edits DB [ITEMS]: the figures of records changed in place alone, on a
    // database holding the generated catalog "bench" (`catalog generate --catalog bench --seed 1`).
    let items = CommandLine.arguments.count > 3 ? Int(CommandLine.arguments[3]) ?? 1_000_000 : 1_000_000
    let generator = CatalogGenerator(items: items, locale: "en", seed: 1)
    let queries = QuerySet.asYouType(
        words: generator.titleWords, scopes: generator.definition.categories.map(\.name), count: 1_000)
    let warm = QuerySet.asYouType(words: generator.titleWords.reversed(), scopes: [], count: 200)
    var options = BenchOptions([])
    options.items = items
    options.directory = (CommandLine.arguments[2] as NSString).deletingLastPathComponent
    try EditFigures.run(
        options: options, generator: generator, databasePath: CommandLine.arguments[2], queries: queries,
        warmQueries: warm, reimportSeconds: nil)
    exit(0)
}

let options = BenchOptions(CommandLine.arguments.dropFirst())
try FileManager.default.createDirectory(atPath: options.directory, withIntermediateDirectories: true)
let generator = CatalogGenerator(items: options.items, locale: "en", seed: 1)
let xmlPath = options.directory + "/catalog-\(options.items).xml"
let databasePath = options.directory + "/bench.sqlite"
print("catalog-bench: \(options.items) generated records, \(ProcessInfo.processInfo.activeProcessorCount) cores")
print("")

// MARK: - Input file
if !FileManager.default.fileExists(atPath: xmlPath) {
    let started = Date()
    try GeneratedFile.writeXML(generator: generator, to: xmlPath)
    print(String(format: "wrote %@ in %.1f s", xmlPath, Date().timeIntervalSince(started)))
}
let xmlBytes = (try FileManager.default.attributesOfItem(atPath: xmlPath)[.size] as? Int64) ?? 0

// MARK: - 2. Import beside FoundationXML's raw parse; the reader alone beside xmllint --stream
for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: databasePath + suffix) }
let megabytes = Double(xmlBytes) / 1_000_000
print("XML reader alone (\(xmlBytes / 1_000_000) MB, every record built as fields and dropped)")
func readerLine(_ label: String, _ result: Child.Result) -> String {
    Report.line(
        label,
        String(
            format: "%.2f s, %.0f records/s, %.0f MB/s, peak RSS %d MB", result.seconds,
            Double(options.items) / result.seconds, megabytes / result.seconds, result.peakRSSMiB))
}
let xmllintPath = "/usr/bin/xmllint"
let xmllint =
    FileManager.default.isExecutableFile(atPath: xmllintPath)
    ? try Child.run(xmllintPath, ["--stream", "--noout", xmlPath]) : nil
let reader = try Child.run(CommandLine.arguments[0], ["xml-read", xmlPath, "record"])
let raw = try Child.run(CommandLine.arguments[0], ["xml-parse", xmlPath, "record"])
if let xmllint {
    print(readerLine("xmllint --stream (libxml2, no records)", xmllint))
} else {
    print(Report.line("xmllint --stream", "not installed (Debian: libxml2-utils)"))
}
print(readerLine("FoundationXML (counting elements)", raw))
print(readerLine("catalog XML reader (libxml2 SAX2)", reader))
if let xmllint {
    print(
        Report.line(
            "ratio to xmllint --stream",
            String(format: "%.2f× its speed (goal: well over 150,000 records/s)", xmllint.seconds / reader.seconds)))
}
print("")
let imported = try Child.run(
    options.catalogBinary, ["import", xmlPath, "--catalog", "bench", "--db", databasePath, "--quiet"])
guard imported.status == 0 else {
    print("import failed (status \(imported.status))")
    exit(1)
}
let rawRate = Double(options.items) / raw.seconds
let importRate = Double(options.items) / imported.seconds
print("XML import (\(xmlBytes / 1_000_000) MB, \(Load.now))")
if let xmllint {
    print(Report.line("xmllint --stream, same file", String(format: "%.2f s", xmllint.seconds)))
}
print(
    Report.line(
        "FoundationXML raw parse",
        String(format: "%.2f s, %.0f records/s, peak RSS %d MB", raw.seconds, rawRate, raw.peakRSSMiB)))
print(
    Report.line(
        "catalog import",
        String(format: "%.2f s, %.0f records/s, peak RSS %d MB", imported.seconds, importRate, imported.peakRSSMiB)))
print(
    Report.line(
        "ratio to raw parse",
        String(
            format: "%.2f× the records/s (goal ≥ 50,000 records/s, RSS < 200 MB) %@", importRate / rawRate,
            verdict(importRate >= 50_000 && imported.peakRSSMiB < 200))))
print("")
let importFigures = try ImportFigures.run(
    options: options, generator: generator, xmlPath: xmlPath, databasePath: databasePath,
    xmllintPath: xmllint == nil ? nil : xmllintPath)

// MARK: - 1. Search beside plain FTS5 bm25
let queries = QuerySet.asYouType(
    words: generator.titleWords, scopes: generator.definition.categories.map(\.name), count: options.queries)
let warmQueries = QuerySet.asYouType(words: generator.titleWords.reversed(), scopes: [], count: 200)
let store = try BenchStore(path: databasePath)
for query in warmQueries {
    _ = try store.search(query)
}
var ours: [Double] = []
for query in queries {
    let started = DispatchTime.now().uptimeNanoseconds
    _ = try store.search(query)
    ours.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
}
store.close()
let peer = try PeerFTS.measure(databasePath: databasePath, queries: queries, budgetSeconds: options.peerSeconds)
let tantivy = try TantivyPeer.measure(
    directory: options.directory, records: importFigures.jsonExport, warm: warmQueries, timed: queries)
let oursSorted = ours.sorted()
let peerSorted = peer.sorted()
print(
    "As-you-type search, \(queries.count) queries (\(queries.filter { $0.scope != nil }.count) with a scope), limit 50"
        + " (\(Load.now))")
print(
    Report.line(
        "catalog (tiers, counts, ranges)",
        String(
            format: "p50 %.2f ms  p99 %.2f ms  max %.2f ms", Report.percentile(oursSorted, 50),
            Report.percentile(oursSorted, 99), oursSorted.last ?? 0)))
print(
    Report.line(
        "plain FTS5 ORDER BY rank",
        String(
            format: "p50 %.2f ms  p99 %.2f ms  max %.2f ms (%d queries)", Report.percentile(peerSorted, 50),
            Report.percentile(peerSorted, 99), peerSorted.last ?? 0, peer.count)))
print(
    Report.line(
        "ratio (peer / ours)",
        String(
            format: "p50 %.1f×  p99 %.1f×  (goal: p99 ≤ 5 ms) %@",
            Report.percentile(peerSorted, 50) / Report.percentile(oursSorted, 50),
            Report.percentile(peerSorted, 99) / Report.percentile(oursSorted, 99),
            verdict(Report.percentile(oursSorted, 99) <= 5))))
tantivy?.lines.forEach { print($0) }
if let tantivy, tantivy.p99 > 0 {
    let p99 = Report.percentile(oursSorted, 99)
    print(
        Report.line(
            "ratio (Tantivy / ours)",
            String(
                format: "p50 %.1f×  p99 %.1f×  (goal: our p99 at most Tantivy's %@; p99 ≤ 5 ms %@)",
                tantivy.p50 / Report.percentile(oursSorted, 50), tantivy.p99 / p99, verdict(p99 <= tantivy.p99),
                verdict(p99 <= 5))))
}
print("")

// MARK: - Filtered, faceted and sorted searches
try FilteredSearchFigures.run(
    databasePath: databasePath, queries: queries, warm: warmQueries, tantivy: tantivy, peerSeconds: options.peerSeconds)

// MARK: - The most expensive single searches
let worstStore = try BenchStore(path: databasePath)
try WorstQueries.run(store: worstStore, generator: generator)
worstStore.close()
print("")

// MARK: - Records changed in place
try EditFigures.run(
    options: options, generator: generator, databasePath: databasePath, queries: queries, warmQueries: warmQueries,
    reimportSeconds: importFigures.changedReimportSeconds)

// MARK: - 3. Sections for every record
let sectionTiming = try SectionBench.measure(generator: generator, locale: "en")
print("Sections and collation keys for \(options.items) titles")
print(Report.line("ICU sections + sort keys + sort", String(format: "%.2f s (goal ≤ 5 s)", sectionTiming.ours)))
print(
    Report.line(
        "Foundation localized compare sort",
        String(
            format: "%.2f s for %d titles, ~%.1f s for all", sectionTiming.peer, sectionTiming.peerSample,
            sectionTiming.peer * Double(options.items) / Double(max(1, sectionTiming.peerSample)))))
print(
    Report.line(
        "ratio (peer / ours)",
        String(
            format: "%.1f×",
            sectionTiming.peer * Double(options.items) / Double(max(1, sectionTiming.peerSample)) / sectionTiming.ours))
)

// MARK: - 4. PostgreSQL
if let server = options.postgres {
    print("")
    try PostgresBench.run(
        server: server, options: options, xmlPath: xmlPath, queries: queries,
        sqlite: PostgresBench.SQLiteFigures(path: databasePath, importSeconds: imported.seconds))
}
