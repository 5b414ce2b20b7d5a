import CatalogHTTP
import CatalogModel
import Foundation
import Synchronization

/// The imports running in the background (`POST /api/v1/catalogs/{id}/import` with `Prefer:
/// respond-async`) and the ones that ended lately, for `GET /api/v1/imports/{job}`.
///
/// - Bounded: at most ``maxRunning`` run at once (one more is a 503 with `Retry-After`), and at
///   most ``maxKept`` are remembered; a finished job is forgotten ``keepFor`` after it ended, or
///   sooner when newer ones need its place.
/// - Private: a job is seen by the user who started it and by administrators; to everyone else
///   it does not exist (404), so its id tells nothing.
/// - Each runs on a thread of its own, ten nice steps down as the import lane's; it stops,
///   changing nothing, at the import time limit or when the server stops (``stop()``, which
///   waits for it).
final class ImportJobs: Sendable {
    static let maxRunning = 2
    static let maxKept = 64
    static let keepFor: Duration = .seconds(15 * 60)

    private struct State {
        var jobs: [String: ImportJob] = [:]
        var stopped = false
    }

    private let state = Mutex(State())
    /// Wakes those waiting for a job to end (``waitForEnd(of:)``, used by tests).
    private let ended = NSCondition()
    private let clock: @Sendable () -> ContinuousClock.Instant
    /// Told the catalog of each job that succeeded, before the job reads as ended (the server
    /// hands it to its ``SegmentMaintainer``).
    private let succeeded: @Sendable (String) -> Void

    init(
        clock: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        succeeded: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.clock = clock
        self.succeeded = succeeded
    }

    /// The jobs running now, for the metrics.
    func running() -> [ImportJob] {
        state.withLock { $0.jobs.values.filter { $0.state == .running } }
    }

    /// `/api/v1/imports/{job}`.
    static func path(_ id: String) -> String { "/api/v1/imports/" + id }

    /// The answer to a request that started `job`: 202 with its state and `Location`, the client's
    /// `Prefer: respond-async` applied.
    static func accepted(_ job: ImportJob) throws -> Response {
        var response = try JSONResponse.make(job.document, status: .accepted)
        response.headers["Location"] = path(job.id)
        response.headers["Preference-Applied"] = "respond-async"
        return response
    }

    /// What a job's import reports as it goes: the counters ``SourceImporter`` calls.
    struct Progress: Sendable {
        let report: @Sendable (ImportJob.Event) -> Void
        /// True once the server stops.
        let isStopped: @Sendable () -> Bool
    }

    /// Starts `work` on a thread of its own as a job of `owner`'s.
    ///
    /// - Returns: the job as it starts.
    /// - Throws: 503 with `Retry-After` when ``maxRunning`` jobs run already or the server stops.
    func start(
        catalog: String, owner: Int64, _ work: @escaping @Sendable (Progress) throws -> ImportSummary
    ) throws -> ImportJob {
        let now = clock()
        let job = try state.withLock { state -> ImportJob in
            Self.prune(&state, now: now)
            let running = state.jobs.values.filter { $0.state == .running }.count
            guard !state.stopped, running < Self.maxRunning else {
                throw HTTPError(
                    .serviceUnavailable, code: "busy",
                    "\(Self.maxRunning) imports are running already; try again when one has ended",
                    headers: HTTPHeaders([("Retry-After", "5")]))
            }
            let job = ImportJob(id: Self.newID(), catalog: catalog, owner: owner, started: now)
            state.jobs[job.id] = job
            return job
        }
        let id = job.id
        let progress = Progress(
            report: { [weak self] event in self?.apply(event, to: id) },
            isStopped: { [weak self] in self?.state.withLock { $0.stopped } ?? true })
        let clock = clock
        let succeeded = succeeded
        let thread = Thread { [weak self] in
            ThreadPriority.lower(by: 10)
            let result: Result<ImportSummary, ImportJob.Failure>
            do {
                result = .success(try work(progress))
                succeeded(catalog)
            } catch {
                result = .failure(ImportJob.failure(error))
            }
            self?.apply(.finished(result, at: clock()), to: id)
        }
        thread.name = "import-job"
        thread.stackSize = 8 << 20
        thread.start()
        return job
    }

    /// The job `id` as `user` may see it: nil when there is none, or it is someone else's and
    /// `user` is no administrator.
    func job(_ id: String, for userID: Int64, isAdmin: Bool) -> ImportJob? {
        let now = clock()
        return state.withLock { state in
            Self.prune(&state, now: now)
            guard let job = state.jobs[id], isAdmin || job.owner == userID else { return nil }
            return job
        }
    }

    /// Blocks until job `id` has ended (or is forgotten); for tests, which wait for the event
    /// rather than for time.
    func waitForEnd(of id: String) -> ImportJob? {
        ended.lock()
        defer { ended.unlock() }
        while true {
            let job = state.withLock { $0.jobs[id] }
            guard let job, job.state == .running else { return job }
            ended.wait()
        }
    }

    /// Stops every running job (each at its next check, changing nothing), refuses new ones, and
    /// returns once none runs: the database can close then.
    func stop() {
        state.withLock { $0.stopped = true }
        ended.lock()
        defer { ended.unlock() }
        while state.withLock({ $0.jobs.values.contains { $0.state == .running } }) { ended.wait() }
    }

    private func apply(_ event: ImportJob.Event, to id: String) {
        let finished = state.withLock { state -> Bool in
            state.jobs[id]?.apply(event)
            return state.jobs[id]?.state != .running
        }
        if finished {
            ended.lock()
            ended.broadcast()
            ended.unlock()
        }
    }

    /// Forgets finished jobs older than ``keepFor``, then the oldest finished ones beyond
    /// ``maxKept``.
    private static func prune(_ state: inout State, now: ContinuousClock.Instant) {
        state.jobs = state.jobs.filter { _, job in job.ended.map { now - $0 < keepFor } ?? true }
        guard state.jobs.count >= maxKept else { return }
        let finished = state.jobs.values.filter { $0.state != .running }.sorted { $0.started < $1.started }
        for job in finished.prefix(state.jobs.count - maxKept + 1) { state.jobs[job.id] = nil }
    }

    private static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
