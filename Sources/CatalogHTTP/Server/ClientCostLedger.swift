#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Synchronization

/// What each client's requests cost the server: the CPU time a worker spent answering them
/// (the elapsed time while the client owes little, ``meter(for:)``), charged to the client's
/// address and paid off at a steady rate, so that a client that sends expensive requests is
/// slowed before everybody else is.
///
/// A client whose unpaid cost is above ``Budget/burst`` is *over budget*: its requests leave the
/// event-loop workers for a lane of their own (one low-priority thread, a short queue; beyond it
/// 429 with `Retry-After`), so the cores go to the clients within their budget first. It comes
/// back as its debt is paid off, ``Budget/perSecond`` of CPU time for each second.
///
/// ```swift
/// let ledger = ClientCostLedger(budget: .init(perSecond: .milliseconds(500), burst: .seconds(2)))
/// ledger.charge("192.0.2.7", cpu: .milliseconds(160))
/// ledger.isOverBudget("192.0.2.7")  // false until 2 s of CPU are owed
/// ```
///
/// The clock is injected, so the arithmetic is tested exactly; the table of clients is bounded
/// (clients that owe nothing are forgotten first).
public final class ClientCostLedger: Sendable {
    /// How much CPU time one client may use.
    public struct Budget: Sendable, Equatable {
        /// CPU time a client may use for each second, sustained (its debt is paid off this fast).
        public var perSecond: Duration
        /// The debt a client may run up before it is slowed.
        public var burst: Duration

        /// Creates a budget.
        public init(perSecond: Duration, burst: Duration) {
            self.perSecond = perSecond
            self.burst = burst
        }

        /// Half a core per client, sustained, with two seconds of CPU time as a burst: far above
        /// what browsing or typing costs (a search is well under 10 ms), far below a client that
        /// loops on the most expensive request.
        public static let standard = Budget(perSecond: .milliseconds(500), burst: .seconds(2))
    }

    /// Seconds on a monotonic clock.
    public typealias Clock = @Sendable () -> Double

    private struct Entry {
        var debt: Double
        var updated: Double
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var slowed = 0
    }

    /// The budget every client has.
    public let budget: Budget
    private let rate: Double
    private let burst: Double
    private let clock: Clock
    private let capacity: Int
    private let state = Mutex(State())

    /// Creates a ledger.
    ///
    /// - Parameters:
    ///   - budget: what one client may use.
    ///   - capacity: the most clients remembered; past it, those that owe least are forgotten.
    ///   - clock: seconds on a monotonic clock (the process's uptime by default).
    public init(budget: Budget = .standard, capacity: Int = 16_384, clock: @escaping Clock = ClientCostLedger.uptime) {
        self.budget = budget
        rate = Self.seconds(budget.perSecond)
        burst = Self.seconds(budget.burst)
        self.capacity = max(16, capacity)
        self.clock = clock
    }

    /// Charges `cpu` to the client at `address`.
    public func charge(_ address: String, cpu: Duration) {
        let cost = Self.seconds(cpu)
        guard cost > 0, Self.isAccountable(address) else { return }
        let now = clock()
        state.withLock { state in
            var entry = state.entries[address].map { paidOff($0, at: now) } ?? Entry(debt: 0, updated: now)
            entry.debt += cost
            if state.entries[address] == nil, state.entries.count >= capacity { forgetSome(&state.entries, at: now) }
            state.entries[address] = entry
        }
    }

    /// Starts measuring what a request of the client at `address` costs (``Meter``): by the
    /// worker thread's CPU time once the client owes an eighth of its burst, before that by the
    /// time on the monotonic clock, which the C library reads without a system call. The CPU
    /// clock of a thread is two system calls a request, a twentieth of a cached answer's cost;
    /// the elapsed time is never less than the CPU time, so a client reaches the precise
    /// measure no later than it would have, and its charges are exact from there to its burst.
    public func meter(for address: String) -> Meter {
        guard Self.isAccountable(address) else { return Meter(precise: false) }
        let now = clock()
        let precise = state.withLock { state in
            state.entries[address].map { paidOff($0, at: now).debt >= burst / 8 } ?? false
        }
        return Meter(precise: precise)
    }

    /// What one request costs: ``elapsed`` since ``ClientCostLedger/meter(for:)`` made it, on the
    /// clock it chose.
    public struct Meter: Sendable {
        /// Whether this request is measured by its thread's CPU time (else by elapsed time).
        public let precise: Bool
        private let start: Duration

        init(precise: Bool) {
            self.precise = precise
            start = precise ? ClientCostLedger.threadCPUTime() : ClientCostLedger.monotonicTime()
        }

        /// The cost so far: CPU time of the calling thread (the one that made the meter), or
        /// elapsed time.
        public var elapsed: Duration {
            (precise ? ClientCostLedger.threadCPUTime() : ClientCostLedger.monotonicTime()) - start
        }
    }

    /// Whether the client at `address` owes more than its burst.
    public func isOverBudget(_ address: String) -> Bool {
        guard Self.isAccountable(address) else { return false }
        let now = clock()
        return state.withLock { state in
            guard let entry = state.entries[address] else { return false }
            return paidOff(entry, at: now).debt > burst
        }
    }

    /// Whole seconds until the client at `address` is within its budget again (at least 1).
    public func secondsUntilWithinBudget(_ address: String) -> Int {
        let now = clock()
        let debt = state.withLock { state in state.entries[address].map { paidOff($0, at: now).debt } ?? 0 }
        guard rate > 0, debt > burst else { return 1 }
        return max(1, Int(((debt - burst) / rate).rounded(.up)))
    }

    /// Counts a request sent to the slow lane (for tests and metrics).
    func noteSlowed() {
        state.withLock { $0.slowed += 1 }
    }

    /// Requests that were slowed so far.
    public var slowedRequests: Int { state.withLock { $0.slowed } }

    /// How many clients are remembered.
    public var clientCount: Int { state.withLock { $0.entries.count } }

    // MARK: - Measuring

    /// The CPU time the calling thread has used so far.
    public static func threadCPUTime() -> Duration { time(of: CLOCK_THREAD_CPUTIME_ID) }

    /// Time since an arbitrary point, monotonic (no system call: the C library reads it).
    static func monotonicTime() -> Duration { time(of: CLOCK_MONOTONIC) }

    /// Seconds since an arbitrary point, monotonic.
    @Sendable public static func uptime() -> Double {
        let (seconds, attoseconds) = monotonicTime().components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The time `clock` reads now; zero when it cannot be read.
    private static func time(of clock: clockid_t) -> Duration {
        var time = timespec()
        guard clock_gettime(clock, &time) == 0 else { return .zero }
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    // MARK: - Internals

    /// Requests without a known address (`-`, when addresses are not recorded) are never slowed.
    private static func isAccountable(_ address: String) -> Bool {
        !address.isEmpty && address != "-"
    }

    private func paidOff(_ entry: Entry, at now: Double) -> Entry {
        let elapsed = max(0, now - entry.updated)
        return Entry(debt: max(0, entry.debt - elapsed * rate), updated: now)
    }

    /// Forgets the clients that owe nothing; if all owe something, the half that owe least.
    private func forgetSome(_ entries: inout [String: Entry], at now: Double) {
        entries = entries.filter { paidOff($0.value, at: now).debt > 0 }
        guard entries.count >= capacity else { return }
        let kept = entries.sorted { $0.value.debt > $1.value.debt }.prefix(capacity / 2)
        entries = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
