import CatalogModel
import CatalogStorage
import Foundation
import Synchronization

/// Keeps URL-sourced catalogs current in the background, for `catalog serve --refresh-every`.
///
/// Every ``interval`` it refreshes each catalog whose definition has a ``CatalogDefinition/source``:
/// a conditional GET that changes nothing when the feed is unchanged, else an import with the
/// catalog's stored mapping. A failed refresh is logged and changes nothing (the import is one
/// transaction). Readers never wait: the import builds the new version outside any lock and
/// writes it in one short transaction.
///
/// Refreshes run on a small pool of threads (``concurrency``, 3 by default), each download
/// bounded by ``fetchOptions`` (its own deadline, silence timeout and size limit). In the
/// background, every ``interval`` each catalog that is not still being refreshed is queued for the
/// pool: a feed that never answers holds one thread until its deadline, and the others keep
/// refreshing on time meanwhile. Imports run one at a time, so the pool never holds more than one
/// import's memory.
///
/// ```swift
/// let refresher = CatalogRefresher(interval: 15 * 60, importer: importer, database: database,
///                                  log: { printError($0) })
/// refresher.start()
/// …
/// refresher.stop()
/// ```
public final class CatalogRefresher: Sendable {
    /// What refreshing one catalog did.
    public enum Outcome: Sendable, Equatable {
        /// The feed was unchanged (HTTP 304).
        case notModified(catalog: String)
        /// The feed changed and was imported.
        case refreshed(catalog: String, summary: ImportSummary)
        /// The refresh failed; the catalog is as it was.
        case failed(catalog: String, message: String)
    }

    /// Seconds between the starts of two rounds.
    public let interval: TimeInterval
    /// How many feeds are fetched at once.
    public let concurrency: Int
    /// How each feed is downloaded (its validators come from the catalog's definition).
    public let fetchOptions: SourceFetcher.Options
    private let importer: SourceImporter
    private let importing = NSLock()
    private let database: any CatalogDatabase
    private let log: @Sendable (String) -> Void
    private let state = Mutex<State>(State())
    private let wake = NSCondition()
    /// The background threads that have not ended yet, so ``stop()`` can wait for them.
    private let running = DispatchGroup()

    private struct State {
        var stopping = false
        var rounds = 0
        /// Background rounds started so far.
        var started = 0
        /// Catalogs waiting for a thread of the pool, with the round that queued them.
        var queue: [(definition: CatalogDefinition, round: Int)] = []
        /// Catalogs queued or being refreshed: a new round leaves them alone.
        var busy: Set<String> = []
        /// How many refreshes each unfinished round still waits for.
        var pending: [Int: Int] = [:]
    }

    /// Creates a refresher; nothing runs until ``start()``.
    ///
    /// - Parameters:
    ///   - interval: seconds between rounds.
    ///   - importer: imports a changed feed.
    ///   - database: the catalogs (those without a source are skipped).
    ///   - concurrency: how many feeds are fetched at once (at least 1).
    ///   - fetchOptions: each download's limits (`--max-download-mb`, `--allow-private-fetch`).
    ///   - log: receives one line per catalog refreshed, unchanged or failed, from any thread.
    public init(
        interval: TimeInterval, importer: SourceImporter, database: any CatalogDatabase, concurrency: Int = 3,
        fetchOptions: SourceFetcher.Options = SourceFetcher.Options(), log: @escaping @Sendable (String) -> Void
    ) {
        self.interval = interval
        self.concurrency = max(1, concurrency)
        self.fetchOptions = fetchOptions
        self.importer = importer
        self.database = database
        self.log = log
    }

    /// Refreshes every URL-sourced catalog once, ``concurrency`` feeds at a time, and returns when
    /// all are done.
    ///
    /// - Returns: each catalog's outcome, in the order of the catalogs.
    @discardableResult
    public func refreshAll() -> [Outcome] {
        let definitions = sourceDefinitions()
        let round = Round(count: definitions.count)
        let finished = DispatchGroup()
        for _ in 0..<min(concurrency, definitions.count) {
            finished.enter()
            let worker = Thread { [self] in
                defer { finished.leave() }
                while !state.withLock({ $0.stopping }), let index = round.next() {
                    let outcome = refresh(definitions[index])
                    report(outcome)
                    round.record(outcome, at: index)
                }
            }
            worker.name = "catalog-refresh"
            worker.start()
        }
        finished.wait()
        return round.outcomes
    }

    /// The catalogs of one round, shared by its threads: which one is next, and what each did.
    private final class Round: Sendable {
        private struct Progress {
            var taken = 0
            var outcomes: [Outcome?]
        }

        private let progress: Mutex<Progress>

        init(count: Int) { progress = Mutex(Progress(outcomes: Array(repeating: nil, count: count))) }

        /// The index of the next catalog to refresh, if any is left.
        func next() -> Int? {
            progress.withLock { progress in
                guard progress.taken < progress.outcomes.count else { return nil }
                defer { progress.taken += 1 }
                return progress.taken
            }
        }

        func record(_ outcome: Outcome, at index: Int) {
            progress.withLock { $0.outcomes[index] = outcome }
        }

        /// The outcomes so far, in the catalogs' order.
        var outcomes: [Outcome] { progress.withLock { $0.outcomes.compactMap { $0 } } }
    }

    /// The definitions of the catalogs imported from a URL.
    private func sourceDefinitions() -> [CatalogDefinition] {
        do {
            return try database.read { reader in
                return try reader.catalogs().compactMap { try reader.catalog($0.id)?.definition }
                    .filter { $0.source != nil }
            }
        } catch {
            log("refresh: cannot list the catalogs: \(error)")
            return []
        }
    }

    private func report(_ outcome: Outcome) {
        switch outcome {
        case .notModified(let id): log("refresh \(id): not modified")
        case .refreshed(let id, let summary) where summary.unchanged:
            log("refresh \(id): the same content as last time, nothing changed")
        case .refreshed(let id, let summary):
            log(
                "refresh \(id): read \(summary.read) records (\(summary.added) new, \(summary.updated) updated, "
                    + "\(summary.removed) removed), \(summary.total) in the catalog")
        case .failed(let id, let message): log("refresh \(id): failed, nothing changed: \(message)")
        }
    }

    /// Refreshes one catalog: plans the import the way its definition says it was read (with
    /// what the catalog holds now), fetches conditionally, and imports a changed feed.
    public func refresh(_ definition: CatalogDefinition) -> Outcome {
        guard var request = ImportRequest(refreshing: definition) else {
            return .failed(catalog: definition.id, message: "the catalog was not imported from a URL")
        }
        request.fetch = fetchOptions
        var importer = importer
        let previous = importer.isCancelled
        importer.isCancelled = { [weak self] in previous() || (self?.isStopping ?? true) }
        do {
            let plan = try ImportPlan.make(request, database: database)
            guard let fetched = try importer.fetch(plan) else {
                return .notModified(catalog: definition.id)
            }
            defer { fetched.discard() }
            importing.lock()
            defer { importing.unlock() }
            let summary = try importer.importFetched(fetched, plan: plan, database: database)
            return .refreshed(catalog: definition.id, summary: summary)
        } catch {
            return .failed(catalog: definition.id, message: String(describing: error))
        }
    }

    /// Starts the background threads: a round every ``interval`` seconds, the first one after one
    /// interval, and the pool of ``concurrency`` threads that refresh what the rounds queue.
    public func start() {
        running.enter()
        let timer = Thread { [self] in
            defer { running.leave() }
            run()
        }
        timer.name = "catalog-refresher"
        timer.start()
        for _ in 0..<concurrency {
            running.enter()
            let worker = Thread { [self] in
                defer { running.leave() }
                work()
            }
            worker.name = "catalog-refresh"
            worker.start()
        }
    }

    /// Stops: downloads and imports in progress are cancelled (an import changes nothing unless
    /// it already committed), no new ones start, and this returns once every thread has ended,
    /// so the database can be closed after it.
    public func stop() {
        wake.lock()
        state.withLock { $0.stopping = true }
        wake.broadcast()
        wake.unlock()
        running.wait()
    }

    /// Whether ``stop()`` was called: what the refreshes in progress ask to give up.
    private var isStopping: Bool { state.withLock { $0.stopping } }

    /// Background rounds completed so far: rounds whose every refresh has ended.
    public var rounds: Int { state.withLock { $0.rounds } }

    /// The timer: every interval, queues each catalog not still queued or being refreshed.
    private func run() {
        while true {
            wake.lock()
            let until = Date().addingTimeInterval(interval)
            while !state.withLock({ $0.stopping }), Date() < until {
                _ = wake.wait(until: until)
            }
            wake.unlock()
            if state.withLock({ $0.stopping }) { return }
            let definitions = sourceDefinitions()
            wake.lock()
            state.withLock { state in
                state.started += 1
                let round = state.started
                var queued = 0
                for definition in definitions where !state.busy.contains(definition.id) {
                    state.busy.insert(definition.id)
                    state.queue.append((definition, round))
                    queued += 1
                }
                if queued == 0 {
                    state.rounds += 1
                } else {
                    state.pending[round] = queued
                }
            }
            wake.broadcast()
            wake.unlock()
        }
    }

    /// A thread of the pool: refreshes queued catalogs until the refresher stops.
    private func work() {
        while true {
            wake.lock()
            while state.withLock({ !$0.stopping && $0.queue.isEmpty }) { wake.wait() }
            let job = state.withLock { $0.stopping ? nil : $0.queue.removeFirst() }
            wake.unlock()
            guard let job else { return }
            let outcome = refresh(job.definition)
            report(outcome)
            state.withLock { state in
                state.busy.remove(job.definition.id)
                let left = (state.pending[job.round] ?? 1) - 1
                state.pending[job.round] = left > 0 ? left : nil
                if left <= 0 { state.rounds += 1 }
            }
        }
    }
}
