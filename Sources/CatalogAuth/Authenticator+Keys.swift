import CatalogStorage
import Foundation

/// API keys for apps and scripts: `cak_<selector>_<secret>` (the shape of an ``APIToken``), each
/// limited to some catalogs and actions, perhaps until a time and to the records a filter passes.
/// The store keeps the selector and the secret's hash, never the key.
///
/// ```swift
/// let (key, text) = try auth.addKey(
///     name: "shop-app", user: "ada", catalogs: ["products"], actions: [.read, .search],
///     lifetime: .seconds(90 * 86_400), filter: nil, in: store)
/// print(text)  // the only time it is seen
/// ```
extension Authenticator {
    /// The first characters of every API key.
    public static let keyPrefix = "cak_"

    static let keyFormat = CredentialFormat(prefix: keyPrefix)

    /// What checking a presented API key found.
    public enum KeyCheck: Sendable, Equatable {
        /// A key that works now, with its account as it is now.
        case valid(StoredAPIKey, User)
        /// A genuine key whose expiry has passed.
        case expired(StoredAPIKey)
        /// A malformed, unknown or revoked key, or a wrong secret.
        case invalid
    }

    /// Makes an API key for an account.
    ///
    /// - Parameters:
    ///   - name: the key's name (unique in the database).
    ///   - user: the owning account's name.
    ///   - catalogs: catalog ids, or `["*"]` for every catalog.
    ///   - actions: what the key may do.
    ///   - lifetime: how long it works from ``clock``'s now (whole seconds), nil for ever.
    ///   - filter: the record filter's canonical text, or nil.
    ///   - store: where it goes.
    /// - Returns: the key as stored and its text, which exists nowhere else: show it once.
    /// - Throws: ``AuthError`` `.invalidArgument` for a lifetime under a second; ``StorageError``
    ///   as ``UserStore/addKey(_:)`` throws it.
    public func addKey(
        name: String, user: String, catalogs: [String], actions: [KeyAction], lifetime: Duration?, filter: String?,
        in store: any UserStore
    ) throws -> (key: StoredAPIKey, text: String) {
        var expires: String?
        if let lifetime {
            let seconds = lifetime.components.seconds
            guard seconds >= 1 else { throw AuthError(.invalidArgument, "a key must last at least one second") }
            expires = AuthClock.timestamp(clock.now().addingTimeInterval(TimeInterval(seconds)))
        }
        let issued = Self.keyFormat.issue(random: random)
        let key = StoredAPIKey(
            name: name, user: user, catalogs: Array(Set(catalogs)).sorted(), actions: Array(Set(actions)).sorted(),
            filter: filter, expires: expires, createdAt: AuthClock.timestamp(clock.now()))
        let stored = try store.addKey(NewAPIKey(key: key, selector: issued.selector, hash: issued.hash))
        return (stored, issued.text)
    }

    /// Checks a presented API key: its secret in constant time, then its expiry by ``clock``.
    ///
    /// - Parameter bearerKey: the key as presented (after `Bearer `).
    public func key(bearerKey: String, in store: any UserStore) throws -> KeyCheck {
        guard let (selector, secret) = Self.keyFormat.parse(bearerKey),
            let (key, user, hash) = try store.keyCredential(selector: selector),
            CredentialFormat.verify(secret: secret, against: hash)
        else { return .invalid }
        if let expires = key.expires {
            guard let end = AuthClock.date(fromTimestamp: expires), clock.now() < end else { return .expired(key) }
        }
        return .valid(key, user)
    }
}

extension Authenticator {
    /// A key's lifetime written as a number and a unit: `90s`, `15m`, `12h`, `90d`.
    ///
    /// - Returns: nil for anything else, for less than a second, or for more than 100 years.
    public static func keyLifetime(_ text: String) -> Duration? {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        guard let unit = text.last, let factor = units[unit], let value = Int64(text.dropLast()), value > 0,
            value <= 36_500 * 86_400 / factor
        else { return nil }
        return .seconds(value * factor)
    }
}
