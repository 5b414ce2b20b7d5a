import CatalogCollation
import CatalogCore
import CatalogDemo
import CatalogEngines
import CatalogModel
import CatalogStorage
import Foundation
import SQLiteSupport

/// Records changed in place on the benchmark's catalog (a copy of its database): one record's
/// PUT as the server makes it (``CatalogEditor``), beside the same change made to the peer's
/// FTS5 table row by row and beside what a change cost before (a whole re-import); a batch of
/// 10,000 changed records; and search after 10,000 single edits beside the fresh import's, the
/// two catalogs' searches taken in turns.
enum EditFigures {
    static func run(
        options: BenchOptions, generator: CatalogGenerator, databasePath: String, queries: [BenchQuery],
        warmQueries: [BenchQuery], reimportSeconds: Double?
    ) throws {
        let path = options.directory + "/edits.sqlite"
        // A copy of the main file only: the source is closed (no WAL of its own), and a WAL or
        // shared memory file left by an earlier run beside the copy would not belong to it.
        func remove() {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        remove()
        try FileManager.default.copyItem(atPath: databasePath, toPath: path)
        defer { remove() }
        let database = try CatalogEngines.open(path)
        defer { database.close() }
        let collation = try ICUCollation(locale: "en")
        // Records to change, spread over the catalog.
        var records: [Record] = []
        var index = 0
        let stride = max(1, options.items / 20_000)
        generator.forEachRecord { record in
            if index % stride == 0 && records.count < 20_000 { records.append(record) }
            index += 1
        }
        let words = generator.titleWords
        func changed(_ record: Record, _ round: Int) -> Record {
            var copy = record
            copy.title = record.title + " " + words[(round * 7919) % words.count]
            copy.price = Decimal(round % 500)
            return copy
        }

        // The merges the server's maintenance thread runs after each change (SegmentMerger), timed
        // apart from the changes: each one's whole time and its write transaction's.
        var merges: [SegmentMerger.Step] = []
        func merge() throws { merges += try SegmentMerger.mergeAll(catalog: "bench", in: database) }

        // One record per change, 1,000 times.
        var single: [Double] = []
        for round in 0..<1_000 {
            let record = changed(records[round % records.count], round)
            let started = DispatchTime.now().uptimeNanoseconds
            _ = try CatalogEditor.apply([RecordEdit(.upsert(record))], to: "bench", in: database, collation: collation)
            single.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
            try merge()
        }
        single.sort()
        let peer = try peerRowUpdates(path, records: Array(records.prefix(1_000)).enumerated().map { changed($1, $0) })
        print("Records changed in place, \(options.items) records (\(Load.now))")
        print(
            Report.line(
                "one record's PUT (CatalogEditor)",
                String(
                    format: "p50 %.2f ms  p99 %.2f ms  max %.2f ms (goal: p99 ≤ 20 ms) %@",
                    Report.percentile(single, 50), Report.percentile(single, 99), single.last ?? 0,
                    verdict(Report.percentile(single, 99) <= 20))))
        print(
            Report.line(
                "peer: FTS5 row UPDATE + commit",
                String(format: "p50 %.2f ms  p99 %.2f ms", Report.percentile(peer, 50), Report.percentile(peer, 99))))
        if let reimportSeconds {
            print(Report.line("before: importing the whole file", String(format: "%.1f s", reimportSeconds)))
        }

        // 10,000 changed records in one batch.
        let batch = records.prefix(10_000).enumerated().map { RecordEdit(.upsert(changed($1, $0 + 5_000))) }
        var started = DispatchTime.now().uptimeNanoseconds
        _ = try CatalogEditor.apply(batch, to: "bench", in: database, collation: collation)
        let batchSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        try merge()
        print(
            Report.line(
                "10,000 changed records, one batch",
                String(format: "%.2f s (goal ≤ 2 s) %@", batchSeconds, verdict(batchSeconds <= 2))))

        // 10,000 single edits (9,000 more), then the benchmark's searches.
        started = DispatchTime.now().uptimeNanoseconds
        for round in 1_000..<10_000 {
            let record = changed(records[(round * 3) % records.count], round + 20_000)
            _ = try CatalogEditor.apply([RecordEdit(.upsert(record))], to: "bench", in: database, collation: collation)
            try merge()
        }
        let editsSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let whole = merges.filter { $0.records > 0 }.map { ($0.buildSeconds + $0.writeSeconds) * 1e3 }.sorted()
        let written = merges.filter { $0.records > 0 }.map { $0.writeSeconds * 1e3 }.sorted()
        print(
            Report.line(
                "merges after the changes (apart)",
                String(
                    format: "%d merges of %d records: p50 %.1f ms  p99 %.1f ms  max %.1f ms, write lock max %.1f ms",
                    whole.count, merges.reduce(0) { $0 + $1.records }, Report.percentile(whole, 50),
                    Report.percentile(whole, 99), whole.last ?? 0, written.last ?? 0)))
        // The benchmark's searches on this catalog and on the fresh import it was copied from, query
        // by query in turns (which goes first alternates), so that both meet the same load.
        func searchTimes() throws -> (times: [Double], fresh: [Double], segments: Int) {
            let segments = try database.read { try $0.searchSegments(of: $0.requireCatalog("bench")).count }
            let store = try BenchStore(path: path)
            defer { store.close() }
            let freshStore = try BenchStore(path: databasePath)
            defer { freshStore.close() }
            for query in warmQueries {
                _ = try store.search(query)
                _ = try freshStore.search(query)
            }
            func time(_ store: BenchStore, _ query: BenchQuery) throws -> Double {
                let started = DispatchTime.now().uptimeNanoseconds
                _ = try store.search(query)
                return Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
            }
            var times: [Double] = []
            var fresh: [Double] = []
            for (index, query) in queries.enumerated() {
                if index % 2 == 0 {
                    times.append(try time(store, query))
                    fresh.append(try time(freshStore, query))
                } else {
                    fresh.append(try time(freshStore, query))
                    times.append(try time(store, query))
                }
            }
            return (times.sorted(), fresh.sorted(), segments)
        }
        func ratios(_ after: [Double], _ fresh: [Double]) -> (p50: Double, p99: Double) {
            (
                Report.percentile(after, 50) / max(0.001, Report.percentile(fresh, 50)),
                Report.percentile(after, 99) / max(0.001, Report.percentile(fresh, 99))
            )
        }
        let (after, fresh, segments) = try searchTimes()
        let ratio = ratios(after, fresh)
        print(
            Report.line(
                "search after 10,000 single edits",
                String(
                    format: "p50 %.2f ms  p99 %.2f ms, %d segments (9,000 edits and merges took %.1f s)",
                    Report.percentile(after, 50), Report.percentile(after, 99), segments, editsSeconds)))
        print(
            Report.line(
                "  the fresh import, in turns",
                String(
                    format: "p50 %.2f ms  p99 %.2f ms: p50 %.2f×, p99 %.2f× (goal: p99 ≤ 1.10×) %@",
                    Report.percentile(fresh, 50), Report.percentile(fresh, 99), ratio.p50, ratio.p99,
                    verdict(ratio.p99 <= 1.10))))
        started = DispatchTime.now().uptimeNanoseconds
        let compacted = try SegmentMerger.compact(catalog: "bench", in: database)
        let compactSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let (merged, mergedFresh, mergedSegments) = try searchTimes()
        let mergedRatio = ratios(merged, mergedFresh)
        print(
            Report.line(
                "the same, all but the base merged",
                String(
                    format: "p50 %.2f ms  p99 %.2f ms, %d segments (%d records merged in %.2f s, write lock %.2f s)",
                    Report.percentile(merged, 50), Report.percentile(merged, 99), mergedSegments,
                    compacted?.records ?? 0, compactSeconds, compacted?.writeSeconds ?? 0)))
        print(
            Report.line(
                "  the fresh import, in turns",
                String(
                    format: "p50 %.2f ms  p99 %.2f ms: p50 %.2f×, p99 %.2f×", Report.percentile(mergedFresh, 50),
                    Report.percentile(mergedFresh, 99), mergedRatio.p50, mergedRatio.p99)))
        print("")
    }

    /// The peer's cost of the same change: the FTS5 table's row replaced, one transaction each.
    static func peerRowUpdates(_ path: String, records: [Record]) throws -> [Double] {
        // The peer's table, built as the search figures build it when it is not there yet.
        _ = try PeerFTS.measure(databasePath: path, queries: [], budgetSeconds: 0)
        let connection = try Connection(path: path, mode: .readWrite)
        defer { connection.close() }
        guard try connection.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'peer_fts'").scalarInt() == 1
        else { return [] }
        let find = try connection.prepare(
            "SELECT rowid FROM peer_fts WHERE rowid = (SELECT key FROM items WHERE id = ? LIMIT 1)")
        let update = try connection.prepare(
            "UPDATE peer_fts SET title = ?, subtitle = ?, description = ? WHERE rowid = ?")
        var times: [Double] = []
        for record in records {
            let started = DispatchTime.now().uptimeNanoseconds
            try connection.execute("BEGIN")
            find.reset()
            try find.bind(record.id)
            let rowid = try find.step() ? find.int64(0) : 0
            find.reset()
            update.reset()
            try update.bind(record.title, record.subtitle ?? "", record.description ?? "", rowid).run()
            try connection.execute("COMMIT")
            times.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
        }
        return times.sorted()
    }
}
