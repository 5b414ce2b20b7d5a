import CatalogCore
import CatalogModel
import Foundation
import SQLiteSupport

/// Searches that filter, facet and sort (issue 22), in process: the benchmark's as-you-type
/// queries with a number range (`price 10..50`, written in the filter language) and the category
/// facet, then the same sorted by price, highest first. Beside the same on plain FTS5 (`MATCH` with a
/// `WHERE` on the price column, a `GROUP BY` over the categories of every match for the facet,
/// `ORDER BY rank` or by price, 50 rows) and on Tantivy (a range query on a fast price field and
/// a terms aggregation on the categories; tantivy_bench.py's `filtered` and `sorted` kinds).
///
/// Over HTTP the same filtered queries run in server-bench.sh beside Datasette (its
/// `search_filtered` canned query).
enum FilteredSearchFigures {
    /// The range every filtered query carries, as the filter language writes it.
    static let filter = "price 10..50"
    static let lower = 10.0
    static let upper = 50.0

    /// What one kind measured: sorted times in milliseconds.
    struct Timed {
        var label: String
        var times: [Double]

        var figures: String {
            String(
                format: "p50 %.2f ms  p99 %.2f ms  max %.2f ms (%d queries)", Report.percentile(times, 50),
                Report.percentile(times, 99), times.last ?? 0, times.count)
        }
    }

    /// The request for `query`: the range, the category facet, and the sort when asked.
    static func request(_ query: BenchQuery, sorted: Bool) throws -> SearchRequest.Checked {
        var request = SearchRequest(query: query.text, scope: query.scope, limit: 50)
        request.filter = try FilterExpression(parsing: filter)
        request.facets = [.categories]
        if sorted { request.sort = .priceDescending }
        return try request.checked()
    }

    /// Ours, in process, after `warm` (other words), each query once.
    static func ours(store: BenchStore, queries: [BenchQuery], warm: [BenchQuery], sorted: Bool) throws -> [Double] {
        for query in warm { _ = try store.search(request(query, sorted: sorted)) }
        var times: [Double] = []
        for query in queries {
            let checked = try request(query, sorted: sorted)
            let started = DispatchTime.now().uptimeNanoseconds
            _ = try store.search(checked)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
        }
        return times.sorted()
    }

    /// Plain FTS5 on the same file (PeerFTS's table): the first 50 matches in the range, ranked by
    /// bm25 or by price, and the count of every category among all matches in the range.
    static func peer(databasePath: String, queries: [BenchQuery], sorted: Bool, budgetSeconds: Double) throws
        -> [Double]
    {
        let connection = try Connection(path: databasePath, mode: .readOnly)
        defer { connection.close() }
        try connection.execute("PRAGMA mmap_size = 1073741824; PRAGMA cache_size = -32768")
        let order = sorted ? "items.price DESC" : "peer_fts.rank"
        let hits = try connection.prepare(
            """
            SELECT items.id FROM peer_fts JOIN items ON items.key = peer_fts.rowid
            WHERE peer_fts MATCH ?1 AND items.price BETWEEN ?2 AND ?3 ORDER BY \(order) LIMIT 50
            """)
        let facet = try connection.prepare(
            """
            SELECT category.value, count(*) FROM peer_fts JOIN items ON items.key = peer_fts.rowid,
                json_each(items.categories) AS category
            WHERE peer_fts MATCH ?1 AND items.price BETWEEN ?2 AND ?3 GROUP BY category.value
            """)
        var times: [Double] = []
        let deadline = Date().addingTimeInterval(budgetSeconds)
        for query in queries {
            guard let match = PeerFTS.match(query.text) else { continue }
            let started = DispatchTime.now().uptimeNanoseconds
            for statement in [hits, facet] {
                statement.reset()
                try statement.bind(match, lower, upper)
                while try statement.step() {}
            }
            times.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
            if Date() > deadline { break }
        }
        return times.sorted()
    }

    /// Prints the figures: ours, FTS5 and Tantivy (its kinds from the run TantivyPeer made) per kind.
    static func run(
        databasePath: String, queries: [BenchQuery], warm: [BenchQuery], tantivy: TantivyPeer.Result?,
        peerSeconds: Double
    ) throws {
        let store = try BenchStore(path: databasePath)
        defer { store.close() }
        print(
            "Filtered, faceted and sorted search: the \(queries.count) queries with filter=\(filter) and"
                + " facets=category (\(Load.now))")
        for sorted in [false, true] {
            let kind = sorted ? "sorted" : "filtered"
            let ours = Timed(
                label: sorted ? "catalog, sort=-price" : "catalog, relevance",
                times: try self.ours(store: store, queries: queries, warm: warm, sorted: sorted))
            let fts = Timed(
                label: sorted ? "FTS5 WHERE, ORDER BY price" : "FTS5 WHERE, ORDER BY rank",
                times: try peer(
                    databasePath: databasePath, queries: queries, sorted: sorted, budgetSeconds: peerSeconds))
            print(Report.line(ours.label, ours.figures))
            print(Report.line(fts.label, fts.figures))
            let p99 = Report.percentile(ours.times, 99)
            var ratios = String(
                format: "FTS5 p50 %.1f×  p99 %.1f×",
                Report.percentile(fts.times, 50) / Report.percentile(ours.times, 50),
                Report.percentile(fts.times, 99) / p99)
            if let peer = tantivy?.kinds[kind], peer.p99 > 0 {
                print(
                    Report.line(
                        sorted ? "Tantivy range + terms, by price" : "Tantivy range + terms, BM25",
                        String(format: "p50 %.2f ms  p99 %.2f ms  max %.2f ms", peer.p50, peer.p99, peer.max)))
                ratios += String(
                    format: "; Tantivy p50 %.1f×  p99 %.1f×", peer.p50 / Report.percentile(ours.times, 50),
                    peer.p99 / p99)
            }
            print(
                Report.line(
                    "ratio (peer / ours)", ratios + String(format: "  (goal: p99 ≤ 15 ms) %@", verdict(p99 <= 15))))
        }
        print("")
    }
}
