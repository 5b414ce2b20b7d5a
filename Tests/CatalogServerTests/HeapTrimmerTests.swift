import CatalogHTTP
import Foundation
import Testing

@testable import CatalogServer

/// The heap trimmer of `catalog serve` and the process memory it shows in the metrics.
@Suite struct HeapTrimmerTests {
    @Test func readsAnonymousAndFileMemoryFromTheStatusText() {
        let status = """
            Name:\tcatalog
            VmRSS:\t  1216512 kB
            RssAnon:\t   160712 kB
            RssFile:\t  1055800 kB
            RssShmem:\t        0 kB
            """
        #expect(ProcessMemory.parse(status) == ProcessMemory(anonymous: 160_712 * 1024, file: 1_055_800 * 1024))
        #expect(ProcessMemory.parse("Name:\tcatalog\nRssAnon:\t12 kB\n") == nil, "no file pages named")
        #expect(ProcessMemory.parse("") == nil)
    }

    @Test func showsItsTrimsAndTheProcessMemoryInTheMetrics() throws {
        let registry = MetricsRegistry()
        let trimmer = HeapTrimmer(interval: 3600)
        trimmer.register(in: registry)
        trimmer.trim()
        let text = registry.render()
        #expect(text.contains("catalog_heap_trims_total 1"))
        #expect(text.contains("# TYPE catalog_heap_free_bytes gauge"))
        #expect(text.contains("# TYPE catalog_heap_trim_seconds_total counter"))
        let anonymous = text.split(separator: "\n").first {
            $0.hasPrefix("catalog_process_resident_bytes{kind=\"anonymous\"}")
        }
        #expect(anonymous.flatMap { $0.split(separator: " ").last.flatMap { Double($0) } }.map { $0 > 0 } == true)
    }
}
