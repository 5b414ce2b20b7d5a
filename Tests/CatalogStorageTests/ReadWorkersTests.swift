import CatalogStorage
import Foundation
import Synchronization
import Testing

/// The threads jobs ran on.
private final class Seen: Sendable {
    let names = Mutex(Set<String>())
}

/// The threads that run a database's `async` reads.
@Suite struct ReadWorkersTests {
    @Test func jobsRunOnTheWorkersAndReturnWhatTheyReturn() async throws {
        let workers = ReadWorkers(name: "test.read", threads: 3)
        defer { workers.close() }
        let threads = Seen()
        let sums = try await withThrowingTaskGroup(of: Int.self) { group in
            for n in 0..<50 {
                group.addTask {
                    try await workers.run {
                        // A blocking job never runs on Swift's cooperative threads. (Thread names are
                        // for debuggers only: Foundation on Linux does not always report them.)
                        #expect(!Thread.isMainThread)
                        threads.names.withLock { _ = $0.insert("\(pthread_self())") }
                        return n * 2
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(sums == (0..<50).reduce(0) { $0 + $1 * 2 })
        #expect((1...3).contains(threads.names.withLock { $0.count }), "never more threads than the limit")
    }

    @Test func errorsAreThrownToTheCaller() async {
        let workers = ReadWorkers(name: "test.read", threads: 1)
        defer { workers.close() }
        await #expect(throws: StorageError.self) {
            try await workers.run { throw StorageError(.invalidArgument, "bad") }
        }
    }

    @Test func aClosedPoolRunsNothing() async {
        let workers = ReadWorkers(name: "test.read", threads: 2)
        workers.close()
        await #expect(throws: StorageError.self) {
            try await workers.run { 1 }
        }
    }
}
