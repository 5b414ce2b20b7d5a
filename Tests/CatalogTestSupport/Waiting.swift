import Foundation

/// A door that opens once: threads wait for it to open, an event, never for a time.
///
/// ```swift
/// let entered = Gate()
/// routes.get("/slow") { _, _ in entered.open(); release.wait(); return .text("done") }
/// #expect(entered.wait())
/// ```
public final class Gate: @unchecked Sendable {
    // @unchecked: `isOpen` is only touched while `condition` is held.
    private let condition = NSCondition()
    private var isOpen = false

    /// A closed gate.
    public init() {}

    /// Opens the gate: every waiter goes on, and later waits return at once.
    public func open() {
        condition.withLock {
            isOpen = true
            condition.broadcast()
        }
    }

    /// Waits until the gate is open; false when `timeout` seconds pass first, so that a test
    /// that fails does not hang.
    @discardableResult
    public func wait(timeout: TimeInterval = 120) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !isOpen {
            if !condition.wait(until: deadline) { return isOpen }
        }
        return true
    }

    /// Whether the gate is open.
    public var opened: Bool { condition.withLock { isOpen } }
}

/// Waits until `condition` holds, for state another thread or process changes without telling
/// (a server's counters, a file that appears): the condition is looked at `every` millisecond
/// (longer for a condition that asks a server), so the wait ends with the event, and gives up
/// after `timeout` seconds of waiting so that a failing test does not hang. Returns whether it held.
///
/// The timeout counts the time this waiter was running, not the wall clock: while the whole suite
/// runs on two cores, a waiter (or the work it waits for) may not get a thread for minutes, and
/// such a gap must not use up its time (``WaitBudget``).
@discardableResult
public func waitUntil(
    timeout: TimeInterval = 120, every interval: Duration = .milliseconds(1), _ condition: () throws -> Bool
) rethrows -> Bool {
    var budget = WaitBudget(timeout: timeout)
    let pause = useconds_t(
        interval.components.seconds * 1_000_000 + interval.components.attoseconds / 1_000_000_000_000)
    while try !condition() {
        guard budget.goesOn() else { return false }
        usleep(pause)
    }
    return true
}

/// The async twin of ``waitUntil(timeout:_:)``: suspends instead of blocking a thread.
@discardableResult
public func waitUntil(timeout: TimeInterval = 120, _ condition: () async throws -> Bool) async rethrows -> Bool {
    var budget = WaitBudget(timeout: timeout)
    while try await !condition() {
        guard budget.goesOn() else { return false }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}

/// The time a polling wait has used: the gaps between its looks, each counted as at most a second.
/// A longer gap means the waiter was not running (the machine or the test run's thread pool was
/// busy), and the thing it waits for may not have run either, so it is not counted in full.
struct WaitBudget {
    private let limit: Duration
    private var used: Duration = .zero
    private var last = ContinuousClock.now

    init(timeout: TimeInterval) {
        limit = .milliseconds(Int64(timeout * 1_000))
    }

    /// Counts the time since the last look; false once the budget is used up.
    mutating func goesOn() -> Bool {
        let now = ContinuousClock.now
        used += min(now - last, .seconds(1))
        last = now
        return used < limit
    }
}
