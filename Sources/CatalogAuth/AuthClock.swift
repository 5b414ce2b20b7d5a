import Foundation

/// The time for session expiry: the system clock, or a fixed or stepped one in tests.
///
/// ```swift
/// let fixed = AuthClock { Date(timeIntervalSince1970: 1_700_000_000) }
/// ```
public struct AuthClock: Sendable {
    /// The current time.
    public var now: @Sendable () -> Date

    /// A clock reading `now`.
    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// The system clock.
    public static let system = AuthClock { Date() }

    /// `date` as stores keep times: ISO 8601 in UTC, whole seconds (`2024-05-01T12:00:00Z`).
    public static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }

    /// Reads a time written by ``timestamp(_:)``; nil when `text` is not one.
    public static func date(fromTimestamp text: String) -> Date? {
        try? Date(text, strategy: Date.ISO8601FormatStyle())
    }
}
