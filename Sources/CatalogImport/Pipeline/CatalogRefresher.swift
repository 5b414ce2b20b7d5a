import CatalogModel
import CatalogStorage
import Foundation
import Synchronization

/// Keeps URL-sourced catalogs current in the background, for `catalog serve --refresh-every`.
///
/// Every ``interval`` it refreshes each catalog whose definition has a ``CatalogDefinition/source``,
/// one at a time, on a thread of its own: a conditional GET that changes nothing when the feed is
/// unchanged, else an import with the catalog's stored mapping. A failed refresh is logged and
/// changes nothing (the import is one transaction). Readers never wait: the import builds the new
/// version outside any lock and writes it in one short transaction.
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
    private let importer: SourceImporter
    private let database: any CatalogDatabase
    private let log: @Sendable (String) -> Void
    private let state = Mutex<State>(State())
    private let wake = NSCondition()

    private struct State {
        var stopping = false
        var rounds = 0
    }

    /// Creates a refresher; nothing runs until ``start()``.
    ///
    /// - Parameters:
    ///   - interval: seconds between rounds.
    ///   - importer: imports a changed feed.
    ///   - database: the catalogs (those without a source are skipped).
    ///   - log: receives one line per catalog refreshed, unchanged or failed.
    public init(
        interval: TimeInterval, importer: SourceImporter, database: any CatalogDatabase,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.interval = interval
        self.importer = importer
        self.database = database
        self.log = log
    }

    /// Refreshes every URL-sourced catalog once, one at a time.
    @discardableResult
    public func refreshAll() -> [Outcome] {
        let definitions: [CatalogDefinition]
        do {
            let reader = try database.reader()
            definitions = try reader.catalogs().compactMap { try reader.catalog($0.id)?.definition }
                .filter { $0.source != nil }
        } catch {
            log("refresh: cannot list the catalogs: \(error)")
            return []
        }
        var outcomes: [Outcome] = []
        for definition in definitions {
            if state.withLock({ $0.stopping }) { break }
            let outcome = refresh(definition)
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
            outcomes.append(outcome)
        }
        return outcomes
    }

    /// Refreshes one catalog.
    public func refresh(_ definition: CatalogDefinition) -> Outcome {
        guard let request = ImportRequest(refreshing: definition) else {
            return .failed(catalog: definition.id, message: "the catalog was not imported from a URL")
        }
        let importer = importer
        do {
            guard let fetched = try importer.fetch(request, stored: definition) else {
                return .notModified(catalog: definition.id)
            }
            defer { fetched.discard() }
            let summary = try importer.importFetched(fetched, request: request, database: database)
            return .refreshed(catalog: definition.id, summary: summary)
        } catch {
            return .failed(catalog: definition.id, message: String(describing: error))
        }
    }

    /// Starts the background thread: a round every ``interval`` seconds, the first one after one
    /// interval.
    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "catalog-refresher"
        thread.start()
    }

    /// Stops the thread after the refresh in progress, if any.
    public func stop() {
        state.withLock { $0.stopping = true }
        wake.lock()
        wake.broadcast()
        wake.unlock()
    }

    /// Rounds completed so far.
    public var rounds: Int { state.withLock { $0.rounds } }

    private func run() {
        while true {
            wake.lock()
            let until = Date().addingTimeInterval(interval)
            while !state.withLock({ $0.stopping }), Date() < until {
                _ = wake.wait(until: until)
            }
            wake.unlock()
            if state.withLock({ $0.stopping }) { return }
            refreshAll()
            state.withLock { $0.rounds += 1 }
        }
    }
}
