import CatalogConsole
import CatalogModel
import CatalogSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The time and peak memory of each import step on standard error, with `CATALOG_PROFILE=1`:
/// what the benchmarks' breakdown is made of.
///
/// ```
/// profile: read and index 1000000 records: 14210 ms, peak RSS 151 MB
/// ```
enum ImportProfile {
    /// Whether profiling is on.
    static let isEnabled = ProcessInfo.processInfo.environment["CATALOG_PROFILE"] == "1"

    /// Runs `body`, reporting its duration and the peak memory so far under `label`.
    static func step<T>(_ label: @autoclosure () -> String, _ body: () throws -> T) rethrows -> T {
        guard isEnabled else { return try body() }
        let start = ContinuousClock.now
        let startCPU = threadCPUMilliseconds()
        defer {
            let elapsed = ContinuousClock.now - start
            let milliseconds =
                elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
            var line =
                "profile: \(label()): \(milliseconds) ms (this thread's CPU \(threadCPUMilliseconds() - startCPU) ms)"
            // The resident set, the process's own memory apart from the mapped database file's
            // pages, and the peak: one read of /proc/self/status.
            if let memory = ProcessStatus.kilobytes(["VmRSS:", "RssAnon:", "VmHWM:"])?.map({ $0 / 1024 }) {
                line += ", RSS \(memory[0]) MB, \(memory[1]) MB anonymous (peak \(memory[2]) MB)"
            }
            StandardStream.error.line(line)
        }
        return try body()
    }

    /// The CPU time of the calling thread.
    static func threadCPUMilliseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return time.tv_sec * 1000 + time.tv_nsec / 1_000_000
    }
}
