import CatalogAuth
import CatalogCore
import CatalogEngines
import CatalogHTTP
import CatalogStorage
import CatalogModel
import Foundation
import Synchronization

/// The application's own metrics, registered once: search latency and hits (moved by the search
/// route), and readings taken when `/metrics` is asked for: cache sizes and hits, throttled
/// sign-ins, imports running and their progress, the database's size and each catalog's change
/// number and record count.
struct CatalogMetrics: Sendable {
    let searchLatency: HistogramFamily
    let searchHits: HistogramFamily

    /// Registers the search metrics in `registry`.
    init(registry: MetricsRegistry) {
        searchLatency = registry.histogram(
            "catalog_search_duration_seconds", help: "Time to answer an API search, by catalog.", labels: ["catalog"])
        searchHits = registry.histogram(
            "catalog_search_hits", help: "Records an API search found, by catalog.", labels: ["catalog"],
            buckets: [0, 1, 10, 100, 1_000, 10_000, 100_000, 1_000_000])
    }

    /// Counts one search of `catalog` that took `elapsed` and found `hits` records.
    func searched(_ catalog: String, hits: Int, elapsed: Duration) {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        searchLatency.observe(seconds, [catalog])
        searchHits.observe(Double(hits), [catalog])
    }

    /// What the application's parts are asked for at render time.
    struct Sources: Sendable {
        var stores: any CatalogDatabase
        var responseCache: CacheCounters
        var thumbnails: ThumbnailCache
        var throttle: SignInThrottle
        var imports: ImportJobs
    }

    /// Registers the readings of `sources` in `registry`.
    static func register(_ sources: Sources, in registry: MetricsRegistry) {
        let cache = sources.responseCache
        registry.counter(
            "catalog_cache_requests_total", help: "Lookups in the server's caches, by cache and result.",
            labels: ["cache", "result"]
        ) {
            var readings: [(labels: [String], value: Double)] = [
                (["response", "hit"], Double(cache.hits.load(ordering: .relaxed))),
                (["response", "miss"], Double(cache.misses.load(ordering: .relaxed))),
                (["thumbnail", "hit"], Double(sources.thumbnails.hits.load(ordering: .relaxed))),
                (["thumbnail", "miss"], Double(sources.thumbnails.made.load(ordering: .relaxed))),
            ]
            for usage in CatalogSearchIndex.cacheUsage {
                let name = "search_" + usage.name
                readings.append(([name, "hit"], Double(usage.hits)))
                readings.append(([name, "miss"], Double(usage.misses)))
            }
            return readings
        }
        registry.gauge(
            "catalog_cache_hit_ratio", help: "Hits per lookup since the start, by cache (0 before any lookup).",
            labels: ["cache"]
        ) {
            [
                (["response"], ratio(cache.hits.load(ordering: .relaxed), cache.misses.load(ordering: .relaxed))),
                (
                    ["thumbnail"],
                    ratio(
                        sources.thumbnails.hits.load(ordering: .relaxed),
                        sources.thumbnails.made.load(ordering: .relaxed))
                ),
            ] + searchCacheReadings { ratio($0.hits, $0.misses) }
        }
        registry.gauge(
            "catalog_search_cache_bytes",
            help: "Bytes the search caches every catalog shares hold (postings, words, sets), by cache.",
            labels: ["cache"]
        ) {
            searchCacheReadings { Double($0.bytes) }
        }
        registry.gauge(
            "catalog_search_cache_entries", help: "Entries the search caches hold, by cache.", labels: ["cache"]
        ) {
            searchCacheReadings { Double($0.entries) }
        }
        registry.gauge(
            "catalog_search_index_bytes",
            help:
                "Bytes of the loaded search indexes' lexicons and columns, by where they are: mapped files "
                + "(--index-files; page cache the kernel may drop) or the heap.",
            labels: ["kind"]
        ) {
            let loaded = IndexBytes.loaded
            return [(["mapped"], Double(loaded.mapped)), (["heap"], Double(loaded.heap))]
        }
        registry.gauge("catalog_thumbnail_cache_entries", help: "Thumbnails kept in memory.") {
            [([], Double(sources.thumbnails.count))]
        }
        registry.gauge("catalog_thumbnail_cache_bytes", help: "Bytes of the thumbnails kept in memory.") {
            [([], Double(sources.thumbnails.bytes))]
        }
        registry.counter(
            "catalog_sign_ins_throttled_total", help: "Sign-ins refused because the account or address was locked."
        ) {
            [([], Double(sources.throttle.refusedCount))]
        }
        registry.gauge("catalog_imports_running", help: "Imports running in the background now.") {
            [([], Double(sources.imports.running().count))]
        }
        registry.gauge(
            "catalog_import_records_read", help: "Records read so far by each import running, by catalog.",
            labels: ["catalog"]
        ) {
            sources.imports.running().map { ([$0.catalog], Double($0.recordsRead)) }
        }
        registry.gauge(
            "catalog_import_progress_ratio",
            help: "The share of its source each import running has read (when the size is known), by catalog.",
            labels: ["catalog"]
        ) {
            sources.imports.running().compactMap { job in
                guard let total = job.totalBytes, total > 0 else { return nil }
                return ([job.catalog], min(1, Double(job.bytesRead) / Double(total)))
            }
        }
        let stores = sources.stores
        registry.gauge(
            "catalog_database_bytes",
            help: "Size of the SQLite database file with its write-ahead log (not PostgreSQL)."
        ) {
            guard let size = databaseBytes(stores.location) else { return [] }
            return [([], Double(size))]
        }
        registry.gauge(
            "catalog_change_number", help: "Each catalog's change number (grows by one with every change).",
            labels: ["catalog"]
        ) {
            catalogs(stores).map { ([$0.id], Double($0.change)) }
        }
        registry.gauge("catalog_records", help: "Records in each catalog.", labels: ["catalog"]) {
            catalogs(stores).map { ([$0.id], Double($0.count)) }
        }
        registerReplicas(stores, in: registry)
    }

    /// The read replicas' metrics (`--db-read`); without replicas they have no samples.
    private static func registerReplicas(_ stores: any CatalogDatabase, in registry: MetricsRegistry) {
        registry.counter(
            "catalog_database_reads_total",
            help: "Read snapshots begun, by database server: primary, or a read replica's URL (with read replicas).",
            labels: ["server"]
        ) {
            guard let report = stores.readReplicaReport() else { return [] }
            return [(["primary"], Double(report.primaryReads))]
                + report.replicas.map { ([$0.name], Double($0.reads)) }
        }
        registry.counter(
            "catalog_database_replica_skipped_total",
            help: "Reads that passed a read replica over because it was down or behind the newest write known.",
            labels: ["replica"]
        ) {
            stores.readReplicaReport()?.replicas.map { ([$0.name], Double($0.skipped)) } ?? []
        }
        registry.gauge(
            "catalog_database_replica_up", help: "Whether a read replica answers (1) or not (0).", labels: ["replica"]
        ) {
            stores.readReplicaReport()?.replicas.map { ([$0.name], $0.isUp ? 1 : 0) } ?? []
        }
        registry.gauge(
            "catalog_database_replica_lag_seconds",
            help:
                "How far a read replica's replay is behind: the age of the last transaction it replayed, 0 when "
                + "caught up.",
            labels: ["replica"]
        ) {
            stores.readReplicaReport()?.replicas.compactMap { replica in
                replica.lagSeconds.map { ([replica.name], $0) }
            } ?? []
        }
        registry.gauge(
            "catalog_database_replica_versions_behind",
            help: "Committed writes (data versions) the primary is ahead of a read replica.", labels: ["replica"]
        ) {
            stores.readReplicaReport()?.replicas.compactMap { replica in
                replica.versionsBehind.map { ([replica.name], Double($0)) }
            } ?? []
        }
    }

    /// One reading per search cache (``CatalogSearchIndex/cacheUsage``), labelled `search_NAME`.
    private static func searchCacheReadings(
        _ value: (SearchCacheUsage) -> Double
    ) -> [(labels: [String], value: Double)] {
        CatalogSearchIndex.cacheUsage.map { (["search_" + $0.name], value($0)) }
    }

    private static func ratio(_ hits: Int, _ misses: Int) -> Double {
        hits + misses == 0 ? 0 : Double(hits) / Double(hits + misses)
    }

    /// Every catalog's id, change number and record count; none when the database cannot be read.
    private static func catalogs(_ stores: any CatalogDatabase) -> [(id: String, change: Int, count: Int)] {
        (try? stores.read { reader in
            try reader.catalogs().compactMap { summary in
                try reader.catalog(summary.id).map { (summary.id, $0.change, summary.count) }
            }
        }) ?? []
    }

    /// The bytes of a SQLite file and its `-wal`; nil for PostgreSQL or a file that cannot be read.
    private static func databaseBytes(_ location: String) -> Int? {
        guard !CatalogEngines.isPostgres(location) else { return nil }
        let manager = FileManager.default
        guard let main = (try? manager.attributesOfItem(atPath: location))?[.size] as? Int else { return nil }
        let wal = (try? manager.attributesOfItem(atPath: location + "-wal"))?[.size] as? Int ?? 0
        return main + wal
    }
}
