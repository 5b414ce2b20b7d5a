import Foundation

/// Lines collected from several threads.
public final class LockedLines: @unchecked Sendable {
    // @unchecked: `storage` is only touched while `lock` is held.
    private let lock = NSLock()
    private var storage: [String] = []

    /// An empty collection.
    public init() {}

    /// Adds a line.
    public func append(_ line: String) { lock.withLock { storage.append(line) } }
    /// The lines so far.
    public var lines: [String] { lock.withLock { storage } }
}
