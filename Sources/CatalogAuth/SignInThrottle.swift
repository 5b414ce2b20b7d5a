import Foundation
import Synchronization

/// Slows down password guessing: failed sign-ins are counted per account and per client
/// address, and past a few free failures each further one locks that account (or address) for
/// twice as long as the one before, up to a ceiling. A locked sign-in is refused before any
/// password is hashed, with the time to wait.
///
/// A real user is never locked out for good: every lock ends after at most its ceiling (five
/// minutes for an account, fifteen for an address), counts are forgotten an hour after the last
/// failure, and an address that has signed in to an account before (within 30 days) is not held
/// by that account's lock, only by its own, so an attacker elsewhere cannot keep its owner out.
///
/// A success forgets only the failures of that account from that address: an address's failures
/// against other accounts still count, so holding one valid account does not buy unlimited guesses
/// at everyone else's, and an attacker's failures against an account from elsewhere stay counted
/// when its owner signs in.
///
/// ```swift
/// let throttle = SignInThrottle()
/// if case .locked(let wait) = throttle.check(account: "ada", address: "203.0.113.9") { … 429 … }
/// throttle.recordFailure(account: "ada", address: "203.0.113.9")
/// ```
///
/// Memory is bounded: each table keeps at most ``Policy/maxEntries`` keys, dropping the ones
/// least recently failed.
public final class SignInThrottle: Sendable {
    /// How much is tolerated, and how long locks last.
    public struct Policy: Sendable {
        /// Failures of one account before it is locked.
        public var freeFailuresPerAccount = 5
        /// Failures from one address (for any accounts) before it is locked.
        public var freeFailuresPerAddress = 20
        /// The first lock; each further failure doubles it.
        public var firstLock: TimeInterval = 1
        /// The longest lock of an account.
        public var longestAccountLock: TimeInterval = 5 * 60
        /// The longest lock of an address.
        public var longestAddressLock: TimeInterval = 15 * 60
        /// Counts are forgotten this long after the last failure.
        public var forgetAfter: TimeInterval = 60 * 60
        /// How long an address that signed in to an account is exempt from that account's lock.
        public var knownAddressLifetime: TimeInterval = 30 * 24 * 60 * 60
        /// Keys kept per table.
        public var maxEntries = 50_000

        /// The defaults above.
        public init() {}
    }

    /// Whether a sign-in may be tried now.
    public enum Decision: Equatable, Sendable {
        /// Check the password.
        case allowed
        /// Refuse it: try again after this many seconds (at least 1).
        case locked(retryAfter: Int)
    }

    struct Counter {
        var failures = 0
        var lastFailure = Date.distantPast
        var lockedUntil = Date.distantPast
    }

    /// One account tried from one address.
    struct Pair: Hashable {
        var account: String
        var address: String
    }

    struct State {
        var accounts: [String: Counter] = [:]
        var addresses: [String: Counter] = [:]
        /// Failures of each account from each address: what one success may take back.
        var pairs: [Pair: Counter] = [:]
        /// Per account, the addresses that signed in to it and when they last did.
        var known: [String: [String: Date]] = [:]
    }

    /// The limits in use.
    public let policy: Policy
    private let clock: AuthClock
    private let state = Mutex(State())
    private let refusals = Atomic<Int>(0)

    /// Sign-ins refused so far because their account or address was locked (for the metrics).
    public var refusedCount: Int { refusals.load(ordering: .relaxed) }

    /// Counts a sign-in refused because ``check(account:address:)`` said it was locked; the
    /// handler that answers it calls this once.
    public func noteRefused() {
        refusals.add(1, ordering: .relaxed)
    }

    /// Creates a throttle.
    ///
    /// - Parameters:
    ///   - policy: the limits (default ones unless given).
    ///   - clock: the time (the system clock unless given).
    public init(policy: Policy = Policy(), clock: AuthClock = .system) {
        self.policy = policy
        self.clock = clock
    }

    /// Whether a sign-in to `account` from `address` may be tried now.
    ///
    /// - Parameters:
    ///   - account: the name typed (compared ignoring ASCII case).
    ///   - address: the client's address.
    public func check(account: String, address: String) -> Decision {
        let now = clock.now()
        let account = Self.key(account)
        let address = Self.addressKey(address)
        return state.withLock { state in
            var until =
                state.addresses[address].map { Self.lockEnd($0, now: now, forgetAfter: policy.forgetAfter) }
                ?? .distantPast
            let known = state.known[account]?[address].map { now.timeIntervalSince($0) < policy.knownAddressLifetime }
            if known != true, let counter = state.accounts[account] {
                until = max(until, Self.lockEnd(counter, now: now, forgetAfter: policy.forgetAfter))
            }
            guard until > now else { return .allowed }
            return .locked(retryAfter: max(1, Int(until.timeIntervalSince(now).rounded(.up))))
        }
    }

    /// Counts a wrong password (or an unknown name) for `account` from `address`.
    public func recordFailure(account: String, address: String) {
        let now = clock.now()
        let account = Self.key(account)
        let address = Self.addressKey(address)
        state.withLock { state in
            Self.fail(
                &state.accounts, account, now: now, free: policy.freeFailuresPerAccount,
                longest: policy.longestAccountLock, policy: policy)
            Self.fail(
                &state.addresses, address, now: now, free: policy.freeFailuresPerAddress,
                longest: policy.longestAddressLock, policy: policy)
            Self.fail(
                &state.pairs, Pair(account: account, address: address), now: now, free: .max,
                longest: 0, policy: policy)
        }
    }

    /// A successful sign-in: the failures of this account from this address are forgotten (and
    /// with them any lock they alone caused), and the address is known to the account from now
    /// on. The address's failures against other accounts, and the account's from other
    /// addresses, still count.
    public func recordSuccess(account: String, address: String) {
        let now = clock.now()
        let account = Self.key(account)
        let address = Self.addressKey(address)
        state.withLock { state in
            if let pair = state.pairs.removeValue(forKey: Pair(account: account, address: address)),
                now.timeIntervalSince(pair.lastFailure) < policy.forgetAfter
            {
                Self.forget(pair.failures, in: &state.accounts, account, free: policy.freeFailuresPerAccount)
                Self.forget(pair.failures, in: &state.addresses, address, free: policy.freeFailuresPerAddress)
            }
            if state.known.count >= policy.maxEntries, state.known[account] == nil {
                state.known.removeValue(forKey: state.known.keys.first!)
            }
            var addresses = state.known[account, default: [:]]
            addresses = addresses.filter { now.timeIntervalSince($0.value) < policy.knownAddressLifetime }
            if addresses.count >= 16, let oldest = addresses.min(by: { $0.value < $1.value }) {
                addresses[oldest.key] = nil
            }
            addresses[address] = now
            state.known[account] = addresses
        }
    }

    /// Names compare ignoring ASCII case, as accounts do.
    static func key(_ account: String) -> String { account.lowercased() }

    /// The key of a client address: an IPv4 address as it is, an IPv6 address by its /64 prefix
    /// (one subscriber commonly holds a whole /64, so counting its addresses one by one would let
    /// it guess on without end).
    public static func addressKey(_ address: String) -> String {
        var bytes = in6_addr()
        guard address.contains(":"), inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        let prefix = withUnsafeBytes(of: &bytes) { Array($0.prefix(8)) }
        return stride(from: 0, to: 8, by: 2).map { String(UInt16(prefix[$0]) << 8 | UInt16(prefix[$0 + 1]), radix: 16) }
            .joined(separator: ":") + "::/64"
    }

    /// When `counter`'s lock ends (distant past when its counts are forgotten).
    static func lockEnd(_ counter: Counter, now: Date, forgetAfter: TimeInterval) -> Date {
        now.timeIntervalSince(counter.lastFailure) >= forgetAfter ? .distantPast : counter.lockedUntil
    }

    static func fail<Key: Hashable>(
        _ table: inout [Key: Counter], _ key: Key, now: Date, free: Int, longest: TimeInterval, policy: Policy
    ) {
        var counter = table[key] ?? Counter()
        if now.timeIntervalSince(counter.lastFailure) >= policy.forgetAfter { counter = Counter() }
        counter.failures += 1
        counter.lastFailure = now
        if counter.failures > free {
            let doublings = min(counter.failures - free - 1, 30)
            let lock = min(longest, policy.firstLock * pow(2, Double(doublings)))
            counter.lockedUntil = now.addingTimeInterval(lock)
        }
        if table[key] == nil, table.count >= policy.maxEntries {
            evict(&table, now: now, forgetAfter: policy.forgetAfter)
        }
        table[key] = counter
    }

    /// Takes `failures` back from `key`'s count; a count back within its free failures is no
    /// longer locked, and one at zero is dropped.
    static func forget<Key: Hashable>(_ failures: Int, in table: inout [Key: Counter], _ key: Key, free: Int) {
        guard var counter = table[key] else { return }
        counter.failures -= failures
        guard counter.failures > 0 else {
            table[key] = nil
            return
        }
        if counter.failures <= free { counter.lockedUntil = .distantPast }
        table[key] = counter
    }

    /// Drops forgotten counts, or else the tenth of the table that failed longest ago.
    static func evict<Key: Hashable>(_ table: inout [Key: Counter], now: Date, forgetAfter: TimeInterval) {
        let before = table.count
        table = table.filter { now.timeIntervalSince($0.value.lastFailure) < forgetAfter }
        guard table.count == before else { return }
        let oldest = table.sorted { $0.value.lastFailure < $1.value.lastFailure }.prefix(max(1, before / 10))
        for (key, _) in oldest { table[key] = nil }
    }
}
