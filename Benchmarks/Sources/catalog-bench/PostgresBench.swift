import CBenchPQ
import CatalogCore
import CatalogDemo
import CatalogEngines
import CatalogModel
import CatalogStorage
import Foundation

/// The PostgreSQL figures, each beside its peer in the same run: importing the same XML file
/// (beside the SQLite engine's import), in-process as-you-type search on the same 1,000 queries
/// (beside the SQLite engine and beside naive PostgreSQL full text), and whether both engines
/// answer every query the same.
enum PostgresBench {
    /// The benchmark's database on the server, made afresh: `catalog_bench`.
    static let databaseName = "catalog_bench"

    struct SQLiteFigures {
        var path: String
        var importSeconds: Double
    }

    static func run(
        server: String, options: BenchOptions, xmlPath: String, queries: [BenchQuery], sqlite: SQLiteFigures
    ) throws {
        let url = try recreateDatabase(on: server)
        let location = PeerConnection.redacted(url)
        print("PostgreSQL: \(location)")

        // MARK: Import
        let imported = try Child.run(
            options.catalogBinary, ["import", xmlPath, "--catalog", "bench", "--db", url, "--quiet"])
        guard imported.status == 0 else {
            print("import into PostgreSQL failed (status \(imported.status))")
            exit(1)
        }
        let rate = Double(options.items) / imported.seconds
        let sqliteRate = Double(options.items) / sqlite.importSeconds
        let peer = try PeerConnection(url)
        let databaseBytes = Int64(try peer.scalar("SELECT pg_database_size(current_database())")) ?? 0
        let fileBytes = (try? FileManager.default.attributesOfItem(atPath: sqlite.path)[.size] as? Int64) ?? 0
        print("XML import into PostgreSQL (COPY, one transaction)")
        print(
            Report.line(
                "catalog import, PostgreSQL",
                String(
                    format: "%.2f s, %.0f records/s, peak RSS %d MB", imported.seconds, rate, imported.peakRSSMiB)))
        print(
            Report.line(
                "catalog import, SQLite (this run)",
                String(format: "%.2f s, %.0f records/s", sqlite.importSeconds, sqliteRate)))
        print(Report.line("ratio", String(format: "%.2f× SQLite's records/s (goal ≥ 0.5×)", rate / sqliteRate)))
        print(
            Report.line(
                "stored size",
                String(
                    format: "PostgreSQL %.2f GB, SQLite file %.2f GB", Double(databaseBytes) / 1e9,
                    Double(fileBytes) / 1e9)))
        print("")

        // MARK: Search in process, the same queries
        var serverOptions = CatalogEngines.Options()
        serverOptions.server = true
        let postgres = try BenchStore(path: url, options: serverOptions)
        let reference = try BenchStore(path: sqlite.path, options: serverOptions)
        let warmUp = QuerySet.asYouType(
            words: CatalogGenerator(items: options.items).titleWords.reversed(), scopes: [], count: 200)
        let timed = try compare(postgres, reference, queries: queries, warmUp: warmUp)
        let (ours, theirs, same, differing) = (timed.first, timed.second, timed.same, timed.differing)
        // The stores' snapshots end before the peer changes the table (its index).
        postgres.close()
        reference.close()
        let naive = try naiveFullText(
            peer, version: try peer.scalar("SELECT version FROM catalogs WHERE id = 'bench'"),
            queries: queries, budgetSeconds: options.peerSeconds)
        let oursSorted = ours.sorted()
        let naiveSorted = naive.sorted()
        print(
            "As-you-type search on PostgreSQL, \(queries.count) queries (\(queries.filter { $0.scope != nil }.count) "
                + "with a scope), limit 50, in process")
        print(Report.line("catalog on PostgreSQL", figures(oursSorted)))
        print(Report.line("catalog on SQLite, query by query", figures(theirs.sorted())))
        print(Report.line("naive full text, ts_rank LIMIT 50", figures(naiveSorted) + " (\(naive.count) queries)"))
        print(
            Report.line(
                "ratio (naive / ours)",
                String(
                    format: "p50 %.1f×  p99 %.1f×  (goal: p99 ≤ 15 ms)",
                    Report.percentile(naiveSorted, 50) / Report.percentile(oursSorted, 50),
                    Report.percentile(naiveSorted, 99) / Report.percentile(oursSorted, 99))))
        print(
            Report.line(
                "same answers as SQLite",
                "\(same) of \(queries.count) queries (records, order, counts, scopes, cursors)"
                    + (differing.isEmpty ? "" : "; differ: " + differing.joined(separator: ", "))))
        print("")
    }

    /// Times each query on both stores, one right after the other (so both see the same load),
    /// after a warm-up, and compares their answers.
    static func compare(_ first: BenchStore, _ second: BenchStore, queries: [BenchQuery], warmUp: [BenchQuery])
        throws -> (first: [Double], second: [Double], same: Int, differing: [String])
    {
        for query in warmUp {
            _ = try first.search(query)
            _ = try second.search(query)
        }
        var times: ([Double], [Double]) = ([], [])
        var same = 0
        var differing: [String] = []
        for query in queries {
            var started = DispatchTime.now().uptimeNanoseconds
            let a = try first.search(query)
            times.0.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
            started = DispatchTime.now().uptimeNanoseconds
            let b = try second.search(query)
            times.1.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
            if a.hits.map(\.stored) == b.hits.map(\.stored) && a.total == b.total && a.totalCapped == b.totalCapped
                && a.scopes == b.scopes && a.next == b.next
            {
                same += 1
            } else if differing.count < 5 {
                differing.append("\"\(query.text)\" [\(query.scope ?? "all")]")
            }
        }
        return (times.0, times.1, same, differing)
    }

    static func figures(_ sorted: [Double]) -> String {
        String(
            format: "p50 %.2f ms  p99 %.2f ms  max %.2f ms", Report.percentile(sorted, 50),
            Report.percentile(sorted, 99), sorted.last ?? 0)
    }

    /// Drops and creates `catalog_bench` on the server; returns its URL.
    static func recreateDatabase(on server: String) throws -> String {
        let admin = try PeerConnection(server)
        try admin.execute("DROP DATABASE IF EXISTS \(databaseName) WITH (FORCE)")
        try admin.execute("CREATE DATABASE \(databaseName)")
        guard var components = URLComponents(string: server) else { return server }
        components.path = "/" + databaseName
        return components.string ?? server
    }

    /// The naive approach on the same rows: a GIN index on `to_tsvector('simple', title)`, the
    /// words as a prefix tsquery, ranked with `ts_rank`, first 50.
    static func naiveFullText(_ peer: PeerConnection, version: String, queries: [BenchQuery], budgetSeconds: Double)
        throws -> [Double]
    {
        let started = Date()
        try peer.execute("CREATE INDEX peer_title_fts ON items USING gin (to_tsvector('simple', title))")
        try peer.execute("ANALYZE items")
        print(String(format: "  (built the peer's GIN index in %.1f s)", Date().timeIntervalSince(started)))
        defer { try? peer.execute("DROP INDEX peer_title_fts") }
        let sql = """
            SELECT id FROM items WHERE version = $1 AND to_tsvector('simple', title) @@ to_tsquery('simple', $2)
                ORDER BY ts_rank(to_tsvector('simple', title), to_tsquery('simple', $2)) DESC LIMIT 50
            """
        var times: [Double] = []
        let deadline = Date().addingTimeInterval(budgetSeconds)
        for query in queries {
            let words = SearchQuery(query.text).words
            guard !words.isEmpty else { continue }
            // Each word quoted as tsquery text (user input never becomes operators), the last a prefix.
            let quoted = words.map {
                "'" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
            }
            let tsquery = quoted.joined(separator: " & ") + ":*"
            let started = DispatchTime.now().uptimeNanoseconds
            _ = try peer.rows(sql, [version, tsquery])
            times.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
            if Date() > deadline { break }
        }
        return times
    }
}

/// A plain libpq connection for the benchmark itself (the peer, making the database).
final class PeerConnection {
    private let handle: OpaquePointer

    init(_ url: String) throws {
        guard let handle = PQconnectdb(url), PQstatus(handle) == CONNECTION_OK else {
            throw BenchError("cannot connect to \(Self.redacted(url))")
        }
        self.handle = handle
    }

    deinit {
        PQfinish(handle)
    }

    /// The URL without its password.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = nil
        return components.string ?? url
    }

    func execute(_ sql: String) throws {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw BenchError(String(cString: PQerrorMessage(handle)))
        }
    }

    func scalar(_ sql: String) throws -> String {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_TUPLES_OK, PQntuples(result) > 0 else {
            throw BenchError(String(cString: PQerrorMessage(handle)))
        }
        return String(cString: PQgetvalue(result, 0, 0))
    }

    /// Runs `sql` with text parameters; returns the number of rows.
    func rows(_ sql: String, _ parameters: [String]) throws -> Int {
        let copies = parameters.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let values = copies.map { UnsafePointer($0) }
        let result = PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_TUPLES_OK else {
            throw BenchError(String(cString: PQerrorMessage(handle)))
        }
        return Int(PQntuples(result))
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
