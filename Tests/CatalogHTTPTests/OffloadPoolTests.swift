import Foundation
import Synchronization
import Testing

@testable import CatalogHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// The offload pool's threads: jobs run there, and a lane of long jobs runs below the workers'
/// priority, with the threads its jobs start.
@Suite struct OffloadPoolTests {
    #if os(Linux)
        @Test func aNiceLaneRunsItsJobsAndTheirThreadsLower() throws {
            let own = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            let pool = OffloadPool(threads: 1, queueLimit: 1, name: "test", niceness: 7)
            defer { pool.stop() }
            let seen = Mutex<(job: Int32?, child: Int32?)>((nil, nil))
            let done = DispatchSemaphore(value: 0)
            let run: @Sendable () -> Void = {
                let job = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
                let child = Thread {
                    let value = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
                    seen.withLock { $0 = (job, value) }
                    done.signal()
                }
                child.start()
            }
            let accepted = pool.submit(run: run, cancel: { done.signal() })
            #expect(accepted)
            #expect(done.wait(timeout: .now() + 10) == .success)
            let expected = min(19, own + 7)
            #expect(seen.withLock { $0.job } == expected)
            #expect(seen.withLock { $0.child } == expected)
            // The thread that made the pool keeps its own priority.
            #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == own)
        }
    #endif
}
