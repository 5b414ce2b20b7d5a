import Foundation

/// How the client tries a read again after a failure that may pass: the network (offline, a
/// timeout, a dropped connection), a server that is busy or restarting (502, 503, 504), or one
/// that asked to wait (429 and 503 with `Retry-After`, when the wait is within ``maxDelay``).
///
/// Only requests that change nothing are tried again (GETs: reading records, searching, the
/// change feed's pages, snapshots' metadata): a write whose answer was lost may have happened,
/// so the client reports it and leaves the decision to the app. A later attempt goes to the next
/// of the client's servers (``CatalogClient/mirrors``), so a read survives one server being down.
///
/// ```swift
/// let client = CatalogClient(
///     baseURL: URL(string: "https://catalog-a.example.org")!,
///     mirrors: [URL(string: "https://catalog-b.example.org")!],
///     retry: RetryPolicy(attempts: 4, initialDelay: 0.2, maxDelay: 3))
/// ```
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts in all, the first included (1: never again).
    public var attempts: Int
    /// Seconds before the second attempt; each later wait doubles, up to ``maxDelay``.
    public var initialDelay: TimeInterval
    /// The longest wait between two attempts, in seconds; a server asking for longer
    /// (`Retry-After`) gets its error reported instead.
    public var maxDelay: TimeInterval

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - attempts: attempts in all (at least 1).
    ///   - initialDelay: seconds before the second attempt.
    ///   - maxDelay: the longest wait between attempts.
    public init(attempts: Int = 3, initialDelay: TimeInterval = 0.25, maxDelay: TimeInterval = 4) {
        self.attempts = max(1, attempts)
        self.initialDelay = max(0, initialDelay)
        self.maxDelay = max(0, maxDelay)
    }

    /// Three attempts, waiting a quarter of a second, then half a second (with jitter).
    public static let standard = RetryPolicy()
    /// One attempt: every failure is reported as it happens.
    public static let never = RetryPolicy(attempts: 1)

    /// The seconds to wait before attempt `attempt + 1` after `error` ended attempt `attempt`
    /// (counted from 1), or nil when the error is not one to try again or no attempt is left.
    ///
    /// The wait doubles from ``initialDelay`` with up to a quarter of it added at random (so that
    /// clients a server turned away together do not come back together); a server's
    /// `Retry-After` replaces it.
    public func delay(after error: CatalogClientError, attempt: Int) -> TimeInterval? {
        guard attempt < attempts, Self.mayPass(error) else { return nil }
        if let asked = error.retryAfter {
            let seconds = TimeInterval(asked)
            return seconds <= maxDelay ? seconds : nil
        }
        let doubled = initialDelay * pow(2, Double(attempt - 1))
        let base = min(maxDelay, doubled)
        return min(maxDelay, base + Double.random(in: 0...(base / 4)))
    }

    /// Whether `error` may pass by itself: the network, a busy or restarting server, a request to
    /// wait. A refusal, a missing record or a bad request will not.
    public static func mayPass(_ error: CatalogClientError) -> Bool {
        switch error.code {
        case .offline, .timedOut, .transport, .unavailable, .tooManyRequests: true
        case .server: error.status == 502 || error.status == 504
        default: false
        }
    }
}
