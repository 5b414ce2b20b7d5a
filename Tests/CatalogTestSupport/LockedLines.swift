import Foundation

/// Lines collected from several threads.
public final class LockedLines: @unchecked Sendable {
    // @unchecked: `storage` is only touched while `lock` is held.
    private let lock = NSCondition()
    private var storage: [String] = []

    /// An empty collection.
    public init() {}

    /// Adds a line.
    public func append(_ line: String) {
        lock.withLock {
            storage.append(line)
            lock.broadcast()
        }
    }

    /// Waits until there are at least `count` lines (an event, not a time); false when `timeout`
    /// seconds pass first, so a test that fails does not hang.
    @discardableResult
    public func wait(forCount count: Int, timeout: TimeInterval = 120) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while storage.count < count {
            if !lock.wait(until: deadline) { return storage.count >= count }
        }
        return true
    }
    /// The lines so far.
    public var lines: [String] { lock.withLock { storage } }
}
