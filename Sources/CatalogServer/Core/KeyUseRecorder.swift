import CatalogAuth
import CatalogStorage
import Foundation
import Synchronization

/// Records when and from where API keys are used, at most once a minute per key, so a busy key
/// does not write on every request: on the key (its last use) and in the audit log (`key-used`).
final class KeyUseRecorder: Sendable {
    /// How long after a recorded use the next is not recorded.
    static let interval: Duration = .seconds(60)

    private let recorded = Mutex<[String: ContinuousClock.Instant]>([:])
    private let clock: AuthClock
    private let audit: AuditLog?

    init(clock: AuthClock = .system, audit: AuditLog? = nil) {
        self.clock = clock
        self.audit = audit
    }

    /// Records a use of `key` from `address`, unless one was recorded within ``interval``.
    ///
    /// Recording is best effort: a store that cannot write now (a read server on a standby, a
    /// lock held too long) loses this use, never the request.
    func used(_ key: StoredAPIKey, from address: String, in stores: any CatalogDatabase) {
        let now = ContinuousClock.now
        let due = recorded.withLock { recorded in
            if let last = recorded[key.name.lowercased()], now - last < Self.interval { return false }
            if recorded.count > 10_000 { recorded.removeAll() }
            recorded[key.name.lowercased()] = now
            return true
        }
        guard due else { return }
        try? stores.users().recordKeyUse(named: key.name, at: AuthClock.timestamp(clock.now()), from: address)
        audit?.record(.keyUsed, actor: key.user, address: address, target: key.name)
    }
}
