import CatalogAuth
import CatalogStorage
import Foundation
import Synchronization

/// The audit log: where the server and the command line record security events (sign-ins,
/// refused requests, changes of roles, accounts, catalogs, keys and visibility), stored beside the
/// accounts on every engine (``UserStore/appendAuditEvents(_:)``).
///
/// ``record(_:actor:address:requestID:catalog:target:detail:)`` is the one entry point: it
/// never throws and never waits for the database. Events queue in memory and a thread of the
/// log's own writes them in batches; an event that cannot be written is described in the error
/// log, never in an answer. ``AuditCap`` bounds what is stored per minute per address and kind,
/// and counts what it left out. Request handlers record through the request's own overload,
/// which adds who, from where and the request id.
///
/// ```swift
/// let audit = AuditLog(database: database, log: { print($0) })
/// audit.record(.roleGranted, catalog: "cookbook", target: "mari", detail: "editor")
/// audit.close()  // writes what is queued, then stops the thread
/// ```
public final class AuditLog: Sendable {
    /// How much the log keeps in memory and stores per minute.
    public struct Limits: Sendable, Equatable {
        /// Events of one kind from one address stored per minute.
        public var perAddressPerMinute = 30
        /// Events of one kind stored per minute, from every address together.
        public var perKindPerMinute = 600
        /// Events waiting to be written; more are left out (and counted) while the database
        /// cannot keep up.
        public var maxQueued = 10_000

        /// The defaults.
        public init() {}
    }

    /// How long the log keeps an event unless told otherwise (`catalog serve --audit-keep`).
    public static let defaultRetention: TimeInterval = 90 * 86_400

    /// The most events one batch writes.
    static let batchSize = 500

    private struct State {
        var queue: [AuditEvent] = []
        var cap: AuditCap
        /// Events taken into the queue so far, and events done with (written or failed).
        var accepted = 0
        var done = 0
        /// Events left out because the queue was full, since the last note of it.
        var overflow = 0
        var stopped = false
    }

    private let database: any CatalogDatabase
    private let clock: AuthClock
    private let limits: Limits
    private let log: @Sendable (String) -> Void
    private let state: Mutex<State>
    private let condition = NSCondition()
    private let finished = DispatchSemaphore(value: 0)
    private let pruner = Mutex<PeriodicTask?>(nil)

    /// A log writing to `database`, reading the time from `clock`; `log` receives a line for
    /// every batch that cannot be written. Starts the writing thread.
    public init(
        database: any CatalogDatabase, limits: Limits = Limits(), clock: AuthClock = .system,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.database = database
        self.clock = clock
        self.limits = limits
        self.log = log
        state = Mutex(
            State(
                cap: AuditCap(limits: .init(perAddress: limits.perAddressPerMinute, perKind: limits.perKindPerMinute))))
        let thread = Thread { [self] in writeUntilStopped() }
        thread.name = "catalog-audit"
        thread.start()
    }

    /// Records an event, now. Never fails and never waits for the database: the event is
    /// written in the background, unless the cap on events per minute leaves it out.
    ///
    /// - Parameters:
    ///   - kind: what happened.
    ///   - actor: the user who acted; nil for none (an anonymous request, the command line).
    ///   - address: the client's address; nil outside a request.
    ///   - requestID: the request's id; nil outside a request.
    ///   - catalog: the catalog it concerns.
    ///   - target: what it was done to (a user's name, a key's name).
    ///   - detail: how it went or what changed (`wrong-password`, `editor (was viewer)`).
    public func record(
        _ kind: AuditEvent.Kind, actor: String? = nil, address: String? = nil, requestID: String? = nil,
        catalog: String? = nil, target: String? = nil, detail: String? = nil
    ) {
        let now = clock.now()
        let time = AuditEvent.timestamp(now)
        let minute = Int64((now.timeIntervalSince1970 / 60).rounded(.down))
        let event = AuditEvent(
            kind: kind, time: time, actor: actor, address: address, requestID: requestID, catalog: catalog,
            target: target, detail: detail)
        state.withLock { state in
            guard !state.stopped else { return }
            var events = Self.summaries(state.cap.roll(to: minute), time: time)
            if state.cap.admit(kind, address: address, minute: minute) { events.append(event) }
            _ = Self.enqueue(events, into: &state, limit: limits.maxQueued)
        }
        wake()
    }

    /// Waits until every event recorded before the call is written (or failed to be): for tests,
    /// and before the command line exits.
    public func flush() {
        rollMinute()
        let target = state.withLock { $0.accepted }
        wake()
        condition.lock()
        while state.withLock({ $0.done < target && !$0.stopped }) { condition.wait() }
        condition.unlock()
    }

    /// Writes what is queued, then stops the writing thread and the pruning; records are
    /// ignored afterwards. Call before closing the database.
    public func close() {
        pruner.withLock { $0 }?.stop()
        flush()
        condition.lock()
        let running = state.withLock { state in
            let running = !state.stopped
            state.stopped = true
            return running
        }
        condition.broadcast()
        condition.unlock()
        if running { finished.wait() }
    }

    // MARK: - Keeping

    /// Removes the events older than `retention` seconds before `now`; returns how many went.
    @discardableResult
    public func prune(keeping retention: TimeInterval, now: Date? = nil) throws -> Int {
        let cutoff = AuditEvent.timestamp((now ?? clock.now()).addingTimeInterval(-retention))
        return try database.users().pruneAuditEvents(before: cutoff)
    }

    /// Prunes the log once now, then every hour, on a thread of its own, until ``close()``.
    public func startPruning(keeping retention: TimeInterval) {
        let task = PeriodicTask(name: "catalog-audit-prune", interval: 3600) { [self] in
            do {
                let removed = try prune(keeping: retention)
                if removed > 0 { log("removed \(removed) audit events older than the audit log keeps") }
            } catch {
                log("cannot prune the audit log: \(error)")
            }
        }
        pruner.withLock { $0 = task }
        task.start()
    }

    // MARK: - Writing

    /// The events that say what a minute left out.
    private static func summaries(_ dropped: [AuditCap.Dropped], time: String) -> [AuditEvent] {
        dropped.map { drop in
            AuditEvent(
                kind: .eventsDropped, time: time, address: drop.address,
                detail: "\(drop.count) \(drop.kind.rawValue) events over the limit per minute")
        }
    }

    /// Queues `events` unless the queue is full (then counts them); returns whether any was queued.
    private static func enqueue(_ events: [AuditEvent], into state: inout State, limit: Int) -> Bool {
        var queued = false
        for event in events {
            guard state.queue.count < limit else {
                state.overflow += 1
                continue
            }
            state.queue.append(event)
            state.accepted += 1
            queued = true
        }
        return queued
    }

    /// Ends the cap's minute when a new one began, queueing what it left out.
    private func rollMinute() {
        let now = clock.now()
        let minute = Int64((now.timeIntervalSince1970 / 60).rounded(.down))
        state.withLock { state in
            let summaries = Self.summaries(state.cap.roll(to: minute), time: AuditEvent.timestamp(now))
            _ = Self.enqueue(summaries, into: &state, limit: limits.maxQueued)
        }
    }

    private func wake() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// The writing thread: batches of the queue, as they come; once a minute at least, the end
    /// of the cap's minute.
    private func writeUntilStopped() {
        while true {
            condition.lock()
            if state.withLock({ $0.queue.isEmpty && !$0.stopped }) {
                _ = condition.wait(until: Date(timeIntervalSinceNow: 60))
            }
            condition.unlock()
            rollMinute()
            let (batch, overflow, stopped) = state.withLock { state in
                let batch = Array(state.queue.prefix(Self.batchSize))
                state.queue.removeFirst(batch.count)
                defer { state.overflow = 0 }
                return (batch, state.overflow, state.stopped && state.queue.isEmpty)
            }
            if overflow > 0 {
                log("the audit log left out \(overflow) events: more came than the database could take")
            }
            if !batch.isEmpty {
                do {
                    try database.users().appendAuditEvents(batch)
                } catch {
                    log("cannot write \(batch.count) audit events: \(error)")
                }
                condition.lock()
                state.withLock { $0.done += batch.count }
                condition.broadcast()
                condition.unlock()
            }
            if stopped && batch.isEmpty { break }
        }
        finished.signal()
    }
}
