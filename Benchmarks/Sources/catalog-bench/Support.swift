import CatalogCollation
import CatalogDemo
import CatalogImport
import CatalogModel
import CatalogCore
import CatalogEngines
import CatalogStorage
import SQLiteSupport
import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif

#if canImport(Glibc)
    import Glibc
#endif

struct BenchOptions {
    var items = 1_000_000
    var directory = "/tmp/catalog-bench"
    var queries = 1_000
    var catalogBinary = "../.build/release/catalog"
    var peerSeconds = 180.0
    /// A PostgreSQL server (a URL of any database on it): the PostgreSQL figures run when given.
    var postgres: String?

    init(_ arguments: ArraySlice<String>) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            guard let value = iterator.next() else { break }
            switch argument {
            case "--items": items = Int(value) ?? items
            case "--dir": directory = value
            case "--queries": queries = Int(value) ?? queries
            case "--catalog-binary": catalogBinary = value
            case "--peer-seconds": peerSeconds = Double(value) ?? peerSeconds
            case "--postgres": postgres = value
            default: FileHandle.standardError.write(Data("unknown option \(argument)\n".utf8))
            }
        }
    }
}

enum Report {
    static func line(_ label: String, _ value: String) -> String {
        "  " + label.padding(toLength: 36, withPad: " ", startingAt: 0) + value
    }

    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let index = min(sorted.count - 1, Int((Double(sorted.count) * p / 100).rounded(.up)) - 1)
        return sorted[max(0, index)]
    }
}

/// One as-you-type query (CatalogDemo's, which the engine comparison test types too).
typealias BenchQuery = AsYouTypeQuery

/// The benchmark catalog, searched the way the server does.
final class BenchStore {
    let database: any CatalogDatabase
    let catalog: StoredCatalog

    init(path: String, catalog id: String = "bench", options: CatalogEngines.Options = CatalogEngines.Options()) throws
    {
        database = try CatalogEngines.open(path, options: options)
        catalog = try database.read { try $0.requireCatalog(id) }
    }

    func search(_ query: BenchQuery) throws -> SearchResult {
        try search(SearchRequest(query: query.text, scope: query.scope, limit: 50).checked())
    }

    func search(_ request: SearchRequest.Checked) throws -> SearchResult {
        // One scoped read per search, as a request makes it.
        try database.read { reader in try reader.search(request, in: catalog) }
    }

    func close() { database.close() }
}

enum QuerySet {
    /// The benchmark's 1,000 as-you-type queries over a generated catalog's words and scopes.
    static func benchmark(of generator: CatalogGenerator) -> [BenchQuery] {
        asYouType(words: generator.titleWords, scopes: generator.definition.categories.map(\.name), count: 1_000)
    }

    /// Every prefix of real title words, as a user types them; a quarter of the words with a scope.
    static func asYouType(words: [String], scopes: [String], count: Int) -> [BenchQuery] {
        AsYouTypeQueries.make(words: words, scopes: scopes, count: count)
    }
}

enum GeneratedFile {
    static func writeXML(generator: CatalogGenerator, to path: String) throws {
        let temporary = path + ".partial"
        FileManager.default.createFile(atPath: temporary, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
        var sink = FileHandleSink(handle, name: temporary, bufferSize: 1 << 20)
        var writer = XMLRecordWriter(rootElement: "catalog", recordElement: "record")
        let mapper = RecordMapper(definition: generator.definition)
        try writer.writeStart(to: &sink)
        try generator.forEachRecord { record in try writer.write(mapper.sourceRecord(from: record), to: &sink) }
        try writer.writeEnd(to: &sink)
        try handle.close()
        try FileManager.default.moveItem(atPath: temporary, toPath: path)
    }
}

/// FoundationXML's own speed on the file: a delegate that only counts record elements.
final class RawXMLParse: NSObject, XMLParserDelegate {
    var count = 0
    let recordElement: String

    init(recordElement: String) { self.recordElement = recordElement }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
    ) {
        if elementName == recordElement { count += 1 }
    }

    static func run(path: String, recordElement: String) {
        let delegate = RawXMLParse(recordElement: recordElement)
        guard let stream = InputStream(fileAtPath: path) else { exit(1) }
        let parser = XMLParser(stream: stream)
        parser.delegate = delegate
        _ = parser.parse()
        print(delegate.count)
    }
}

/// A child process, timed, with its peak resident memory from `wait4`.
enum Child {
    struct Result {
        var status: Int32
        var seconds: Double
        var peakRSSMiB: Int
        /// User and system CPU seconds.
        var cpuSeconds: Double = 0
    }

    /// Runs `path` with its standard output thrown away (``Spawn`` does the work).
    static func run(_ path: String, _ arguments: [String]) throws -> Result {
        try Spawn.run(path, arguments)
    }
}

/// The naive approach on the same file: one FTS5 table over title, subtitle and description,
/// diacritics removed by the tokenizer, ranked with bm25, first 50.
enum PeerFTS {
    /// The FTS5 query the peer answers for `text`: its words as phrases, the last a prefix; nil
    /// for a query of no words.
    static func match(_ text: String) -> String? {
        let words = SearchQuery(text).words
        guard !words.isEmpty else { return nil }
        return words.map { "\"\($0)\"" }.joined(separator: " ") + "*"
    }

    static func measure(databasePath: String, queries: [BenchQuery], budgetSeconds: Double) throws -> [Double] {
        let connection = try Connection(path: databasePath, mode: .readWrite)
        defer { connection.close() }
        try connection.execute("PRAGMA mmap_size = 1073741824; PRAGMA cache_size = -32768")
        let exists =
            try connection.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'peer_fts'").scalarInt() ?? 0
        if exists == 0 {
            let started = Date()
            try connection.execute(
                """
                CREATE VIRTUAL TABLE peer_fts USING fts5 (title, subtitle, description,
                    tokenize = 'unicode61 remove_diacritics 2');
                INSERT INTO peer_fts (rowid, title, subtitle, description)
                    SELECT key, title, subtitle, json_extract(record, '$.description') FROM items
                    WHERE version = (SELECT version FROM catalogs WHERE id = 'bench');
                """)
            print(String(format: "  (built the peer's FTS5 table in %.1f s)", Date().timeIntervalSince(started)))
        }
        let statement = try connection.prepare(
            "SELECT rowid FROM peer_fts WHERE peer_fts MATCH ? ORDER BY rank LIMIT 50")
        var times: [Double] = []
        let deadline = Date().addingTimeInterval(budgetSeconds)
        for query in queries {
            guard let match = match(query.text) else { continue }
            let started = DispatchTime.now().uptimeNanoseconds
            statement.reset()
            try statement.bind(match)
            while try statement.step() {}
            times.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
            if Date() > deadline { break }
        }
        return times
    }
}

enum SectionBench {
    static func measure(generator: CatalogGenerator, locale: String) throws -> (
        ours: Double, peer: Double, peerSample: Int
    ) {
        var titles: [String] = []
        titles.reserveCapacity(generator.items)
        generator.forEachRecord { titles.append($0.title) }
        let started = Date()
        let index = try SectionIndex(locale: locale)
        let collator = try Collator(locale: locale)
        var keyed: [(section: Int, key: [UInt8])] = []
        keyed.reserveCapacity(titles.count)
        for title in titles { keyed.append((index.section(for: title), collator.sortKey(title))) }
        keyed.sort { $0.section != $1.section ? $0.section < $1.section : $0.key.lexicographicallyPrecedes($1.key) }
        let ours = Date().timeIntervalSince(started)

        let sample = Array(titles.prefix(100_000))
        let foundationLocale = Locale(identifier: locale)
        let peerStarted = Date()
        _ = sample.sorted { $0.compare($1, options: [], range: nil, locale: foundationLocale) == .orderedAscending }
        return (ours, Date().timeIntervalSince(peerStarted), sample.count)
    }
}
