import CatalogHTTP
import CatalogSupport
import Foundation
import Synchronization

#if canImport(CMalloc)
    import CMalloc
#endif

/// Gives the heap's free pages back to the system every few seconds while `catalog serve` runs.
///
/// glibc keeps what a program frees for its later allocations and hands back only what lies at
/// the top of a heap. A server frees in bursts: a catalog's index replaced after an import (tens
/// of megabytes), a search cache's older generation, many answers' buffers at once. Free pages
/// between live ones then stay resident, counted as the process's own memory until something
/// reuses them. `malloc_trim` returns the free pages of every arena.
///
/// Every ``interval``, not more often: what searches free they take again at once, and trimming
/// that working set each second made every search fault its pages in again (measured at
/// 1,000,000 records: 5–20% fewer searches a second). A trim takes about 14 ms there, on this
/// thread; the allocator's arenas wait for it meanwhile.
///
/// Elsewhere than on glibc it does nothing.
public final class HeapTrimmer: Sendable {
    /// Seconds between trims.
    public static let interval: TimeInterval = 10

    private let task: PeriodicTask
    private let totals: Totals

    /// What the trimmer did, for the metrics.
    final class Totals: Sendable {
        let trims = Atomic<Int>(0)
        let nanoseconds = Atomic<UInt64>(0)
    }

    /// A trimmer that trims every `interval` seconds once started.
    public init(interval: TimeInterval = HeapTrimmer.interval) {
        let totals = Totals()
        self.totals = totals
        task = PeriodicTask(name: "catalog-heap-trim", interval: interval) { Self.trim(counting: totals) }
    }

    /// Starts trimming.
    public func start() {
        task.start()
    }

    /// Stops trimming (and waits for a trim under way).
    public func stop() {
        task.stop()
    }

    /// Gives the heap's free pages back now.
    public func trim() {
        Self.trim(counting: totals)
    }

    private static func trim(counting totals: Totals) {
        let start = ContinuousClock.now
        #if canImport(Glibc)
            _ = malloc_trim(0)
        #endif
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        totals.trims.add(1, ordering: .relaxed)
        totals.nanoseconds.add(
            UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000), ordering: .relaxed)
    }

    /// Bytes the allocator holds free for later allocations, resident or given back; nil
    /// elsewhere than on glibc.
    static var freeBytes: Int? {
        #if canImport(Glibc)
            Int(mallinfo2().fordblks)
        #else
            nil
        #endif
    }

    /// Adds the trims and the process's memory to `registry`.
    public func register(in registry: MetricsRegistry) {
        let totals = totals
        registry.counter("catalog_heap_trims_total", help: "Times the server gave the heap's free pages back.") {
            [([], Double(totals.trims.load(ordering: .relaxed)))]
        }
        registry.gauge(
            "catalog_heap_free_bytes",
            help: "Bytes the memory allocator holds free for later allocations (resident or given back)."
        ) {
            Self.freeBytes.map { [([], Double($0))] } ?? []
        }
        registry.counter(
            "catalog_heap_trim_seconds_total", help: "Time spent giving the heap's free pages back."
        ) {
            [([], Double(totals.nanoseconds.load(ordering: .relaxed)) / 1e9)]
        }
        registry.gauge(
            "catalog_process_resident_bytes",
            help: "The server's resident memory, by kind: anonymous (its own) and file (mapped files such as "
                + "the database, pages the system can drop and read again).",
            labels: ["kind"]
        ) {
            ProcessMemory.current().map { memory in
                [(["anonymous"], Double(memory.anonymous)), (["file"], Double(memory.file))]
            } ?? []
        }
    }
}

/// The process's resident memory as Linux counts it (`/proc/self/status`).
struct ProcessMemory: Equatable {
    /// Bytes of its own pages: heap, stacks, anonymous mappings.
    var anonymous: Int
    /// Bytes of mapped files' pages.
    var file: Int

    /// Now; nil where `/proc` does not tell.
    static func current() -> ProcessMemory? {
        ProcessStatus.kilobytes(fields).map(made)
    }

    /// Reads `RssAnon:` and `RssFile:` (in kB) from the text of a status file.
    static func parse(_ status: String) -> ProcessMemory? {
        ProcessStatus.kilobytes(fields, in: status).map(made)
    }

    private static let fields = ["RssAnon:", "RssFile:"]

    private static func made(kilobytes: [Int]) -> ProcessMemory {
        ProcessMemory(anonymous: kilobytes[0] * 1024, file: kilobytes[1] * 1024)
    }
}
