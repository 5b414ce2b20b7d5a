import CatalogCore
import CatalogStorage
import Foundation
import Synchronization

/// Merges the segments that edits leave, on one thread of its own, so a request that changes
/// records never waits for a merge: the records API, import jobs and settings changes tell it
/// which catalog changed (``notify(_:)``, as does the server's start for each catalog), and it
/// runs ``SegmentMerger/mergeAll(catalog:in:temporaryDirectory:)`` for each, one catalog at a
/// time, in the order they came. Then it prepares the catalog's searches
/// (``CatalogReader/prepareSearch(of:)``: a ranking field's order), so that no reader waits while
/// the first search makes it. The thread starts with the first change and ends with ``stop()``.
final class SegmentMaintainer: Sendable {
    private struct State {
        var pending: [String] = []
        var running = false
        var started = false
        var stopped = false
        /// Merges run since the start (for tests and logs).
        var merges = 0
        /// Orders made ready for searches since the start (for tests).
        var prepared = 0
    }

    private let database: any CatalogDatabase
    private let log: @Sendable (String) -> Void
    private let state = Mutex(State())
    private let wake = NSCondition()
    private let finished = DispatchSemaphore(value: 0)

    init(database: any CatalogDatabase, log: @escaping @Sendable (String) -> Void) {
        self.database = database
        self.log = log
    }

    /// Asks for the merges catalog `id` needs after a change.
    func notify(_ id: String) {
        wake.lock()
        let start = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            if !state.pending.contains(id) { state.pending.append(id) }
            defer { state.started = true }
            return !state.started
        }
        wake.broadcast()
        wake.unlock()
        if start { startThread() }
    }

    /// How many merges ran so far.
    var merges: Int { state.withLock { $0.merges } }

    /// How many orders were made ready for searches so far.
    var prepared: Int { state.withLock { $0.prepared } }

    /// Waits until no catalog waits for a merge and none runs (tests).
    func waitUntilIdle() {
        wake.lock()
        while state.withLock({ !$0.stopped && ($0.running || !$0.pending.isEmpty) }) { wake.wait() }
        wake.unlock()
    }

    /// Ends the thread after the merge it runs, if any, and waits for it.
    func stop() {
        wake.lock()
        let started = state.withLock { state -> Bool in
            state.stopped = true
            return state.started
        }
        wake.broadcast()
        wake.unlock()
        if started { finished.wait() }
    }

    private func startThread() {
        let thread = Thread { [self] in
            while let id = next() {
                do {
                    let steps = try SegmentMerger.mergeAll(catalog: id, in: database)
                    state.withLock { $0.merges += steps.count }
                } catch {
                    log("cannot merge the segments of catalog \"\(id)\": \(error)")
                }
                do {
                    let made = try database.read { reader in
                        try reader.catalog(id).map { try reader.prepareSearch(of: $0) } ?? 0
                    }
                    state.withLock { $0.prepared += made }
                } catch {
                    log("cannot prepare the searches of catalog \"\(id)\": \(error)")
                }
                wake.lock()
                state.withLock { $0.running = false }
                wake.broadcast()
                wake.unlock()
            }
            finished.signal()
        }
        thread.name = "catalog-merge"
        thread.start()
    }

    /// The next catalog to merge, waiting for one; nil once stopped.
    private func next() -> String? {
        wake.lock()
        defer { wake.unlock() }
        while true {
            let taken = state.withLock { state -> String?? in
                if state.stopped { return .some(nil) }
                guard !state.pending.isEmpty else { return nil }
                state.running = true
                return state.pending.removeFirst()
            }
            if let taken { return taken }
            wake.wait()
        }
    }
}
